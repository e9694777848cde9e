package io.github.delayqueue.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.github.delayqueue.dashboard.ShowValues;
import io.github.delayqueue.internal.store.JobHistoryPolicy;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.util.unit.DataSize;

/**
 * Configuration of the delay queue, bound from {@code delayqueue.*}.
 *
 * @author delayqueue contributors
 */
// Bound by Spring Boot with the additions of DelayQueuePropertiesBinding: topics by their
// full names, unknown keys and invalid values all reported together.
@ConfigurationProperties(prefix = "delayqueue")
public class DelayQueueProperties {

	/**
	 * Whether the delay queue is enabled.
	 */
	private boolean enabled = true;

	/**
	 * Prefix of every Redis channel the delay queue uses, and of every key inside its
	 * topic's hash tag ({prefix:topic}:...).
	 */
	private String keyPrefix = "dq";

	/**
	 * Largest job accepted: its payload as serialized JSON and the names and values of
	 * its headers, together, in UTF-8 bytes.
	 */
	private DataSize maxPayloadSize = DataSize.ofMegabytes(1);

	/**
	 * Longest the starter's own Redis calls wait for a reply; at most
	 * spring.data.redis.timeout.
	 */
	private Duration commandTimeout = Duration.ofSeconds(5);

	/**
	 * Whether sends and cancels made inside a Spring-managed transaction wait for its
	 * commit, and are dropped when it rolls back, unless a call says otherwise.
	 */
	private boolean transactionAware;

	private final Scheduler scheduler = new Scheduler();

	private final Listener listener = new Listener();

	/**
	 * Settings of every topic, unless overridden under 'topics'.
	 */
	@NestedConfigurationProperty
	private final TopicProperties defaults = TopicProperties.withDefaults();

	/**
	 * Settings of individual topics, by topic name; each key of 'defaults' may be given.
	 */
	private Map<String, TopicProperties> topics = new LinkedHashMap<>();

	/**
	 * Recurring schedules, by schedule id: on every tick, a job goes into the schedule's
	 * topic.
	 */
	private Map<String, ScheduleProperties> schedules = new LinkedHashMap<>();

	private final HttpCallback httpCallback = new HttpCallback();

	private final History history = new History();

	private final Dashboard dashboard = new Dashboard();

	private final Observation observation = new Observation();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public String getKeyPrefix() {
		return this.keyPrefix;
	}

	public void setKeyPrefix(String keyPrefix) {
		this.keyPrefix = keyPrefix;
	}

	public DataSize getMaxPayloadSize() {
		return this.maxPayloadSize;
	}

	public void setMaxPayloadSize(DataSize maxPayloadSize) {
		this.maxPayloadSize = maxPayloadSize;
	}

	public boolean isTransactionAware() {
		return this.transactionAware;
	}

	public void setTransactionAware(boolean transactionAware) {
		this.transactionAware = transactionAware;
	}

	public Duration getCommandTimeout() {
		return this.commandTimeout;
	}

	public void setCommandTimeout(Duration commandTimeout) {
		this.commandTimeout = commandTimeout;
	}

	public Scheduler getScheduler() {
		return this.scheduler;
	}

	public Listener getListener() {
		return this.listener;
	}

	public TopicProperties getDefaults() {
		return this.defaults;
	}

	public Map<String, TopicProperties> getTopics() {
		return this.topics;
	}

	public void setTopics(Map<String, TopicProperties> topics) {
		this.topics = topics;
	}

	public Map<String, ScheduleProperties> getSchedules() {
		return this.schedules;
	}

	public void setSchedules(Map<String, ScheduleProperties> schedules) {
		this.schedules = schedules;
	}

	public HttpCallback getHttpCallback() {
		return this.httpCallback;
	}

	public History getHistory() {
		return this.history;
	}

	public Dashboard getDashboard() {
		return this.dashboard;
	}

	public Observation getObservation() {
		return this.observation;
	}

	/**
	 * Settings of the scheduler that moves due jobs.
	 */
	public static class Scheduler {

		/**
		 * Whether this instance moves due jobs to READY and returns expired deliveries.
		 */
		private boolean enabled = true;

		/**
		 * Most jobs moved per script call, at most 10000 (a larger sweep blocks Redis too
		 * long).
		 */
		private int batchSize = 1000;

		/**
		 * Longest sleep between two checks of a topic while its jobs are being claimed,
		 * and of every topic while wake-up messages may be missed (before the wake
		 * channels are subscribed, after they were lost, shortly after a reconnect).
		 */
		private Duration maxSleep = Duration.ofSeconds(5);

