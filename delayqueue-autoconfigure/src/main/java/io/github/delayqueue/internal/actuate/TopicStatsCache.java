package io.github.delayqueue.internal.actuate;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

import io.github.delayqueue.internal.store.JobStore;
import io.github.delayqueue.internal.store.JobStore.TopicState;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * The counts and pause of the topics that have gauges ({@code delayqueue.queue.size} per
 * state and {@code delayqueue.topic.paused}), read from Redis in the background, all
 * topics in one pipelined round trip per refresh. Reading a gauge never touches Redis, so
 * a scrape answers at once also while Redis is down or slow.
 * <p>
 * Redis is read only while the gauges are: the periodic refresh skips its read when no
 * gauge was read for a while, and the first read after such a quiet spell asks for a
 * refresh at once. Counts older than the quiet spell, and those of a refresh that failed,
 * read as missing.
 *
 * @author delayqueue contributors
 */
final class TopicStatsCache {

	/**
	 * How long after the last read of a gauge the counts are still refreshed, unless the
	 * refresh interval is longer.
	 */
	static final Duration READ_RECENTLY = Duration.ofMinutes(2);

	private static final Log logger = LogFactory.getLog(TopicStatsCache.class);

	private static final Snapshot NONE = new Snapshot(Map.of(), Long.MIN_VALUE);

	private final JobStore store;

	private final long intervalNanos;

	private final long readRecentlyNanos;

	private final Runnable refreshSoon;

	private final LongSupplier nanoClock;

	private final Set<String> topics = ConcurrentHashMap.newKeySet();

	private final AtomicBoolean refreshRequested = new AtomicBoolean();

	private volatile Snapshot snapshot = NONE;

	private volatile long lastReadAt;

	private volatile boolean read;

	/**
	 * Create the cache.
	 * @param store where the counts are read
	 * @param interval how often the counts are refreshed while they are read
	 * @param refreshSoon runs {@link #refresh()} in the background, soon
	 */
	TopicStatsCache(JobStore store, Duration interval, Runnable refreshSoon) {
		this(store, interval, refreshSoon, System::nanoTime);
	}

	TopicStatsCache(JobStore store, Duration interval, Runnable refreshSoon, LongSupplier nanoClock) {
		this.store = store;
		this.intervalNanos = interval.toNanos();
		this.readRecentlyNanos = Math.max(READ_RECENTLY.toNanos(), 2 * this.intervalNanos);
		this.refreshSoon = refreshSoon;
		this.nanoClock = nanoClock;
	}

	/**
	 * Include a topic in the refreshes.
	 * @param topic the topic
	 */
	void add(String topic) {
		this.topics.add(topic);
	}

	/**
	 * Leave a topic out of the refreshes.
	 * @param topic the topic
	 */
	void remove(String topic) {
		this.topics.remove(topic);
	}

	/**
	 * Return a topic's counts as last refreshed, without reading Redis; asks for a
	 * refresh when they are older than the interval.
	 * @param topic the topic
	 * @return the counts, or {@code null} when none are known, the last refresh failed or
	 * the counts are too old to show
	 */
	@Nullable TopicState get(String topic) {
		long now = this.nanoClock.getAsLong();
		this.lastReadAt = now;
		this.read = true;
		Snapshot current = this.snapshot;
		long age = now - current.readAt();
		if (current == NONE || age >= this.intervalNanos) {
			if (this.refreshRequested.compareAndSet(false, true)) {
				this.refreshSoon.run();
			}
		}
		return (current == NONE || age > this.readRecentlyNanos) ? null : current.states().get(topic);
	}

	/**
	 * Refresh the counts if a gauge was read lately; the periodic task.
	 */
	void refreshIfRead() {
		if (this.read && this.nanoClock.getAsLong() - this.lastReadAt <= this.readRecentlyNanos) {
			refresh();
		}
	}

	/**
	 * Read the counts of every topic in one round trip.
	 */
	void refresh() {
		this.refreshRequested.set(false);
		long now = this.nanoClock.getAsLong();
		try {
			this.snapshot = new Snapshot(this.store.states(List.copyOf(this.topics)), now);
		}
		catch (RuntimeException ex) {
			// Redis may be down for a while: the gauges show that nothing is known.
			logger.debug("Cannot read the counts of the delay queue's topics", ex);
			this.snapshot = new Snapshot(Map.of(), now);
		}
	}

	private record Snapshot(Map<String, TopicState> states, long readAt) {

	}

}
