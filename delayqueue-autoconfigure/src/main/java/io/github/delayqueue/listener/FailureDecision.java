package io.github.delayqueue.listener;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

import io.github.delayqueue.core.NonRetryableJobException;
import io.github.delayqueue.core.RetryJobException;
import io.github.delayqueue.core.TopicPolicy;
import org.jspecify.annotations.Nullable;

/**
 * What becomes of a job whose handler threw: another attempt after a wait, or death.
 *
 * @param retry whether to retry
 * @param delay the wait before the next attempt, when retrying
 * @param reason the error to keep as the job's last error
 * @author delayqueue contributors
 */
public record FailureDecision(boolean retry, Duration delay, String reason) {

	private static final int MAX_ERROR_LENGTH = 2000;

	/**
	 * Decide the fate of a failed delivery.
	 * @param policy the topic's policy
	 * @param jobMaxAttempts the job's own most deliveries, or {@code null}
	 * @param attempt the delivery that failed, 1 for the first
	 * @param failure what the handler threw
	 * @return the decision
	 */
	public static FailureDecision decide(TopicPolicy policy, @Nullable Integer jobMaxAttempts, int attempt,
			Throwable failure) {
		int maxAttempts = (jobMaxAttempts != null) ? jobMaxAttempts : policy.maxAttempts();
		String reason = describe(failure);
		if (isNonRetryable(policy, failure)) {
			return new FailureDecision(false, Duration.ZERO, reason);
		}
		if (attempt >= maxAttempts) {
			return new FailureDecision(false, Duration.ZERO,
					truncate("Failed " + attempt + " of " + maxAttempts + " attempts; last: " + reason));
		}
		Duration delay = (failure instanceof RetryJobException retry) ? retry.getRetryAfter()
				: policy.backoff().delayAfter(attempt, ThreadLocalRandom.current());
		return new FailureDecision(true, delay, reason);
	}

	private static boolean isNonRetryable(TopicPolicy policy, Throwable failure) {
		if (failure instanceof NonRetryableJobException) {
			return true;
		}
		for (Class<?> type = failure.getClass(); type != null; type = type.getSuperclass()) {
			if (policy.nonRetryable().contains(type.getName())) {
				return true;
			}
		}
		return false;
	}

	static String describe(Throwable failure) {
		String message = failure.getMessage();
		return truncate(failure.getClass().getName() + ((message != null) ? ": " + message : ""));
	}

	private static String truncate(String text) {
		return (text.length() <= MAX_ERROR_LENGTH) ? text : text.substring(0, MAX_ERROR_LENGTH);
	}

}
