package io.github.delayqueue.core;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * What a {@link DelayedJobErrorHandler} decides for a failed delivery: another attempt at
 * a time of its choosing, death, an acknowledgement, or what the topic's retry
 * configuration decides.
 *
 * <pre class="code">
 * Throwable exception = failure.exception();
 * if (exception instanceof PartnerBusyException busy) {
 *     return FailureAction.retryAfter(busy.retryAfter());
 * }
 * if (exception instanceof OrderGoneException) {
 *     return FailureAction.acknowledge();
 * }
 * return FailureAction.asConfigured();
 * </pre>
 *
 * @author delayqueue contributors
 */
public final class FailureAction {

	private static final FailureAction AS_CONFIGURED = new FailureAction(Kind.AS_CONFIGURED, null, null);

	private static final FailureAction DEAD = new FailureAction(Kind.DEAD, null, null);

	private static final FailureAction ACKNOWLEDGE = new FailureAction(Kind.ACKNOWLEDGE, null, null);

	private final Kind kind;

	private final @Nullable Duration retryDelay;

	private final @Nullable Instant retryAt;

	private FailureAction(Kind kind, @Nullable Duration retryDelay, @Nullable Instant retryAt) {
		this.kind = kind;
		this.retryDelay = retryDelay;
		this.retryAt = retryAt;
	}

	/**
	 * Decide as the topic's retry configuration does: another attempt after the
	 * {@code retry.backoff} (or the {@link RetryJobException}'s delay) while attempts are
	 * left, dead once {@code retry.max-attempts} deliveries were made, dead at once for a
	 * {@link NonRetryableJobException}, an exception listed under
	 * {@code retry.non-retryable}, or a payload that cannot be converted. This is what
	 * happens without an error handler.
	 * @return the action
	 */
	public static FailureAction asConfigured() {
		return AS_CONFIGURED;
	}

	/**
	 * Try the job again after a wait, whatever attempts are left: a delivery past
	 * {@code max-attempts} that later exceeds its time to run becomes dead, as the
	 * attempts count it.
	 * @param delay the wait, zero or more, counted on the Redis clock from the decision
	 * @return the action
	 */
	public static FailureAction retryAfter(Duration delay) {
		Objects.requireNonNull(delay, "delay");
		if (delay.isNegative() || delay.compareTo(DelayQueueTemplate.MAX_DELAY) > 0) {
			throw new IllegalArgumentException("Retry delay must be zero or more and at most "
					+ DelayQueueTemplate.MAX_DELAY.toDays() + " days, was " + delay);
		}
		return new FailureAction(Kind.RETRY, delay, null);
	}

	/**
	 * Try the job again at a time, see {@link #retryAfter(Duration)}; a time in the past
	 * makes it ready at once.
	 * @param dueAt when the next attempt is due
	 * @return the action
	 */
	public static FailureAction retryAt(Instant dueAt) {
		return new FailureAction(Kind.RETRY, null, Objects.requireNonNull(dueAt, "dueAt"));
	}

	/**
	 * Make the job dead at once, whatever attempts are left, with the failure as its last
	 * error; {@link DeadJobListener}s hear of it.
	 * @return the action
	 */
	public static FailureAction dead() {
		return DEAD;
	}

	/**
	 * Acknowledge the job as if its handler had succeeded: it is deleted. The failure is
	 * still counted as one ({@code delayqueue.jobs.failed}), and the job as completed.
	 * @return the action
	 */
	public static FailureAction acknowledge() {
		return ACKNOWLEDGE;
	}

	/**
	 * Return what kind of action this is.
	 * @return the kind
	 */
	public Kind kind() {
		return this.kind;
	}

	/**
	 * Return the wait before the next attempt of a {@link Kind#RETRY} made by
	 * {@link #retryAfter(Duration)}.
	 * @return the wait, or {@code null}
	 */
	public @Nullable Duration retryDelay() {
		return this.retryDelay;
	}

	/**
	 * Return when the next attempt of a {@link Kind#RETRY} made by
	 * {@link #retryAt(Instant)} is due.
	 * @return the time, or {@code null}
	 */
	public @Nullable Instant retryAt() {
		return this.retryAt;
	}

	@Override
	public String toString() {
		return switch (this.kind) {
			case RETRY -> "retry " + ((this.retryDelay != null) ? "after " + this.retryDelay : "at " + this.retryAt);
			case DEAD -> "dead";
			case ACKNOWLEDGE -> "acknowledge";
			case AS_CONFIGURED -> "as configured";
		};
	}

	/**
	 * The kinds of action.
	 */
	public enum Kind {

		/**
		 * Another attempt at a chosen time.
		 */
		RETRY,

		/**
		 * The job becomes dead.
		 */
		DEAD,

		/**
		 * The job is acknowledged and deleted.
		 */
		ACKNOWLEDGE,

		/**
		 * The topic's retry configuration decides.
		 */
		AS_CONFIGURED

	}

}
