package io.github.delayqueue.internal.support;

import java.time.Duration;

/**
 * Hears what happens to jobs, for metrics and logging. Every method has a no-op default;
 * implementations must be fast and must not throw.
 *
 * @author delayqueue contributors
 */
public interface JobEventListener {

	/**
	 * Jobs were sent.
	 * @param topic the topic
	 * @param count how many
	 */
	default void jobsSent(String topic, int count) {
	}

	/**
	 * A handler started a job.
	 * @param topic the topic
	 * @param lateness handler start minus due time, by the Redis clock
	 */
	default void jobStarted(String topic, Duration lateness) {
	}

	/**
	 * A handler returned normally and the job was acknowledged.
	 * @param topic the topic
	 * @param runTime how long the handler ran
	 */
	default void jobCompleted(String topic, Duration runTime) {
	}

	/**
	 * A handler threw.
	 * @param topic the topic
	 * @param runTime how long the handler ran
	 * @param failure what it threw
	 */
	default void jobFailed(String topic, Duration runTime, Throwable failure) {
	}

	/**
	 * A failed job was scheduled for another attempt.
	 * @param topic the topic
	 */
	default void jobRetried(String topic) {
	}

	/**
	 * Jobs became dead.
	 * @param topic the topic
	 * @param count how many
	 */
	default void jobsDead(String topic, int count) {
	}

	/**
	 * A send or cancel deferred until its transaction committed failed after the commit,
	 * when no caller could hear of it.
	 * @param topic the topic
	 * @param operation {@code send} or {@code cancel}
	 * @param count how many jobs it concerned
	 */
	default void deferredOperationFailed(String topic, String operation, int count) {
	}

	/**
	 * Deliveries' time to run elapsed without an acknowledgement.
	 * @param topic the topic
	 * @param count how many
	 */
	default void jobsExpired(String topic, int count) {
	}

}
