package io.github.delayqueue.listener;

import java.time.Duration;
import java.util.function.Consumer;

import io.github.delayqueue.core.DelayedJobErrorHandler;
import io.github.delayqueue.internal.store.JobClaims;
import io.github.delayqueue.internal.store.JobRecordCodec;
import io.github.delayqueue.internal.support.DelayQueueThreads;
import io.github.delayqueue.internal.support.DueTimeListener;
import io.github.delayqueue.internal.support.JobEventListener;
import io.github.delayqueue.internal.support.TopicPolicies;
import io.github.delayqueue.observation.DelayQueueProcessObservationConvention;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.task.SimpleAsyncTaskExecutorBuilder;

/**
 * Creates a {@link DelayedJobListenerContainer} per endpoint and holds what they share.
 * The starter configures one, the bean named {@value #DEFAULT_BEAN_NAME}, that serves
 * every listener that names none; an application that wants other settings for some of
 * its listeners (a longer shutdown timeout for slow jobs, say) defines factories of its
 * own, {@link #copy() copies} of the starter's with some settings changed, and names them
 * in {@code @DelayedJobListener(containerFactory = ...)} or
 * {@link DelayedJobListenerEndpointRegistrar#registerEndpoint(DelayedJobListenerEndpoint, DelayedJobListenerContainerFactory)}.
 * A bean of the default name replaces the starter's.
 *
 * @author delayqueue contributors
 */
public class DelayedJobListenerContainerFactory {

	/**
	 * How often a running listener reads which queues its topics have, to wait on
	 * partitions that another instance, or a former number of partitions, wrote to, and
	 * no longer on those that left their topic.
	 */
	static final Duration DEFAULT_QUEUE_REFRESH_INTERVAL = Duration.ofSeconds(30);

	/**
	 * The name of the factory bean that serves listeners that name none.
	 */
	public static final String DEFAULT_BEAN_NAME = "delayedJobListenerContainerFactory";

	private final JobClaims claims;

	private final TopicPolicies policies;

	private final JobRecordCodec codec;

	private final JobEventListener events;

	private final JsonMapper jsonMapper;

	private final Duration pollTimeout;

	private Duration shutdownTimeout;

	private final Consumer<String> topicRegistrar;

	private DueTimeListener dueTimeListener = (topic, dueAt) -> {
	};

	private DelayQueueThreads threads = DelayQueueThreads.platform();

	private HandlerObservations observations = HandlerObservations.NONE;

	private Duration queueRefreshInterval = DEFAULT_QUEUE_REFRESH_INTERVAL;

	private @Nullable DelayedJobErrorHandler errorHandler;

	private DeadJobNotifier deadJobs = DeadJobNotifier.none();

	/**
	 * Create a factory. Internal: called by the auto-configuration; not part of the
	 * public API, and may change in any release.
	 * @param claims the Redis side of consuming
	 * @param policies the topics' policies
	 * @param codec decodes job records
	 * @param events hears what happens to jobs
	 * @param jsonMapper converts payloads to the listeners' types
	 * @param pollTimeout server-side timeout of each blocking wait
	 * @param shutdownTimeout how long a stop waits for running handlers
	 * @param topicRegistrar told of every topic a listener consumes
	 */
	public DelayedJobListenerContainerFactory(JobClaims claims, TopicPolicies policies, JobRecordCodec codec,
			JobEventListener events, JsonMapper jsonMapper, Duration pollTimeout, Duration shutdownTimeout,
			Consumer<String> topicRegistrar) {
		this.claims = claims;
		this.policies = policies;
		this.codec = codec;
		this.events = events;
		this.jsonMapper = jsonMapper;
		this.pollTimeout = pollTimeout;
		this.shutdownTimeout = shutdownTimeout;
		this.topicRegistrar = topicRegistrar;
	}

	/**
	 * Set who hears of time-to-run deadlines and retry due times, typically the local
	 * scheduler, so that it wakes up for them.
	 * @param dueTimeListener the listener
	 */
	public void setDueTimeListener(DueTimeListener dueTimeListener) {
		this.dueTimeListener = dueTimeListener;
	}

	/**
	 * Set the builder of the listeners' threads, typically Spring Boot's: handlers run on
	 * virtual threads when {@code spring.threads.virtual.enabled} asks, each decorated by
	 * the application's task decorator; pollers and blocking waits stay on platform
	 * threads. Each listener still runs at most its concurrency of handlers at once.
	 * Plain platform threads when not set.
	 * @param builder the builder
	 */
	public void setTaskExecutorBuilder(SimpleAsyncTaskExecutorBuilder builder) {
		this.threads = DelayQueueThreads.from(builder);
	}

