package io.github.delayqueue.core;

import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * A job that just became dead, as a {@link DeadJobListener} hears of it.
 *
 * @param id the job id
 * @param topic the topic
 * @param attempts deliveries made
 * @param cause why it died
 * @param lastError the last error kept with the dead job, as {@link JobInfo#lastError()}
 * shows it
 * @param exception what the last handler failed with, or {@code null} when no handler
 * failed on this instance (an elapsed time to run, unreadable data)
 * @param headers the headers it was sent with; empty when its data could not be read
 * @param payloadJson the payload as JSON, or {@code null} when its data could not be read
 * @author delayqueue contributors
 */
public record DeadJob(String id, String topic, int attempts, Cause cause, String lastError,
		@Nullable Throwable exception, Map<String, String> headers, @Nullable String payloadJson) {

	/**
	 * Create a dead job, keeping an unmodifiable copy of the headers.
	 */
	public DeadJob {
		headers = Map.copyOf(headers);
	}

	/**
	 * Why a job died.
	 */
	public enum Cause {

		/**
		 * Its handler failed on the last of its {@code max-attempts} deliveries.
		 */
		ATTEMPTS_EXHAUSTED,

		/**
		 * Its handler threw a {@link NonRetryableJobException} (a payload that cannot be
		 * converted included) or an exception listed under {@code retry.non-retryable}.
		 */
		NON_RETRYABLE,

		/**
		 * A {@link DelayedJobErrorHandler} decided so.
		 */
		ERROR_HANDLER,

		/**
		 * Its last delivery's time to run elapsed without an acknowledgement.
		 */
		TIME_TO_RUN_ELAPSED,

		/**
		 * Its stored data could not be read.
		 */
		UNREADABLE

	}

}
