package io.github.delayqueue.core;

import org.jspecify.annotations.Nullable;

/**
 * Thrown by a listener method to say that retrying cannot help: the job becomes
 * {@link JobState#DEAD} at once, whatever attempts are left.
 *
 * <pre class="code">
 * &#064;DelayedJobListener("refund.check")
 * void check(RefundCheck check) {
 *     if (!refunds.exists(check.refundId())) {
 *         throw new NonRetryableJobException("Refund " + check.refundId() + " does not exist");
 *     }
 * }
 * </pre>
 *
 * @author delayqueue contributors
 */
public class NonRetryableJobException extends DelayQueueException {

	/**
	 * Create an exception with the reason, kept as the dead job's last error.
	 * @param message why the job cannot succeed
	 */
	public NonRetryableJobException(String message) {
		super(message);
	}

	/**
	 * Create an exception with the reason and a cause.
	 * @param message why the job cannot succeed
	 * @param cause the underlying failure
	 */
	public NonRetryableJobException(String message, @Nullable Throwable cause) {
		super(message, cause);
	}

}