	/**
	 * Set where handler runs are observed. Each run then continues the trace its job was
	 * sent in, read from the job's headers.
	 * @param registry the registry, {@link ObservationRegistry#NOOP} to observe nothing
	 * @param convention the names and keys, or {@code null} for
	 * {@link io.github.delayqueue.observation.DefaultDelayQueueProcessObservationConvention}
	 * @param linkLongDelays how long after its send a job may fall due and its run still
	 * continue the send's trace; a run of a job due later starts a trace of its own that
	 * links to the send. {@code null} continues the trace however long the delay.
	 */
	public void setObservation(ObservationRegistry registry,
			@Nullable DelayQueueProcessObservationConvention convention, @Nullable Duration linkLongDelays) {
		this.observations = new HandlerObservations(registry, convention, "none", linkLongDelays);
	}

	/**
	 * Set how long a stop of the containers this factory creates waits for running
	 * handlers before it interrupts them and hands their jobs back, instead of
	 * {@code delayqueue.listener.shutdown-timeout}.
	 * @param shutdownTimeout zero or more
	 */
	public void setShutdownTimeout(Duration shutdownTimeout) {
		if (shutdownTimeout.isNegative()) {
			throw new IllegalArgumentException("The shutdown timeout must not be negative, was " + shutdownTimeout);
		}
		this.shutdownTimeout = shutdownTimeout;
	}

	/**
	 * Set the error handler of every listener that names none of its own.
	 * @param errorHandler the handler, or {@code null} to decide as each topic's retry
	 * configuration does
	 */
	public void setErrorHandler(@Nullable DelayedJobErrorHandler errorHandler) {
		this.errorHandler = errorHandler;
	}

	/**
	 * Set who hears of the jobs that handlers' failures make dead.
	 * @param deadJobs tells the application's dead-job listeners
	 */
	public void setDeadJobNotifier(DeadJobNotifier deadJobs) {
		this.deadJobs = deadJobs;
	}

	/**
	 * Create the container of an endpoint.
	 * @param endpoint the endpoint
	 * @return its container, not started
	 * @throws IllegalArgumentException if the endpoint's method cannot be served, naming
	 * what is wrong with it
	 */
	public DelayedJobListenerContainer create(DelayedJobListenerEndpoint endpoint) {
		int concurrency = (endpoint.concurrency() != null) ? endpoint.concurrency()
				: this.policies.forTopic(endpoint.topics().get(0)).concurrency();
		return new DelayedJobListenerContainer(endpoint, endpoint.adapter(this.jsonMapper), this, concurrency);
	}

	/**
	 * Create a factory with this one's settings, for another set of listeners to change
	 * some of them.
	 * @return the new factory
	 */
	public DelayedJobListenerContainerFactory copy() {
		DelayedJobListenerContainerFactory copy = new DelayedJobListenerContainerFactory(this.claims, this.policies,
				this.codec, this.events, this.jsonMapper, this.pollTimeout, this.shutdownTimeout, this.topicRegistrar);
		copy.dueTimeListener = this.dueTimeListener;
		copy.threads = this.threads;
		copy.observations = this.observations;
		copy.queueRefreshInterval = this.queueRefreshInterval;
		copy.errorHandler = this.errorHandler;
		copy.deadJobs = this.deadJobs;
		return copy;
	}

	JobClaims claims() {
		return this.claims;
	}

	TopicPolicies policies() {
		return this.policies;
	}

	JobRecordCodec codec() {
		return this.codec;
	}

	JobEventListener events() {
		return this.events;
	}

	HandlerObservations observations(String listenerId) {
		return this.observations.forListener(listenerId);
	}

	/**
	 * Return the server-side timeout of each blocking wait.
	 * @return the timeout
	 */
	public Duration getPollTimeout() {
		return this.pollTimeout;
	}

	Duration shutdownTimeout() {
		return this.shutdownTimeout;
	}

	Duration queueRefreshInterval() {
		return this.queueRefreshInterval;
	}

	/**
	 * Set how often running listeners read their topics' queues, for tests that change
	 * them.
	 * @param interval the interval
	 */
	void setQueueRefreshInterval(Duration interval) {
		this.queueRefreshInterval = interval;
	}

	@Nullable DelayedJobErrorHandler errorHandler() {
		return this.errorHandler;
	}

	DeadJobNotifier deadJobs() {
		return this.deadJobs;
	}

	DueTimeListener dueTimeListener() {
		return this.dueTimeListener;
	}

	DelayQueueThreads threads() {
		return this.threads;
	}

	void registerTopic(String topic) {
		this.topicRegistrar.accept(topic);
	}

}
