package io.github.delayqueue.internal.support;

import io.github.delayqueue.internal.store.DelayQueueKeys;

/**
 * Told when this instance scheduled a job into DELAYED, so that a scheduler sleeping past
 * the job's due time can wake up early, and sweep only the queue the job was written to.
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

	/**
	 * A job became due at a time in one queue of a topic: the topic's own, or one
	 * partition of a partitioned topic. A scheduler sweeps that queue only; by default
	 * the topic is told, as {@link #jobScheduled(String, long)}.
	 * @param queue the queue, named like its topic or {@code topic~salt}
	 * @param dueAtMillis the due time in epoch milliseconds
	 */
	default void jobScheduledInQueue(String queue, long dueAtMillis) {
		jobScheduled(DelayQueueKeys.topicOf(queue), dueAtMillis);
	}

}
