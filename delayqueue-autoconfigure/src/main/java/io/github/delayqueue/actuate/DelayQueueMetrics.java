package io.github.delayqueue.actuate;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.ToLongFunction;

import io.github.delayqueue.core.JobEventListener;
import io.github.delayqueue.core.TopicStats;
import io.github.delayqueue.store.JobStore.TopicState;
import io.github.delayqueue.store.JobStore;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Micrometer meters of the delay queue, all tagged {@code topic}: job counters and timers
 * fed by the {@link JobEventListener} events of the template, the scheduler and the
 * listener containers, and {@code delayqueue.queue.size} and
 * {@code delayqueue.topic.paused} gauges read from Redis.
 * <p>
 * The gauges of a topic share one scripted read of its counts per
 * {@code statsTimeToLive}, so scraping often does not load Redis. Gauges exist for every
 * topic Redis knows (re-read every {@code topicRefreshInterval}) and every topic seen in
 * an event. Events that arrive before the binder is bound to a registry are not counted.
 * <p>
 * The timers publish a percentile histogram from {@link #MINIMUM_EXPECTED_VALUE} to
 * {@link #LATENESS_MAXIMUM_EXPECTED_VALUE} (lateness) or
 * {@link #DURATION_MAXIMUM_EXPECTED_VALUE} (run time), so that percentiles can be
 * computed across instances; {@code management.metrics.distribution.*} properties
 * override these settings.
 *
 * @author delayqueue contributors
 */
public class DelayQueueMetrics implements MeterBinder, JobEventListener, AutoCloseable {

	/**
	 * How long the counts of a topic are reused by default.
	 */
	public static final Duration DEFAULT_STATS_TIME_TO_LIVE = Duration.ofSeconds(5);

	/**
	 * How often the set of topics is re-read from Redis by default.
	 */
	public static final Duration DEFAULT_TOPIC_REFRESH_INTERVAL = Duration.ofSeconds(30);

	/**
	 * Smallest lateness and run time the histograms of the timers tell apart.
	 */
	public static final Duration MINIMUM_EXPECTED_VALUE = Duration.ofMillis(1);

	/**
	 * Largest lateness the histogram of {@code delayqueue.job.lateness} tells apart:
	 * after an outage, jobs start minutes late, far beyond Micrometer's 30 second
	 * default.
	 */
	public static final Duration LATENESS_MAXIMUM_EXPECTED_VALUE = Duration.ofHours(1);

	/**
	 * Largest run time the histogram of {@code delayqueue.job.duration} tells apart: well
	 * above the default time to run (60 s), since topics with long jobs raise it.
	 */
	public static final Duration DURATION_MAXIMUM_EXPECTED_VALUE = Duration.ofMinutes(30);

	private static final Log logger = LogFactory.getLog(DelayQueueMetrics.class);

	private static final String TOPIC = "topic";

	private final JobStore store;

	private final TopicStatsCache statsCache;

	private final Duration topicRefreshInterval;

	private final Set<String> seenTopics = ConcurrentHashMap.newKeySet();

	private final Map<String, TopicMeters> meters = new ConcurrentHashMap<>();

	private volatile @Nullable MeterRegistry registry;

	private @Nullable ScheduledExecutorService topicRefresher;

	/**
	 * Create the meters with the default intervals.
	 * @param store where the queue sizes are read
	 */
	public DelayQueueMetrics(JobStore store) {
		this(store, DEFAULT_STATS_TIME_TO_LIVE, DEFAULT_TOPIC_REFRESH_INTERVAL);
	}

	/**
	 * Create the meters.
	 * @param store where the queue sizes are read
	 * @param statsTimeToLive how long a topic's counts are reused by its gauges
	 * @param topicRefreshInterval how often the set of topics is re-read from Redis
	 */
	public DelayQueueMetrics(JobStore store, Duration statsTimeToLive, Duration topicRefreshInterval) {
		this.store = store;
		this.statsCache = new TopicStatsCache(store, statsTimeToLive);
		this.topicRefreshInterval = topicRefreshInterval;
	}

	@Override
	public synchronized void bindTo(MeterRegistry registry) {
		this.registry = registry;
		this.meters.clear();
		this.seenTopics.forEach(this::meters);
		if (this.topicRefresher == null) {
			ScheduledExecutorService refresher = Executors.newSingleThreadScheduledExecutor((task) -> {
				Thread thread = new Thread(task, "delayqueue-metrics");
				thread.setDaemon(true);
				return thread;
			});
			long interval = this.topicRefreshInterval.toMillis();
			refresher.scheduleWithFixedDelay(this::refreshTopics, 0, interval, TimeUnit.MILLISECONDS);
			this.topicRefresher = refresher;
		}
	}

	/**
	 * Register the meters of every topic Redis knows and that have none yet.
	 */
	public void refreshTopics() {
		try {
			this.store.topics().forEach(this::meters);
		}
		catch (RuntimeException ex) {
			// Redis may be down for a while; the next refresh tries again.
			logger.debug("Cannot read the delay queue topics", ex);
		}
	}

	@Override
	public void jobsSent(String topic, int count) {
		TopicMeters meters = meters(topic);
		if (meters != null) {
			meters.sent.increment(count);
		}
	}

	@Override
	public void jobStarted(String topic, Duration lateness) {
		TopicMeters meters = meters(topic);
		if (meters != null) {
			// Clocks of Redis and the job's due time agree, but a job fetched in the same
			// millisecond it is due may show a tiny negative lateness: it was on time.
			meters.lateness.record(lateness.isNegative() ? Duration.ZERO : lateness);
		}
	}

	@Override
	public void jobCompleted(String topic, Duration runTime) {
		TopicMeters meters = meters(topic);
		if (meters != null) {
			meters.completed.increment();
			meters.success.record(runTime);
		}
	}

	@Override
	public void jobFailed(String topic, Duration runTime, Throwable failure) {
		TopicMeters meters = meters(topic);
		if (meters != null) {
			meters.failed.increment();
			meters.failure.record(runTime);
		}
	}

	@Override
	public void jobRetried(String topic) {
		TopicMeters meters = meters(topic);
		if (meters != null) {
			meters.retried.increment();
		}
	}

	@Override
	public void jobsDead(String topic, int count) {
		TopicMeters meters = meters(topic);
		if (meters != null) {
			meters.dead.increment(count);
		}
	}

	@Override
	public void jobsExpired(String topic, int count) {
		TopicMeters meters = meters(topic);
		if (meters != null) {
			meters.expired.increment(count);
		}
	}

	/**
	 * Stop re-reading the topics.
	 */
	@Override
	public synchronized void close() {
		if (this.topicRefresher != null) {
			this.topicRefresher.shutdownNow();
			this.topicRefresher = null;
		}
	}

	private @Nullable TopicMeters meters(String topic) {
		MeterRegistry registry = this.registry;
		if (registry == null) {
			this.seenTopics.add(topic);
			return null;
		}
		TopicMeters existing = this.meters.get(topic);
		return (existing != null) ? existing : this.meters.computeIfAbsent(topic, (key) -> {
			this.seenTopics.add(key);
			return new TopicMeters(registry, key);
		});
	}

	private double queueSize(String topic, ToLongFunction<TopicStats> state) {
		TopicState current = this.statsCache.get(topic);
		return (current != null) ? state.applyAsLong(current.stats()) : Double.NaN;
	}

	private double paused(String topic) {
		TopicState current = this.statsCache.get(topic);
		if (current == null) {
			return Double.NaN;
		}
		return current.paused() ? 1 : 0;
	}

	/**
	 * The meters of one topic, looked up once so that events cost no registry search.
	 */
	private final class TopicMeters {

		final Counter sent;

		final Counter completed;

		final Counter failed;

		final Counter retried;

		final Counter dead;

		final Counter expired;

		final Timer success;

		final Timer failure;

		final Timer lateness;

		TopicMeters(MeterRegistry registry, String topic) {
			this.sent = counter(registry, topic, "sent", "Jobs sent");
			this.completed = counter(registry, topic, "completed", "Jobs whose handler returned normally");
			this.failed = counter(registry, topic, "failed", "Deliveries whose handler threw");
			this.retried = counter(registry, topic, "retried", "Failed jobs scheduled for another attempt");
			this.dead = counter(registry, topic, "dead", "Jobs that became dead");
			this.expired = counter(registry, topic, "expired",
					"Deliveries whose time to run elapsed without an acknowledgement");
			this.success = duration(registry, topic, "success");
			this.failure = duration(registry, topic, "failure");
			this.lateness = histogram(Timer.builder("delayqueue.job.lateness"), LATENESS_MAXIMUM_EXPECTED_VALUE)
				.description("Handler start minus due time")
				.tag(TOPIC, topic)
				.register(registry);
			gauge(registry, topic, "delayed", TopicStats::delayed);
			gauge(registry, topic, "ready", TopicStats::ready);
			gauge(registry, topic, "running", TopicStats::running);
			gauge(registry, topic, "dead", TopicStats::dead);
			Gauge.builder("delayqueue.topic.paused", DelayQueueMetrics.this, (metrics) -> metrics.paused(topic))
				.description("1 while the topic is paused (listeners claim none of its jobs), else 0; read from Redis")
				.tags(TOPIC, topic)
				.strongReference(true)
				.register(registry);
		}

		private static Counter counter(MeterRegistry registry, String topic, String name, String description) {
			return Counter.builder("delayqueue.jobs." + name)
				.description(description)
				.tag(TOPIC, topic)
				.register(registry);
		}

		// Percentile panels (histogram_quantile in Grafana) work without any property;
		// management.metrics.distribution.* properties still win, as Boot's meter
		// filter overrides what a builder sets.
		private static Timer.Builder histogram(Timer.Builder builder, Duration maximumExpectedValue) {
			return builder.publishPercentileHistogram()
				.minimumExpectedValue(MINIMUM_EXPECTED_VALUE)
				.maximumExpectedValue(maximumExpectedValue);
		}

		private static Timer duration(MeterRegistry registry, String topic, String outcome) {
			return histogram(Timer.builder("delayqueue.job.duration"), DURATION_MAXIMUM_EXPECTED_VALUE)
				.description("Handler run time")
				.tags(TOPIC, topic, "outcome", outcome)
				.register(registry);
		}

		private void gauge(MeterRegistry registry, String topic, String state, ToLongFunction<TopicStats> count) {
			Gauge.builder("delayqueue.queue.size", DelayQueueMetrics.this, (metrics) -> metrics.queueSize(topic, count))
				.description("Jobs of the topic in the state, read from Redis")
				.tags(TOPIC, topic, "state", state)
				.strongReference(true)
				.register(registry);
		}

	}

}
