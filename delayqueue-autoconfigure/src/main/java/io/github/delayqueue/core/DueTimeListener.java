package io.github.delayqueue.core;

/**
 * Told when this instance scheduled a job into DELAYED, so that a scheduler sleeping past
 * the job's due time can wake up early.
 *
 * @author delayqueue contributors
 */
@FunctionalInterface
public interface DueTimeListener {

	/**
	 * A job of a topic became due at a time, by the Redis clock.
	 * @param topic the topic
	 * @param dueAtMillis the due time in epoch milliseconds
	 */
	void jobScheduled(String topic, long dueAtMillis);

}