		/**
		 * Longest sleep between two checks of a topic whose jobs are not being claimed,
		 * while wake-up messages arrive: bounds how late a job can fire when a message is
		 * lost without the subscription noticing. Never shorter than max-sleep.
		 */
		private Duration idleMaxSleep = Duration.ofSeconds(60);

		/**
		 * How often the ids that consumers moved out of a ready list are checked; one
		 * seen in two checks in a row belonged to a consumer that died before claiming
		 * it, and is handed back to READY.
		 */
		private Duration orphanCheckInterval = Duration.ofSeconds(30);

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public int getBatchSize() {
			return this.batchSize;
		}

		public void setBatchSize(int batchSize) {
			this.batchSize = batchSize;
		}

		public Duration getMaxSleep() {
			return this.maxSleep;
		}

		public void setMaxSleep(Duration maxSleep) {
			this.maxSleep = maxSleep;
		}

		public Duration getIdleMaxSleep() {
			return this.idleMaxSleep;
		}

		public void setIdleMaxSleep(Duration idleMaxSleep) {
			this.idleMaxSleep = idleMaxSleep;
		}

		public Duration getOrphanCheckInterval() {
			return this.orphanCheckInterval;
		}

		public void setOrphanCheckInterval(Duration orphanCheckInterval) {
			this.orphanCheckInterval = orphanCheckInterval;
		}

	}

	/**
	 * Settings of the {@code @DelayedJobListener} consumers.
	 */
	public static class Listener {

		/**
		 * Whether this instance runs @DelayedJobListener consumers.
		 */
		private boolean enabled = true;

		/**
		 * How long a graceful stop waits for running handlers.
		 */
		private Duration shutdownTimeout = Duration.ofSeconds(30);

		/**
		 * Server-side timeout of each blocking wait for a ready job; reduced to half of
		 * spring.data.redis.timeout when that is shorter.
		 */
		private Duration pollTimeout = Duration.ofSeconds(10);

		/**
		 * Topics that listeners of other applications handle: a schedule of this
		 * application whose jobs go to one of them is not warned about at start-up for
		 * want of a listener here.
		 */
		private List<String> handledElsewhere = new ArrayList<>();

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public Duration getShutdownTimeout() {
			return this.shutdownTimeout;
		}

		public void setShutdownTimeout(Duration shutdownTimeout) {
			this.shutdownTimeout = shutdownTimeout;
		}

		public Duration getPollTimeout() {
			return this.pollTimeout;
		}

		public void setPollTimeout(Duration pollTimeout) {
			this.pollTimeout = pollTimeout;
		}

		public List<String> getHandledElsewhere() {
			return this.handledElsewhere;
		}

		public void setHandledElsewhere(List<String> handledElsewhere) {
			this.handledElsewhere = handledElsewhere;
		}

	}

	/**
	 * Settings of the web dashboard.
	 */
	public static class Dashboard {

		/**
		 * Whether a servlet web application serves the dashboard and its JSON API.
		 */
		private boolean enabled = false;

		/**
		 * Where the dashboard is served, relative to the servlet context path.
		 */
		private String path = "/delayqueue";

		/**
		 * Whether the dashboard only shows: no run now, cancel, requeue, purge, pause or
		 * resume.
		 */
		private boolean readOnly = true;

		/**
		 * When payloads, header values, the messages of last errors and host names are
		 * shown, which may hold credentials: never, when-authorized (to a user with one
		 * of the roles) or always.
		 */
		private ShowValues showPayloads = ShowValues.NEVER;

		/**
		 * Roles that see payloads, header values, error messages and host names when
		 * show-payloads is when-authorized; empty for any authenticated user.
		 */
		private Set<String> roles = new LinkedHashSet<>();

		/**
		 * Origins (scheme://host[:port]) the dashboard answers and accepts changes from;
		 * requests sent to any other host are refused. Empty: any host, and changes only
		 * from the origin each request was sent to, by a logged-in user unless it was
		 * sent to localhost or an IP address.
		 */
		private List<String> allowedOrigins = new ArrayList<>();

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public String getPath() {
			return this.path;
		}

		public void setPath(String path) {
			this.path = path;
		}

		public boolean isReadOnly() {
			return this.readOnly;
		}

		public void setReadOnly(boolean readOnly) {
			this.readOnly = readOnly;
		}

		public ShowValues getShowPayloads() {
			return this.showPayloads;
		}

		public void setShowPayloads(ShowValues showPayloads) {
			this.showPayloads = showPayloads;
		}

		public Set<String> getRoles() {
			return this.roles;
		}

