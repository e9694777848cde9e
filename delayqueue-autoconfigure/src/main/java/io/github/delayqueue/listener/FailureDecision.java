package io.github.delayqueue.listener;

import java.time.Duration;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

import io.github.delayqueue.core.NonRetryableJobException;
import io.github.delayqueue.core.RetryJobException;
import io.github.delayqueue.internal.support.TopicPolicy;
import org.jspecify.annotations.Nullable;

/**
 * What becomes of a job whose handler threw: another attempt after a wait, or death; and
 * the error kept as the job's last error, with a bounded stack trace so that
 * {@code find}, the endpoint and the dashboard show where it failed.
 *
 * @param retry whether to retry
 * @param delay the wait before the next attempt, when retrying
 * @param reason the error to keep as the job's last error
 * @param attempt the delivery that failed, 1 for the first
 * @param maxAttempts the most deliveries the job gets
 * @param nonRetryable whether the failure makes the job dead whatever attempts are left
 * @author delayqueue contributors
 */
record FailureDecision(boolean retry, Duration delay, String reason, int attempt, int maxAttempts,
		boolean nonRetryable) {

	/**
	 * The longest last error kept, stack trace included.
	 */
	static final int MAX_ERROR_LENGTH = 4000;

	/**
	 * The most stack frames kept of each exception in a cause chain, so that the root
	 * cause still fits when the outer trace is deep.
	 */
	static final int MAX_FRAMES_PER_CAUSE = 12;

	/**
	 * Decide the fate of a failed delivery.
	 * @param policy the topic's policy
	 * @param jobMaxAttempts the job's own most deliveries, or {@code null}
	 * @param attempt the delivery that failed, 1 for the first
	 * @param failure what the handler threw
	 * @return the decision
	 */
	static FailureDecision decide(TopicPolicy policy, @Nullable Integer jobMaxAttempts, int attempt,
			Throwable failure) {
		int maxAttempts = (jobMaxAttempts != null) ? jobMaxAttempts : policy.maxAttempts();
		String reason = describe(failure);
		if (isNonRetryable(policy, failure)) {
			return new FailureDecision(false, Duration.ZERO, reason, attempt, maxAttempts, true);
		}
		if (attempt >= maxAttempts) {
			return new FailureDecision(false, Duration.ZERO,
					truncate("Failed " + attempt + " of " + maxAttempts + " attempts; last: " + reason), attempt,
					maxAttempts, false);
		}
		Duration delay = (failure instanceof RetryJobException retry) ? retry.getRetryAfter()
				: policy.backoff().delayAfter(attempt, ThreadLocalRandom.current());
		return new FailureDecision(true, delay, reason, attempt, maxAttempts, false);
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

	/**
	 * Describe a failure as a stack trace does: class and message, then frames, then each
	 * cause, at most {@link #MAX_FRAMES_PER_CAUSE} frames each and
	 * {@link #MAX_ERROR_LENGTH} characters in all.
	 * @param failure the failure
	 * @return the description
	 */
	static String describe(Throwable failure) {
		StringBuilder text = new StringBuilder();
		Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
		Throwable current = failure;
		while (current != null && seen.add(current) && text.length() < MAX_ERROR_LENGTH) {
			if (current != failure) {
				text.append("\nCaused by: ");
			}
			String message = current.getMessage();
			text.append(current.getClass().getName());
			if (message != null) {
				text.append(": ").append(message);
			}
			StackTraceElement[] frames = current.getStackTrace();
			int shown = Math.min(frames.length, MAX_FRAMES_PER_CAUSE);
			for (int i = 0; i < shown; i++) {
				text.append("\n\tat ").append(frames[i]);
			}
			if (frames.length > shown) {
				text.append("\n\t... ").append(frames.length - shown).append(" more");
			}
			current = current.getCause();
		}
		return truncate(text.toString());
	}

	private static String truncate(String text) {
		return (text.length() <= MAX_ERROR_LENGTH) ? text : text.substring(0, MAX_ERROR_LENGTH);
	}

}
