package io.github.delayqueue.internal.scheduler;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * How long the scheduler may leave a topic unswept when it knows of nothing due in it, on
 * the {@link System#nanoTime()} scale. Every change that can make a topic due earlier
 * than the scheduler knows is either announced on a channel (an earlier due time, a
 * claim) or happens while the topic is watched, so the cap is only a safety net against
 * lost messages. It is the short {@code max-sleep} while messages may be missed: before
 * the channels are subscribed, while they are found silent (see
 * {@link WakeUpChannelHealth}), for a while after a (re)subscription or an outage, and
 * for a while after a claim of the topic, because a claiming instance announces its
 * claims of a topic at most once per {@code max-sleep}. Otherwise it is the long
 * {@code idle-max-sleep}.
 *
 * @author delayqueue contributors
 */
final class SweepCap {

	private final long maxSleepNanos;

	private volatile long idleMaxSleepNanos;

	private final Map<String, Long> watchedUntil = new ConcurrentHashMap<>();

	private final WakeUpChannelHealth health;

	private volatile long allWatchedUntil;

	/**
	 * Create the caps.
	 * @param maxSleepNanos the cap while messages may be missed or a topic is watched
	 * @param idleMaxSleepNanos the cap otherwise
	 * @param health whether messages arrive
	 * @param nanoClock the current time, on the {@link System#nanoTime()} scale
	 */
	SweepCap(long maxSleepNanos, long idleMaxSleepNanos, WakeUpChannelHealth health, LongSupplier nanoClock) {
		this.maxSleepNanos = maxSleepNanos;
		this.health = health;
		setIdleMaxSleep(idleMaxSleepNanos);
		this.allWatchedUntil = nanoClock.getAsLong();
	}

	/**
	 * Set the cap of topics that are not watched while messages arrive; never shorter
	 * than {@code max-sleep}.
	 * @param nanos the cap
	 */
	void setIdleMaxSleep(long nanos) {
		this.idleMaxSleepNanos = Math.max(this.maxSleepNanos, nanos);
	}

	/**
	 * Watch a topic: claims of it may be under way that were not announced, because their
	 * instance announced an earlier claim less than {@code max-sleep} ago. Watching for
	 * twice that long covers them with one sweep at most {@code max-sleep} after each.
	 * @param topic the topic
	 * @param now the current time
	 */
	void watch(String topic, long now) {
		this.watchedUntil.put(topic, now + 2 * this.maxSleepNanos);
	}

	/**
	 * Watch every topic, when messages may have been missed.
	 * @param now the current time
	 */
	void watchAll(long now) {
		this.allWatchedUntil = now + 2 * this.maxSleepNanos;
	}

	/**
	 * Return the longest a topic may go unswept.
	 * @param topic the topic
	 * @param now the current time
	 * @return the cap in nanoseconds
	 */
	long of(String topic, long now) {
		Long until = this.watchedUntil.get(topic);
		if (until != null && now - until >= 0) {
			this.watchedUntil.remove(topic, until);
			until = null;
		}
		return (until != null) ? this.maxSleepNanos : ofUnwatched(now);
	}

	/**
	 * Return the longest a topic that is not watched may go unswept; also how long topics
	 * that only other instances know may go unnoticed.
	 * @param now the current time
	 * @return the cap in nanoseconds
	 */
	long ofUnwatched(long now) {
		return (this.health.isHealthy() && now - this.allWatchedUntil >= 0) ? this.idleMaxSleepNanos
				: this.maxSleepNanos;
	}

}
