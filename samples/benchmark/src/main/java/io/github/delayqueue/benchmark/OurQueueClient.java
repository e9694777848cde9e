package io.github.delayqueue.benchmark;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.DelayedJob;
import io.github.delayqueue.core.JobRequest;
import io.github.delayqueue.internal.schedule.ScheduleTickListener;
import io.github.delayqueue.internal.support.JobEventListener;
import io.github.delayqueue.listener.DelayedJobListenerContainer;
import io.github.delayqueue.listener.DelayedJobListenerEndpointRegistry;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Our starter as an application uses it: a Spring Boot context with the starter's
 * auto-configuration, {@link DelayQueueOperations} to send and
 * {@link DelayedJobListener @DelayedJobListener} methods to consume. The listeners do not
 * start with the context; each scenario starts the ones it measures.
 */
final class OurQueueClient implements QueueClient {

	// -Dbenchmark.groups=N spreads the jobs of each batch (and of the burst) over N fair
	// groups, in turn, to measure what taking groups in turns costs; none by default.
	private static final int GROUPS = Integer.getInteger("benchmark.groups", 0);

	static final String BURST = "bench.burst";

	static final String LIGHT = "bench.light";

	static final String IDLE = "bench.idle.";

	/**
	 * A topic the cluster scenarios give six partitions.
	 */
	static final String PARTITIONED = "bench.partitioned";

	/**
	 * The listener of the {@link #MANY_TOPICS} topics {@code bench.many.0} to
	 * {@code bench.many.29}, one consumer per topic.
	 */
	static final String MANY = "bench.many";

	static final int MANY_TOPICS = 30;

	/**
	 * The topic of the schedules' ticks, see {@link ScheduleScenario}.
	 */
	static final String TICKS = "bench.ticks";

	static final int TICK_CONSUMERS = 8;

	/**
	 * A topic that {@link RateLimitScenario} gives a rate limit.
	 */
	static final String LIMITED = "bench.limited";

	static final int LIMITED_CONSUMERS = 8;

	private final ConfigurableApplicationContext context;

	private final DelayQueueOperations operations;

	private final DelayedJobListenerEndpointRegistry registry;

	private final Sinks sinks;

	private final StringRedisTemplate redisTemplate;

	private final List<DelayedJobListenerContainer> started = new ArrayList<>();

	OurQueueClient(BenchmarkRedis redis, ApplicationSetup setup) {
		this(Map.of("spring.data.redis.host", redis.host(), "spring.data.redis.port", String.valueOf(redis.port())),
				setup);
	}

	/**
	 * Start the application against the Redis the properties name.
	 * @param redisProperties Spring Boot's {@code spring.data.redis.*} properties, such
	 * as the nodes of a cluster
	 * @param setup how the application is set up
	 */
	OurQueueClient(Map<String, String> redisProperties, ApplicationSetup setup) {
		SpringApplication application = new SpringApplication(BenchmarkContext.class);
		application.setBannerMode(org.springframework.boot.Banner.Mode.OFF);
		application.setLogStartupInfo(false);
		Map<String, Object> properties = new HashMap<>(redisProperties);
		properties.put("logging.level.root", "WARN");
		properties.put("benchmark.many-topics", String.join(",", manyTopics()));
		setup.apply(application, properties);
		application.setDefaultProperties(properties);
		this.context = application.run();
		this.operations = this.context.getBean(DelayQueueOperations.class);
		this.registry = this.context.getBean(DelayedJobListenerEndpointRegistry.class);
		this.sinks = this.context.getBean(Sinks.class);
		this.redisTemplate = this.context.getBean(StringRedisTemplate.class);
	}

	/**
	 * Start several instances of the application against one Redis, as a deployment runs
	 * them.
	 * @param count how many
	 * @param redis the Redis
	 * @param setup how each is set up
	 * @param properties more properties of each
	 * @return the instances
	 */
	static List<OurQueueClient> instances(int count, BenchmarkRedis redis, ApplicationSetup setup,
			Map<String, String> properties) {
		return instances(count,
				Map.of("spring.data.redis.host", redis.host(), "spring.data.redis.port", String.valueOf(redis.port())),
				setup, properties);
	}