		public void setRoles(Set<String> roles) {
			this.roles = roles;
		}

		public List<String> getAllowedOrigins() {
			return this.allowedOrigins;
		}

		public void setAllowedOrigins(List<String> allowedOrigins) {
			this.allowedOrigins = allowedOrigins;
		}

	}

	/**
	 * Settings of the Micrometer observations of sends and handler runs.
	 */
	public static class Observation {

		/**
		 * Whether sends and handler runs are observed. Unset: when the application traces
		 * (a Micrometer Tracing bridge gives it a tracer); a send then writes the trace
		 * context into the job's headers, and the handler's run continues that trace.
		 * true: whenever the application has an ObservationRegistry, also without a
		 * tracer (Spring Boot's meter handler then times them as delayqueue.send and
		 * delayqueue.process). false: never.
		 */
		private @Nullable Boolean enabled;

		/**
		 * A delay after which a handler run no longer continues its send's trace but
		 * starts a trace of its own with a link to the send's span, so that traces do not
		 * stay open for days. Unset: every run continues its send's trace.
		 */
		private @Nullable Duration linkLongDelays;

		public @Nullable Boolean getEnabled() {
			return this.enabled;
		}

		public void setEnabled(@Nullable Boolean enabled) {
			this.enabled = enabled;
		}

		public @Nullable Duration getLinkLongDelays() {
			return this.linkLongDelays;
		}

		public void setLinkLongDelays(@Nullable Duration linkLongDelays) {
			this.linkLongDelays = linkLongDelays;
		}

	}

	/**
	 * Settings of the throughput history that the dashboard charts.
	 */
	public static class History {

		/**
		 * Whether this instance counts completed, failed, retried and dead jobs per
		 * minute and per day into Redis, shared by every instance.
		 */
		private boolean enabled = true;

		/**
		 * How often this instance writes its counts to Redis, in one round trip.
		 */
		private Duration flushInterval = Duration.ofSeconds(5);

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public Duration getFlushInterval() {
			return this.flushInterval;
		}

		public void setFlushInterval(Duration flushInterval) {
			this.flushInterval = flushInterval;
		}

	}

	/**
	 * Settings of the built-in HTTP callback listener.
	 */
	public static class HttpCallback {

		/**
		 * Whether the built-in listener that performs HTTP callback jobs runs.
		 */
		private boolean enabled = false;

		/**
		 * Topic of HTTP callback jobs.
		 */
		private String topic = "http-callback";

		/**
		 * Hosts callbacks may call (names, *.domain patterns, IP addresses, CIDR ranges);
		 * none when empty.
		 */
		private List<String> allowedHosts = new ArrayList<>();

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public String getTopic() {
			return this.topic;
		}

		public void setTopic(String topic) {
			this.topic = topic;
		}

		public List<String> getAllowedHosts() {
			return this.allowedHosts;
		}

		public void setAllowedHosts(List<String> allowedHosts) {
			this.allowedHosts = allowedHosts;
		}

	}

	/**
	 * Settings of one topic, or of every topic as defaults. Unset values of a topic come
	 * from the defaults.
	 */
	public static class TopicProperties {

		/**
		 * Time to run: a delivery not acknowledged within it is delivered again.
		 */
		private @Nullable Duration ttr;

		/**
		 * How many jobs a listener runs at once.
		 */
		private @Nullable Integer concurrency;

		/**
		 * How many queues, each with its own Redis hash tag and so its own cluster slot,
		 * the topic's jobs are spread over, 1 to 1024. A job's partition follows from its
		 * id. Changing it while jobs are pending loses nothing.
		 */
		private @Nullable Integer partitions;

		/**
		 * How long a completed or cancelled job stays findable by id, as COMPLETED or
		 * CANCELLED, with the instance and time that finished it; 0 (the default) keeps
		 * none.
		 */
		private @Nullable Duration completedRetention;

		/**
		 * The most completed jobs, and the most cancelled ones, kept per partition while
		 * completed-retention is on; the oldest go first.
		 */
		private @Nullable Integer completedMaxCount;

		/**
		 * Whether each job's steps (sent, ready, claimed, failed, retried, completed and
		 * the rest) are recorded in its timeline, in the scripts that take them, for the
		 * admin API, the endpoint and the dashboard; off by default.
		 */
		private @Nullable Boolean timeline;

		/**
		 * The most steps a job's timeline keeps, 1 to 1000; the oldest go first.
		 */
		private @Nullable Integer timelineMaxEvents;

