package io.github.delayqueue.internal.schedule;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayedJob;
import io.github.delayqueue.internal.scheduler.DelayedJobScheduler;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * What the instances of a schedule test ran, shared by every application context of the
 * test's JVM: each run of a tick's job, with the instance that ran it and how late it
 * started by the Redis clock.
 */
final class TickLedger {

	private static final Map<String, List<Run>> RUNS = new ConcurrentHashMap<>();

	private TickLedger() {
	}

	static void clear() {
		RUNS.clear();
	}

	/**
	 * Return the runs of a topic so far.
	 * @param topic the topic
	 * @return the runs, in the order they started
	 */
	static List<Run> runs(String topic) {
		return new ArrayList<>(RUNS.getOrDefault(topic, List.of()));
	}

	/**
	 * Return the ticks of a topic's runs, as epoch ms, in the order they started.
	 * @param topic the topic
	 * @return the ticks
	 */
	static List<Long> ticks(String topic) {
		return runs(topic).stream().map(Run::tick).toList();
	}

	static void record(String topic, Run run) {
		RUNS.computeIfAbsent(topic, (t) -> new CopyOnWriteArrayList<>()).add(run);
	}

	/**
	 * One run of a job.
	 *
	 * @param jobId the job's id
	 * @param instance the instance that ran it
	 * @param dueAt the job's due time
	 * @param latenessMillis how late it started by the Redis clock
	 * @param payloadJson its payload
	 */
	record Run(String jobId, String instance, Instant dueAt, long latenessMillis, Map<String, Object> payload) {

		long tick() {
			return Long.parseLong(this.jobId.substring(this.jobId.lastIndexOf('@') + 1));
		}

	}

	/**
	 * An application instance of the schedule tests: one listener on {@code ticks.topic}
	 * that records each run.
	 */
	@Configuration(proxyBeanMethods = false)
	static class Recorder {

		@Bean
		Listener tickListener(StringRedisTemplate redis, @Value("${ticks.instance:local}") String instance) {
			return new Listener(redis, instance);
		}

		/**
		 * Shortens the heartbeat and the grace periods when {@code ticks.heartbeat} is
		 * set, since tests cannot wait for the defaults, and puts the instance's clock
		 * off by {@code ticks.clock-offset}.
		 * @param environment the environment
		 * @return the post-processor
		 */
		@Bean
		static BeanPostProcessor scheduleTimingsPostProcessor(Environment environment) {
			return new BeanPostProcessor() {

				@Override
				public Object postProcessAfterInitialization(Object bean, String beanName) {
					if (bean instanceof ScheduleEngine engine) {
						String heartbeat = environment.getProperty("ticks.heartbeat");
						if (heartbeat != null) {
							Duration beat = Duration.parse(heartbeat);
							engine.setTimings(beat, beat.multipliedBy(3),
									Duration.parse(environment.getProperty("ticks.grace", "PT1H")), beat);
						}
						Duration offset = Duration.parse(environment.getProperty("ticks.clock-offset", "PT0S"));
						engine.setClock(Clock.offset(Clock.systemUTC(), offset));
					}
					if (bean instanceof DelayedJobScheduler scheduler) {
						Duration offset = Duration.parse(environment.getProperty("ticks.clock-offset", "PT0S"));
						scheduler.setClock(Clock.offset(Clock.systemUTC(), offset));
					}
					return bean;
				}

			};
		}

	}

	static class Listener {

		private final StringRedisTemplate redis;

		private final String instance;

		Listener(StringRedisTemplate redis, String instance) {
			this.redis = redis;
			this.instance = instance;
		}

		@DelayedJobListener(topics = "${ticks.topic}", concurrency = "${ticks.concurrency:4}")
		void on(DelayedJob<Map<String, Object>> job) {
			Long now = this.redis.execute((RedisCallback<Long>) (connection) -> connection.serverCommands().time());
			record(job.topic(),
					new Run(job.id(), this.instance, job.dueAt(), now - job.dueAt().toEpochMilli(), job.payload()));
		}

	}

}
