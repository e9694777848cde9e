package io.github.delayqueue.actuate;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

import io.github.delayqueue.store.JobStore.TopicState;
import io.github.delayqueue.store.JobStore;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Remembers each topic's counts and pause for a short time, so that the five gauges of a
 * topic ({@code delayqueue.queue.size} per state and {@code delayqueue.topic.paused})
 * cost one script call per interval however often they are read.
 *
 * @author delayqueue contributors
 */
final class TopicStatsCache {

	private static final Log logger = LogFactory.getLog(TopicStatsCache.class);

	private final JobStore store;

	private final long timeToLiveNanos;

	private final LongSupplier nanoClock;

	private final Map<String, Entry> entries = new ConcurrentHashMap<>();

	TopicStatsCache(JobStore store, Duration timeToLive) {
		this(store, timeToLive, System::nanoTime);
	}

	TopicStatsCache(JobStore store, Duration timeToLive, LongSupplier nanoClock) {
		this.store = store;
		this.timeToLiveNanos = timeToLive.toNanos();
		this.nanoClock = nanoClock;
	}

	/**
	 * Return a topic's counts, reading Redis only when the remembered ones are older than
	 * the time to live.
	 * @param topic the topic
	 * @return the counts, or {@code null} when Redis could not be read
	 */
	@Nullable TopicState get(String topic) {
		return this.entries.computeIfAbsent(topic, (key) -> new Entry()).get(topic);
	}

	private final class Entry {

		private @Nullable TopicState stats;

		private long readAt;

		private boolean read;

		synchronized @Nullable TopicState get(String topic) {
			long now = TopicStatsCache.this.nanoClock.getAsLong();
			if (!this.read || now - this.readAt >= TopicStatsCache.this.timeToLiveNanos) {
				this.stats = load(topic);
				this.readAt = now;
				this.read = true;
			}
			return this.stats;
		}

		private @Nullable TopicState load(String topic) {
			try {
				return TopicStatsCache.this.store.state(topic);
			}
			catch (RuntimeException ex) {
				// A failed read is remembered too: a Redis outage must not turn every
				// gauge read into another slow attempt.
				logger.debug("Cannot read the counts of topic '" + topic + "'", ex);
				return null;
			}
		}

	}

}
