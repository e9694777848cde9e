package io.github.delayqueue.internal.scheduler;

import java.util.function.LongSupplier;

/**
 * Whether wake-up and claim messages reach this scheduler, on the
 * {@link System#nanoTime()} scale. A subscription alone does not prove it: an idle
 * pub/sub connection can die without the client noticing (a firewall or NAT that forgets
 * it, a half-open TCP connection), and every message is then lost silently. So the
 * scheduler publishes a heartbeat on the claim channel now and then; any message heard
 * afterwards, from any instance, shows the channel works, and a heartbeat not answered
 * within {@code max-sleep} makes it silent until a message arrives again. Heartbeats also
 * keep the connection from looking idle.
 *
 * @author delayqueue contributors
 */
final class WakeUpChannelHealth {

	private final long answerWithinNanos;

	private final LongSupplier nanoClock;

	private long heartbeatNanos;

	private boolean subscribed;

	private boolean silent;

	private boolean heartbeatPending;

	private long heartbeatSentAt;

	private long nextHeartbeat;

	/**
	 * Create the health of a scheduler's channels.
	 * @param answerWithinNanos how soon a heartbeat must be heard; also how often
	 * heartbeats go out while the channel is silent
	 * @param heartbeatNanos how often heartbeats go out otherwise
	 * @param nanoClock the current time, on the {@link System#nanoTime()} scale
	 */
	WakeUpChannelHealth(long answerWithinNanos, long heartbeatNanos, LongSupplier nanoClock) {
		this.answerWithinNanos = answerWithinNanos;
		this.heartbeatNanos = heartbeatNanos;
		this.nanoClock = nanoClock;
	}

	synchronized void setHeartbeatInterval(long nanos) {
		this.heartbeatNanos = nanos;
	}

	synchronized void subscribed(boolean subscribed) {
		this.subscribed = subscribed;
		this.silent = false;
		this.heartbeatPending = false;
		this.nextHeartbeat = this.nanoClock.getAsLong() + this.heartbeatNanos;
	}

	/**
	 * Return whether messages arrive: subscribed, and the last heartbeat was heard.
	 * @return {@code true} if they do
	 */
	synchronized boolean isHealthy() {
		return this.subscribed && !this.silent;
	}

	/**
	 * A message arrived on either channel.
	 * @return whether messages had stopped arriving before it
	 */
	synchronized boolean heard() {
		boolean wasSilent = this.silent;
		this.silent = false;
		this.heartbeatPending = false;
		return wasSilent;
	}

	synchronized boolean isHeartbeatDue(long now) {
		return this.subscribed && now - this.nextHeartbeat >= 0;
	}

	/**
	 * A heartbeat is about to be published; it may be heard before the call returns.
	 * @param now the current time
	 */
	synchronized void heartbeatSent(long now) {
		this.heartbeatPending = true;
		this.heartbeatSentAt = now;
		this.nextHeartbeat = now + (this.silent ? this.answerWithinNanos : this.heartbeatNanos);
	}

	synchronized void heartbeatFailed() {
		this.heartbeatPending = false;
	}

	/**
	 * Check whether the last heartbeat went unanswered for too long.
	 * @param now the current time
	 * @return {@code true} once, when messages are found to have stopped arriving
	 */
	synchronized boolean turnedSilent(long now) {
		if (this.subscribed && !this.silent && this.heartbeatPending
				&& now - this.heartbeatSentAt - this.answerWithinNanos >= 0) {
			this.silent = true;
			this.nextHeartbeat = now;
			return true;
		}
		return false;
	}

	/**
	 * Return when a heartbeat is due or an unanswered one should be checked, if earlier
	 * than another time.
	 * @param otherwise the other time
	 * @return the earliest of them
	 */
	synchronized long nextCheck(long otherwise) {
		if (!this.subscribed) {
			return otherwise;
		}
		long next = earlier(otherwise, this.nextHeartbeat);
		return (this.heartbeatPending && !this.silent) ? earlier(next, this.heartbeatSentAt + this.answerWithinNanos)
				: next;
	}

	private static long earlier(long a, long b) {
		return (a - b < 0) ? a : b;
	}

}