		/**
		 * Most handlers of the topic running at once across every instance; each
		 * listener's concurrency still bounds its own instance. Unset: no bound across
		 * instances.
		 */
		private @Nullable Integer globalConcurrency;

		private final RateLimit rateLimit = new RateLimit();

		private final Group group = new Group();

		private final Retry retry = new Retry();

		private final DeadLetter deadLetter = new DeadLetter();

		static TopicProperties withDefaults() {
			TopicProperties defaults = new TopicProperties();
			defaults.setTtr(Duration.ofSeconds(60));
			defaults.setConcurrency(1);
			defaults.setPartitions(1);
			defaults.setCompletedRetention(Duration.ZERO);
			defaults.setCompletedMaxCount(10_000);
			defaults.setTimeline(false);
			defaults.setTimelineMaxEvents(JobHistoryPolicy.DEFAULT_TIMELINE_MAX_EVENTS);
			defaults.rateLimit.setPeriod(Duration.ofSeconds(1));
			defaults.rateLimit.setPauseTopicOn429(false);
			defaults.group.rateLimit.setPeriod(Duration.ofSeconds(1));
			defaults.retry.setMaxAttempts(5);
			defaults.retry.setNonRetryable(new ArrayList<>());
			defaults.retry.backoff.setDelay(Duration.ofSeconds(1));
			defaults.retry.backoff.setMultiplier(2.0);
			defaults.retry.backoff.setMaxDelay(Duration.ofHours(1));
			defaults.retry.backoff.setJitter(Duration.ofMillis(100));
			defaults.retry.backoff.setSchedule(new ArrayList<>());
			defaults.deadLetter.setRetention(Duration.ofDays(7));
			return defaults;
		}

		public @Nullable Duration getTtr() {
			return this.ttr;
		}

		public void setTtr(@Nullable Duration ttr) {
			this.ttr = ttr;
		}

		public @Nullable Integer getConcurrency() {
			return this.concurrency;
		}

		public void setConcurrency(@Nullable Integer concurrency) {
			this.concurrency = concurrency;
		}

		public @Nullable Integer getPartitions() {
			return this.partitions;
		}

		public void setPartitions(@Nullable Integer partitions) {
			this.partitions = partitions;
		}

		public @Nullable Duration getCompletedRetention() {
			return this.completedRetention;
		}

		public void setCompletedRetention(@Nullable Duration completedRetention) {
			this.completedRetention = completedRetention;
		}

		public @Nullable Integer getCompletedMaxCount() {
			return this.completedMaxCount;
		}

		public void setCompletedMaxCount(@Nullable Integer completedMaxCount) {
			this.completedMaxCount = completedMaxCount;
		}

		public @Nullable Boolean getTimeline() {
			return this.timeline;
		}

		public void setTimeline(@Nullable Boolean timeline) {
			this.timeline = timeline;
		}

		public @Nullable Integer getTimelineMaxEvents() {
			return this.timelineMaxEvents;
		}

		public void setTimelineMaxEvents(@Nullable Integer timelineMaxEvents) {
			this.timelineMaxEvents = timelineMaxEvents;
		}

		public @Nullable Integer getGlobalConcurrency() {
			return this.globalConcurrency;
		}

		public void setGlobalConcurrency(@Nullable Integer globalConcurrency) {
			this.globalConcurrency = globalConcurrency;
		}

		public RateLimit getRateLimit() {
			return this.rateLimit;
		}

		public Group getGroup() {
			return this.group;
		}

		public Retry getRetry() {
			return this.retry;
		}

		public DeadLetter getDeadLetter() {
			return this.deadLetter;
		}

	}

	/**
	 * A topic's rate limit across every instance, decided on the Redis clock.
	 */
	public static class RateLimit {

		/**
		 * Most handler starts in any window of one period, across every instance. Unset:
		 * no rate limit.
		 */
		private @Nullable Integer limit;

		/**
		 * The window the limit counts starts in; any window of this length, wherever it
		 * begins, holds at most the limit.
		 */
		private @Nullable Duration period;

		/**
		 * Whether a handler that throws RateLimitedException (a partner's 429 or 503 with
		 * Retry-After) holds the whole topic back for its wait on every instance, rather
		 * than its job alone.
		 */
		private @Nullable Boolean pauseTopicOn429;

		public @Nullable Integer getLimit() {
			return this.limit;
		}

		public void setLimit(@Nullable Integer limit) {
			this.limit = limit;
		}

		public @Nullable Duration getPeriod() {
			return this.period;
		}

		public void setPeriod(@Nullable Duration period) {
			this.period = period;
		}