	// As above, on the Redis the given spring.data.redis properties name (a cluster's
	// nodes).
	static List<OurQueueClient> instances(int count, Map<String, String> redisProperties, ApplicationSetup setup,
			Map<String, String> properties) {
		Map<String, String> all = new HashMap<>(properties);
		all.putAll(redisProperties);
		List<OurQueueClient> instances = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			instances.add(new OurQueueClient(all, setup));
		}
		return instances;
	}

	@Override
	public String name() {
		return "delayqueue";
	}

	@Override
	public void send(String topic, String payload, long delayMillis) {
		this.operations.send(topic, payload, Duration.ofMillis(delayMillis));
	}

	@Override
	public void sendAt(String topic, String payload, long dueAtMillis) {
		this.operations.sendAt(topic, payload, Instant.ofEpochMilli(dueAtMillis));
	}

	@Override
	public void sendMany(String topic, List<String> payloads, long dueAtMillis) {
		Instant dueAt = Instant.ofEpochMilli(dueAtMillis);
		List<JobRequest> requests = new ArrayList<>(payloads.size());
		for (int i = 0; i < payloads.size(); i++) {
			JobRequest.Builder request = JobRequest.builder(topic, payloads.get(i)).dueAt(dueAt);
			if (GROUPS > 0) {
				request.group("group-" + (i % GROUPS));
			}
			requests.add(request.build());
		}
		this.operations.sendAll(requests);
	}

	/**
	 * Send jobs shaped like the schedules' ticks, with a JSON object as payload, due now,
	 * to the ticks' topic.
	 * @param count how many
	 */
	void sendTickShapedJobs(int count) {
		Instant now = Instant.now();
		List<JobRequest> requests = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			requests.add(JobRequest.builder(TICKS, Map.of("warm-up", i)).dueAt(now).build());
		}
		this.operations.sendAll(requests);
	}

	@Override
	public void startConsumers(String topic, int threads, JobSink sink) {
		DelayedJobListenerContainer container = this.registry.getListenerContainer(topic);
		if (container == null || container.getConcurrency() != threads) {
			throw new IllegalArgumentException("No listener of topic " + topic + " with concurrency " + threads);
		}
		this.sinks.byTopic.put(topic, sink);
		container.start();
		this.started.add(container);
	}

	/**
	 * Report how long after its tick each tick's job that this instance produced went
	 * into its topic, by the Redis clock.
	 * @param latenessMillis hears each lateness
	 */
	void onTickProduced(LongConsumer latenessMillis) {
		this.sinks.tickProduced = latenessMillis;
	}

	/**
	 * Read the clock of the Redis server, the one the starter's limits are decided on,
	 * over this application's own connection.
	 * @return microseconds since the epoch
	 */
	long redisMicros() {
		Long micros = this.redisTemplate
			.execute((RedisCallback<Long>) (connection) -> connection.serverCommands().time(TimeUnit.MICROSECONDS));
		if (micros == null) {
			throw new IllegalStateException("Redis answered TIME with nothing");
		}
		return micros;
	}

	/**
	 * Start the listener of the {@link #MANY_TOPICS} topics.
	 * @param sink hears of every job of them
	 */
	void startManyTopicsListener(JobSink sink) {
		DelayedJobListenerContainer container = this.registry.getListenerContainer(MANY);
		manyTopics().forEach((topic) -> this.sinks.byTopic.put(topic, sink));
		container.start();
		this.started.add(container);
	}

	static List<String> manyTopics() {
		List<String> topics = new ArrayList<>();
		for (int i = 0; i < MANY_TOPICS; i++) {
			topics.add(MANY + "." + i);
		}
		return topics;
	}

	@Override
	public void stopConsumers() {
		this.started.forEach(DelayedJobListenerContainer::stop);
		this.started.clear();
		this.sinks.byTopic.clear();
	}

	@Override
	public String readyListKey(String topic) {
		return "{dq:" + topic + "}:ready";
	}

	@Override
	public void close() {
		stopConsumers();
		this.context.close();
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class BenchmarkContext {

		@Bean
		Sinks benchmarkSinks() {
			return new Sinks();
		}

		@Bean
		BenchmarkListeners benchmarkListeners(Sinks sinks) {
			return new BenchmarkListeners(sinks);
		}

		@Bean
		ScheduleTickListener benchmarkTickDecisions(Sinks sinks) {
			return (schedule, topic, produced, skipped, missed, latenessMillis) -> {
				if (produced > 0) {
					sinks.tickProduced.accept(latenessMillis);
				}
			};
		}

		// Completed means acknowledged: the event comes after the ack script succeeded.
		@Bean
		JobEventListener benchmarkAcknowledgements(Sinks sinks) {
			return new JobEventListener() {

				@Override
				public void jobCompleted(String topic, Duration runTime) {
					JobSink sink = sinks.byTopic.get(topic);
					if (sink != null) {
						sink.acknowledged();
					}
				}

			};
		}

	}

	static final class Sinks {

		final Map<String, JobSink> byTopic = new ConcurrentHashMap<>();

		// Hears how long after its tick each tick's job went into its topic.
		volatile LongConsumer tickProduced = (latenessMillis) -> {
		};

		void started(String topic, String payload) {
			JobSink sink = this.byTopic.get(topic);
			if (sink != null) {
				sink.started(payload);
			}
		}

	}

	/**
	 * No-op handlers that only report. Listener ids are the topics, so that a scenario
	 * finds its listener by topic.
	 */
	static final class BenchmarkListeners {

		private final Sinks sinks;

		BenchmarkListeners(Sinks sinks) {
			this.sinks = sinks;
		}

		@DelayedJobListener(id = BURST, topics = BURST, concurrency = "8", autoStartup = "false")
		void burst(String payload) {
			this.sinks.started(BURST, payload);
		}

		@DelayedJobListener(id = LIGHT, topics = LIGHT, concurrency = "8", autoStartup = "false")
		void light(String payload) {
			this.sinks.started(LIGHT, payload);
		}

		@DelayedJobListener(id = PARTITIONED, topics = PARTITIONED, concurrency = "8", autoStartup = "false")
		void partitioned(String payload) {
		}

		// One listener of thirty topics, as an application listens to many: a blocking
		// wait per topic, one worker per topic.
		@DelayedJobListener(id = MANY, topics = "${benchmark.many-topics}", concurrency = "30", autoStartup = "false")
		void many(String payload) {
		}

		// The tick's instant is the job's due time; the sink reads it as the light-load
		// handler reads the due time in its payload.
		@DelayedJobListener(id = TICKS, topics = TICKS, concurrency = "" + TICK_CONSUMERS, autoStartup = "false")
		void ticks(DelayedJob<Map<String, Object>> tick) {
			this.sinks.started(TICKS, tick.dueAt().toEpochMilli() + ":");
		}

		@DelayedJobListener(id = LIMITED, topics = LIMITED, concurrency = "" + LIMITED_CONSUMERS, autoStartup = "false")
		void limited(String payload) {
			this.sinks.started(LIMITED, payload);
		}

		@DelayedJobListener(id = IDLE + 0, topics = IDLE + 0, concurrency = "1", autoStartup = "false")
		void idle0(String payload) {
		}

		@DelayedJobListener(id = IDLE + 1, topics = IDLE + 1, concurrency = "1", autoStartup = "false")
		void idle1(String payload) {
		}

		@DelayedJobListener(id = IDLE + 2, topics = IDLE + 2, concurrency = "1", autoStartup = "false")
		void idle2(String payload) {
		}

		@DelayedJobListener(id = IDLE + 3, topics = IDLE + 3, concurrency = "1", autoStartup = "false")
		void idle3(String payload) {
		}

		@DelayedJobListener(id = IDLE + 4, topics = IDLE + 4, concurrency = "1", autoStartup = "false")
		void idle4(String payload) {
		}

		@DelayedJobListener(id = IDLE + 5, topics = IDLE + 5, concurrency = "1", autoStartup = "false")
		void idle5(String payload) {
		}

		@DelayedJobListener(id = IDLE + 6, topics = IDLE + 6, concurrency = "1", autoStartup = "false")
		void idle6(String payload) {
		}

		@DelayedJobListener(id = IDLE + 7, topics = IDLE + 7, concurrency = "1", autoStartup = "false")
		void idle7(String payload) {
		}

		@DelayedJobListener(id = IDLE + 8, topics = IDLE + 8, concurrency = "1", autoStartup = "false")
		void idle8(String payload) {
		}

		@DelayedJobListener(id = IDLE + 9, topics = IDLE + 9, concurrency = "1", autoStartup = "false")
		void idle9(String payload) {
		}

	}

}
