package io.github.delayqueue.core;

/**
 * The state a job is in. Each job is in exactly one state at every instant, or gone (done
 * or cancelled); a topic with a {@code completed-retention} keeps done and cancelled jobs
 * for a while as {@link #COMPLETED} and {@link #CANCELLED}.
 *
 * @author delayqueue contributors
 */
public enum JobState {

	/**
	 * Waiting for its due time.
	 */
	DELAYED,

	/**
	 * Due and waiting for a free consumer.
	 */
	READY,

	/**
	 * Delivered to a consumer that has not yet acknowledged it.
	 */
	RUNNING,

	/**
	 * Failed for good; kept for a person to requeue or purge.
	 */
	DEAD,

	/**
	 * Done: acknowledged by its listener. Only seen while the topic's
	 * {@code completed-retention} keeps the job; no longer pending, so a send with its id
	 * writes a new job.
	 */
	COMPLETED,

	/**
	 * Cancelled before it ran. Only seen while the topic's {@code completed-retention}
	 * keeps the job; no longer pending.
	 */
	CANCELLED

}