		public @Nullable Boolean getPauseTopicOn429() {
			return this.pauseTopicOn429;
		}

		public void setPauseTopicOn429(@Nullable Boolean pauseTopicOn429) {
			this.pauseTopicOn429 = pauseTopicOn429;
		}

	}

	/**
	 * Bounds of each group of a topic (jobs sent with a group, one per tenant for
	 * example), across every instance: one group at its bound holds back its own jobs and
	 * no other group's. Jobs without a group are bound by the topic's limits only.
	 */
	public static class Group {

		/**
		 * Most handlers of each group running at once across every instance. Unset: no
		 * bound per group.
		 */
		private @Nullable Integer concurrency;

		private final GroupRateLimit rateLimit = new GroupRateLimit();

		public @Nullable Integer getConcurrency() {
			return this.concurrency;
		}

		public void setConcurrency(@Nullable Integer concurrency) {
			this.concurrency = concurrency;
		}

		public GroupRateLimit getRateLimit() {
			return this.rateLimit;
		}

	}

	/**
	 * The rate limit of each group of a topic across every instance, decided on the Redis
	 * clock.
	 */
	public static class GroupRateLimit {

		/**
		 * Most handler starts of each group in any window of one period, across every
		 * instance. Unset: no rate limit per group.
		 */
		private @Nullable Integer limit;

		/**
		 * The window the limit counts each group's starts in.
		 */
		private @Nullable Duration period;

		public @Nullable Integer getLimit() {
			return this.limit;
		}

		public void setLimit(@Nullable Integer limit) {
			this.limit = limit;
		}

		public @Nullable Duration getPeriod() {
			return this.period;
		}

		public void setPeriod(@Nullable Duration period) {
			this.period = period;
		}

	}

	/**
	 * How failed jobs are retried.
	 */
	public static class Retry {

		/**
		 * Deliveries in all, the first one included.
		 */
		private @Nullable Integer maxAttempts;

		/**
		 * Exception class names that make a job dead at once.
		 */
		private @Nullable List<String> nonRetryable;

		private final Backoff backoff = new Backoff();

		public @Nullable Integer getMaxAttempts() {
			return this.maxAttempts;
		}

		public void setMaxAttempts(@Nullable Integer maxAttempts) {
			this.maxAttempts = maxAttempts;
		}

		public @Nullable List<String> getNonRetryable() {
			return this.nonRetryable;
		}

		public void setNonRetryable(@Nullable List<String> nonRetryable) {
			this.nonRetryable = nonRetryable;
		}

		public Backoff getBackoff() {
			return this.backoff;
		}

	}

	/**
	 * The wait between attempts, in the vocabulary of Spring Framework's
	 * ExponentialBackOff.
	 */
	public static class Backoff {

		/**
		 * Wait before the first retry.
		 */
		private @Nullable Duration delay;

		/**
		 * Growth of the wait per retry.
		 */
		private @Nullable Double multiplier;

		/**
		 * Longest wait.
		 */
		private @Nullable Duration maxDelay;

		/**
		 * Largest random deviation of the first wait, either way; grows with the
		 * multiplier like the delay.
		 */
		private @Nullable Duration jitter;

		/**
		 * Explicit waits, the n-th retry waiting the n-th entry and the last one
		 * repeating; wins over the curve when set.
		 */
		private @Nullable List<Duration> schedule;

		public @Nullable Duration getDelay() {
			return this.delay;
		}

		public void setDelay(@Nullable Duration delay) {
			this.delay = delay;
		}

		public @Nullable Double getMultiplier() {
			return this.multiplier;
		}

		public void setMultiplier(@Nullable Double multiplier) {
			this.multiplier = multiplier;
		}

		public @Nullable Duration getMaxDelay() {
			return this.maxDelay;
		}

		public void setMaxDelay(@Nullable Duration maxDelay) {
			this.maxDelay = maxDelay;
		}

		public @Nullable Duration getJitter() {
			return this.jitter;
		}

		public void setJitter(@Nullable Duration jitter) {
			this.jitter = jitter;
		}

		public @Nullable List<Duration> getSchedule() {
			return this.schedule;
		}

		public void setSchedule(@Nullable List<Duration> schedule) {
			this.schedule = schedule;
		}

	}

	/**
	 * How dead jobs are kept.
	 */
	public static class DeadLetter {

		/**
		 * How long dead jobs are kept before they are purged.
		 */
		private @Nullable Duration retention;

		public @Nullable Duration getRetention() {
			return this.retention;
		}

		public void setRetention(@Nullable Duration retention) {
			this.retention = retention;
		}

	}

}
