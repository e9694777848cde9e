package io.github.delayqueue.core;

/**
 * The state a job is in. Each job is in exactly one state at every instant, or gone (done
 * or cancelled).
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
	DEAD

}
