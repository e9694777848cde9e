package io.github.delayqueue.core;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * Thrown by a listener method to have the job retried after a delay of its choosing
 * instead of the topic's backoff, for example when a called service answered
 * {@code Retry-After}. The delivery still counts as an attempt: once the topic's
 * {@code max-attempts} deliveries were made, the job becomes dead.
 *
 * <pre class="code">
 * &#064;DelayedJobListener("payment.status")
 * void check(PaymentCheck check) {
 *     if (gateway.isBusy()) {
 *         throw new RetryJobException("Gateway busy", Duration.ofSeconds(30));
 *     }
 * }
 * </pre>
 *
 * @author delayqueue contributors
 */
public class RetryJobException extends DelayQueueException {

	private final Duration retryAfter;

	/**
	 * Create an exception asking for a retry after a delay.
	 * @param message why the attempt failed, kept as the job's last error
	 * @param retryAfter how long to wait before the next attempt, zero or more
	 */
	public RetryJobException(String message, Duration retryAfter) {
		this(message, retryAfter, null);
	}

	/**
	 * Create an exception asking for a retry after a delay.
	 * @param message why the attempt failed, kept as the job's last error
	 * @param retryAfter how long to wait before the next attempt, zero or more
	 * @param cause the underlying failure
	 */
	public RetryJobException(String message, Duration retryAfter, @Nullable Throwable cause) {
		super(message, cause);
		this.retryAfter = retryAfter.isNegative() ? Duration.ZERO : retryAfter;
	}

	/**
	 * Return how long to wait before the next attempt.
	 * @return the delay
	 */
	public Duration getRetryAfter() {
		return this.retryAfter;
	}

}
