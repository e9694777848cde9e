package io.github.delayqueue.core;

import java.time.Instant;
import java.util.Map;

/**
 * A delivery whose handler failed, as a {@link DelayedJobErrorHandler} sees it: the job,
 * the attempt, and what the handler threw (or what its future, {@code Mono} or
 * {@code suspend} function failed with).
 *
 * @param id the job id
 * @param topic the topic it was taken from
 * @param attempt the delivery that failed, 1 for the first
 * @param maxAttempts the most deliveries the job gets, by its own setting or its topic's
 * {@code retry.max-attempts}
 * @param dueAt when the job was due, by the Redis clock
 * @param headers the headers it was sent with
 * @param payloadJson the payload as JSON, as sent
 * @param exception what the handler failed with; a
 * {@link io.github.delayqueue.listener.PayloadConversionException} when the payload could
 * not be converted to the listener's parameter type
 * @author delayqueue contributors
 */
public record JobFailure(String id, String topic, int attempt, int maxAttempts, Instant dueAt,
		Map<String, String> headers, String payloadJson, Throwable exception) {

	/**
	 * Create a failure, keeping an unmodifiable copy of the headers.
	 */
	public JobFailure {
		headers = Map.copyOf(headers);
	}

	/**
	 * Return whether this was the job's last attempt by its {@link #maxAttempts()}: the
	 * configured decision makes the job dead.
	 * @return {@code true} if no attempt is left
	 */
	public boolean isLastAttempt() {
		return this.attempt >= this.maxAttempts;
	}

}
