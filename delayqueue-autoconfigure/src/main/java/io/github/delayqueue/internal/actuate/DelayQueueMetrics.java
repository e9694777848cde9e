package io.github.delayqueue.internal.actuate;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.ToLongFunction;

import io.github.delayqueue.internal.store.JobStore;
import io.github.delayqueue.internal.store.JobStore.TopicState;
import io.github.delayqueue.internal.store.StateCounts;
import io.github.delayqueue.internal.support.DelayQueueThreads;
import io.github.delayqueue.internal.support.JobEventListener;
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
 * A topic's counters and timers exist on an instance once it saw the topic's events: its
 * first send registers {@code delayqueue.jobs.sent}, the first job its listeners start
 * registers every counter and timer of a handler at once (so that failure ratios read 0
 * rather than nothing), and a delivery its scheduler expires registers the expired and
 * dead counters. Topics this instance only reads (an endpoint or dashboard request) get
 * none. Gauges exist for every topic Redis knows (re-read every
 * {@code topicRefreshInterval}) and every topic seen in an event; they are served from
 * counts refreshed in the background ({@link TopicStatsCache}), so reading them never
 * touches Redis. Events that arrive before the binder is bound to a registry are not
 * counted, but their topics get their meters once it is.
 * <p>
 * The timers publish a dozen service-level buckets ({@link #SERVICE_LEVEL_BUCKETS}, 5 ms
 * to 1 hour) rather than a full percentile histogram, which would cost about a hundred
 * series per timer and topic; {@code management.metrics.distribution.*} properties
 * override these settings, and a percentile histogram asked for there spans
 * {@link #MINIMUM_EXPECTED_VALUE} to {@link #LATENESS_MAXIMUM_EXPECTED_VALUE} (lateness)
 * or {@link #DURATION_MAXIMUM_EXPECTED_VALUE} (run time).
 *
 * @author delayqueue contributors
 */
public class DelayQueueMetrics implements MeterBinder, JobEventListener, AutoCloseable {

	/**
	 * How often the counts behind the gauges are re-read by default, while they are read.
	 */
	public static final Duration DEFAULT_STATS_REFRESH_INTERVAL = Duration.ofSeconds(5);

	/**
	 * How often the set of topics is re-read from Redis by default.
	 */
	public static final Duration DEFAULT_TOPIC_REFRESH_INTERVAL = Duration.ofSeconds(30);

	/**
	 * The buckets the timers publish unless {@code management.metrics.distribution.*}
	 * says otherwise: from a fast handler to a job an outage made an hour late.
	 */
	public static final List<Duration> SERVICE_LEVEL_BUCKETS = List.of(Duration.ofMillis(5), Duration.ofMillis(10),
			Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250),
			Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofSeconds(5), Duration.ofSeconds(30),
			Duration.ofMinutes(5), Duration.ofHours(1));

	/**
	 * Smallest lateness and run time a percentile histogram tells apart, when one is
	 * asked for.
	 */
	public static final Duration MINIMUM_EXPECTED_VALUE = Duration.ofMillis(1);

	/**
	 * Largest lateness a percentile histogram of {@code delayqueue.job.lateness} tells
	 * apart: after an outage, jobs start minutes late, far beyond Micrometer's 30 second
	 * default.
	 */
	public static final Duration LATENESS_MAXIMUM_EXPECTED_VALUE = Duration.ofHours(1);

	/**
	 * Largest run time a percentile histogram of {@code delayqueue.job.duration} tells
	 * apart: well above the default time to run (60 s), since topics with long jobs raise
	 * it.
	 */
	public static final Duration DURATION_MAXIMUM_EXPECTED_VALUE = Duration.ofMinutes(30);

	private static final Log logger = LogFactory.getLog(DelayQueueMetrics.class);

	private static final String TOPIC = "topic";

	private static final Duration[] BUCKETS = SERVICE_LEVEL_BUCKETS.toArray(Duration[]::new);

	private final JobStore store;

	private final TopicStatsCache stats;

	private final Duration statsRefreshInterval;

	private final Duration topicRefreshInterval;

	// The topics this instance sent to and handled, remembered also before binding.
	private final Set<String> sentTopics = ConcurrentHashMap.newKeySet();

	private final Set<String> handledTopics = ConcurrentHashMap.newKeySet();

	private final Map<String, Counter> sentCounters = new ConcurrentHashMap<>();

	private final Map<String, HandlerMeters> handlerMeters = new ConcurrentHashMap<>();

	private final Map<String, List<Gauge>> gauges = new ConcurrentHashMap<>();

	private volatile @Nullable MeterRegistry registry;

	private volatile @Nullable ScheduledExecutorService refresher;

	private DelayQueueThreads threads = DelayQueueThreads.platform();

	/**
	 * Create the meters with the default intervals.
	 * @param store where the queue sizes are read
	 */
	public DelayQueueMetrics(JobStore store) {
		this(store, DEFAULT_STATS_REFRESH_INTERVAL, DEFAULT_TOPIC_REFRESH_INTERVAL);
	}

	/**
	 * Create the meters.
	 * @param store where the queue sizes are read
	 * @param statsRefreshInterval how often the counts behind the gauges are re-read
	 * while the gauges are read
	 * @param topicRefreshInterval how often the set of topics is re-read from Redis
	 */
	public DelayQueueMetrics(JobStore store, Duration statsRefreshInterval, Duration topicRefreshInterval) {
		this.store = store;
		this.statsRefreshInterval = statsRefreshInterval;
		this.topicRefreshInterval = topicRefreshInterval;
		this.stats = new TopicStatsCache(store, statsRefreshInterval, this::refreshStatsSoon);
	}

	/**
	 * Set where the refresher's thread comes from, typically the starter's threads built
	 * by Spring Boot's task executor builder. A plain platform thread when not set.
	 * @param threads the threads
	 */
	public void setThreads(DelayQueueThreads threads) {
		this.threads = threads;
	}

	@Override
	public synchronized void bindTo(MeterRegistry registry) {
		this.registry = registry;
		this.sentCounters.clear();
		this.handlerMeters.clear();
		this.gauges.clear();
		this.sentTopics.forEach(this::sentCounter);
		this.handledTopics.forEach(this::handlerMeters);
		if (this.refresher == null) {
			ScheduledExecutorService refresher = this.threads.scheduler("delayqueue-metrics");
			refresher.scheduleWithFixedDelay(this::refreshTopics, 0, this.topicRefreshInterval.toMillis(),
					TimeUnit.MILLISECONDS);
			long statsInterval = this.statsRefreshInterval.toMillis();
			refresher.scheduleWithFixedDelay(this.stats::refreshIfRead, statsInterval, statsInterval,
					TimeUnit.MILLISECONDS);
			this.refresher = refresher;
		}
	}

	/**
	 * Register the gauges of every topic Redis knows that has none yet, and remove those
	 * of topics Redis no longer knows, unless this instance sends to or handles them.
	 */
	public void refreshTopics() {
		Set<String> known;
		try {
			known = this.store.topics();
		}
		catch (RuntimeException ex) {
			// Redis may be down for a while; the next refresh tries again.
			logger.debug("Cannot read the delay queue topics", ex);
			return;
		}
		known.forEach(this::gauges);
		for (String topic : List.copyOf(this.gauges.keySet())) {
			if (!known.contains(topic) && !this.sentTopics.contains(topic) && !this.handledTopics.contains(topic)) {
				removeGauges(topic);
			}
		}
	}

	@Override
	public void jobsSent(String topic, int count) {
		Counter sent = sentCounter(topic);
		if (sent != null) {
			sent.increment(count);
		}
	}

	// Rare, so looked up in the registry each time rather than held.
	@Override
	public void deferredOperationFailed(String topic, String operation, int count) {
		MeterRegistry registry = this.registry;
		if (registry != null) {
			Counter.builder("delayqueue.jobs.deferred.failed")
				.description("Sends and cancels deferred until their transaction committed that failed after it")
				.tag(TOPIC, topic)
				.tag("operation", operation)
				.register(registry)
				.increment(count);
		}
	}

	@Override
	public void jobStarted(String topic, Duration lateness) {
		HandlerMeters meters = handlerMeters(topic);
		if (meters != null) {
			// Clocks of Redis and the job's due time agree, but a job fetched in the same
			// millisecond it is due may show a tiny negative lateness: it was on time.
			meters.lateness.record(lateness.isNegative() ? Duration.ZERO : lateness);
		}
	}

	@Override
	public void jobCompleted(String topic, Duration runTime) {
		HandlerMeters meters = handlerMeters(topic);
		if (meters != null) {
			meters.completed.increment();
			meters.success.record(runTime);
		}
	}

	@Override
	public void jobFailed(String topic, Duration runTime, Throwable failure) {
		HandlerMeters meters = handlerMeters(topic);
		if (meters != null) {
			meters.failed.increment();
			meters.failure.record(runTime);
		}
	}

	@Override
	public void jobRetried(String topic) {
		HandlerMeters meters = handlerMeters(topic);
		if (meters != null) {
			meters.retried.increment();
		}
	}

	// Also the scheduler's, for deliveries expired on their last attempt, on any
	// instance.
	@Override
	public void jobsDead(String topic, int count) {
		Counter dead = sweptCounter(topic, "dead");
		if (dead != null) {
			dead.increment(count);
		}
	}

	@Override
	public void jobsExpired(String topic, int count) {
		Counter expired = sweptCounter(topic, "expired");
		if (expired != null) {
			expired.increment(count);
		}
	}

	/**
	 * Stop re-reading the topics and their counts.
	 */
	@Override
	public synchronized void close() {
		ScheduledExecutorService refresher = this.refresher;
		if (refresher != null) {
			refresher.shutdownNow();
			this.refresher = null;
		}
	}

	private @Nullable Counter sentCounter(String topic) {
		return meters(topic, this.sentCounters, this.sentTopics,
				(registry, key) -> counter(registry, key, "sent", "Jobs sent by this instance"));
	}

	private @Nullable HandlerMeters handlerMeters(String topic) {
		return meters(topic, this.handlerMeters, this.handledTopics, HandlerMeters::new);
	}

	// A role's meters of a topic, registered with its first event; the topic is
	// remembered for a registry bound later.
	private <M> @Nullable M meters(String topic, Map<String, M> meters, Set<String> topics,
			BiFunction<MeterRegistry, String, M> register) {
		M existing = meters.get(topic);
		if (existing != null) {
			return existing;
		}
		topics.add(topic);
		MeterRegistry registry = this.registry;
		if (registry == null) {
			return null;
		}
		gauges(topic);
		return meters.computeIfAbsent(topic, (key) -> register.apply(registry, key));
	}

	// Rare events, on the scheduler's thread: looked up in the registry each time.
	private @Nullable Counter sweptCounter(String topic, String outcome) {
		HandlerMeters handled = this.handlerMeters.get(topic);
		if (handled != null) {
			return outcome.equals("dead") ? handled.dead : handled.expired;
		}
		MeterRegistry registry = this.registry;
		if (registry == null) {
			return null;
		}
		gauges(topic);
		return outcome.equals("dead") ? counter(registry, topic, "dead", HandlerMeters.DEAD)
				: counter(registry, topic, "expired", HandlerMeters.EXPIRED);
	}

	private void gauges(String topic) {
		MeterRegistry registry = this.registry;
		if (registry == null || this.gauges.containsKey(topic)) {
			return;
		}
		synchronized (this.gauges) {
			if (this.gauges.containsKey(topic)) {
				return;
			}
			this.stats.add(topic);
			this.gauges.put(topic,
					List.of(queueSize(registry, topic, "delayed", StateCounts::delayed),
							queueSize(registry, topic, "ready", StateCounts::ready),
							queueSize(registry, topic, "running", StateCounts::running),
							queueSize(registry, topic, "dead", StateCounts::dead),
							Gauge.builder("delayqueue.topic.paused", this, (metrics) -> metrics.paused(topic))
								.description("1 while the topic is paused (listeners claim none of its jobs), else 0; "
										+ "read from Redis")
								.tags(TOPIC, topic)
								.strongReference(true)
								.register(registry)));
		}
	}

	private void removeGauges(String topic) {
		MeterRegistry registry = this.registry;
		synchronized (this.gauges) {
			List<Gauge> removed = this.gauges.remove(topic);
			this.stats.remove(topic);
			if (registry != null && removed != null) {
				removed.forEach(registry::remove);
			}
		}
	}

	private Gauge queueSize(MeterRegistry registry, String topic, String state, ToLongFunction<StateCounts> count) {
		return Gauge.builder("delayqueue.queue.size", this, (metrics) -> metrics.queueSize(topic, count))
			.description("Jobs of the topic in the state, read from Redis")
			.tags(TOPIC, topic, "state", state)
			.strongReference(true)
			.register(registry);
	}

	private double queueSize(String topic, ToLongFunction<StateCounts> state) {
		TopicState current = this.stats.get(topic);
		return (current != null) ? state.applyAsLong(current.stats()) : Double.NaN;
	}

	private double paused(String topic) {
		TopicState current = this.stats.get(topic);
		if (current == null) {
			return Double.NaN;
		}
		return current.paused() ? 1 : 0;
	}

	private void refreshStatsSoon() {
		ScheduledExecutorService refresher = this.refresher;
		if (refresher == null) {
			return;
		}
		try {
			refresher.execute(this.stats::refresh);
		}
		catch (RejectedExecutionException ex) {
			// Closed meanwhile: nothing reads the gauges any more.
		}
	}

	private static Counter counter(MeterRegistry registry, String topic, String name, String description) {
		return Counter.builder("delayqueue.jobs." + name).description(description).tag(TOPIC, topic).register(registry);
	}

	/**
	 * The meters of a topic this instance handles, looked up once so that events cost no
	 * registry search.
	 */
	private static final class HandlerMeters {

		static final String DEAD = "Jobs that became dead";

		static final String EXPIRED = "Deliveries whose time to run elapsed without an acknowledgement";

		final Counter completed;

		final Counter failed;

		final Counter retried;

		final Counter dead;

		final Counter expired;

		final Timer success;

		final Timer failure;

		final Timer lateness;

		HandlerMeters(MeterRegistry registry, String topic) {
			this.completed = counter(registry, topic, "completed", "Jobs whose handler returned normally");
			this.failed = counter(registry, topic, "failed", "Deliveries whose handler threw");
			this.retried = counter(registry, topic, "retried", "Failed jobs scheduled for another attempt");
			this.dead = counter(registry, topic, "dead", DEAD);
			this.expired = counter(registry, topic, "expired", EXPIRED);
			this.success = duration(registry, topic, "success");
			this.failure = duration(registry, topic, "failure");
			this.lateness = buckets(Timer.builder("delayqueue.job.lateness"), LATENESS_MAXIMUM_EXPECTED_VALUE)
				.description("Handler start minus due time")
				.tag(TOPIC, topic)
				.register(registry);
		}

		// A few buckets are what a Prometheus percentile or "share within 1 s" needs;
		// management.metrics.distribution.* properties still win, as Boot's meter filter
		// overrides what a builder sets, and a percentile histogram asked for there keeps
		// this range.
		private static Timer.Builder buckets(Timer.Builder builder, Duration maximumExpectedValue) {
			return builder.serviceLevelObjectives(BUCKETS)
				.minimumExpectedValue(MINIMUM_EXPECTED_VALUE)
				.maximumExpectedValue(maximumExpectedValue);
		}

		private static Timer duration(MeterRegistry registry, String topic, String outcome) {
			return buckets(Timer.builder("delayqueue.job.duration"), DURATION_MAXIMUM_EXPECTED_VALUE)
				.description("Handler run time")
				.tags(TOPIC, topic, "outcome", outcome)
				.register(registry);
		}

	}

}
