package io.github.delayqueue.internal.schedule;

import java.time.Duration;

import io.github.delayqueue.autoconfigure.DelayQueueSchedulesAutoConfiguration;
import io.github.delayqueue.internal.actuate.ScheduleMetrics;
import io.github.delayqueue.test.DelayQueueContextRunner;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The meters of schedules: {@code delayqueue.schedule.ticks} by outcome and
 * {@code delayqueue.schedule.lateness}, counted where each tick was decided.
 */
@ExtendWith(RedisExtension.class)
class ScheduleMetricsTests {

	@Test
	void countsProducedAndMissedTicksAndTimesTheirLateness(RedisTestServer server) {
		server.flushAll();
		TickLedger.clear();
		ApplicationContextRunner instance = DelayQueueContextRunner.create(server)
			.withConfiguration(AutoConfigurations.of(DelayQueueSchedulesAutoConfiguration.class))
			.withUserConfiguration(TickLedger.Recorder.class, BoundRegistry.class)
			.withPropertyValues("ticks.topic=metered", "delayqueue.schedules.metered.topic=metered",
					"delayqueue.schedules.metered.every=1s", "delayqueue.schedules.metered.misfire=skip");
		long[] stoppedAt = new long[1];
		instance.run((context) -> {
			SimpleMeterRegistry registry = context.getBean(BoundRegistry.class).registry;
			await().atMost(Duration.ofSeconds(20)).until(() -> produced(registry) >= 2);
			Timer lateness = registry.get("delayqueue.schedule.lateness")
				.tags("schedule", "metered", "topic", "metered")
				.timer();
			assertThat(lateness.count()).isGreaterThanOrEqualTo(2);
			stoppedAt[0] = redisNow(context.getBean(StringRedisTemplate.class));
		});
		LettuceConnectionFactory factory = RedisExtension.connectionFactory(server);
		try {
			StringRedisTemplate redis = new StringRedisTemplate(factory);
			redis.afterPropertiesSet();
			// Down for two ticks at least.
			await().atMost(Duration.ofSeconds(20)).until(() -> redisNow(redis) >= stoppedAt[0] + 3500);
		}
		finally {
			factory.destroy();
		}
		instance.run((context) -> {
			StringRedisTemplate redis = context.getBean(StringRedisTemplate.class);
			SimpleMeterRegistry registry = context.getBean(BoundRegistry.class).registry;
			await().atMost(Duration.ofSeconds(20))
				.until(() -> registry.find("delayqueue.schedule.ticks").tag("outcome", "missed").counter() != null);
			Counter missed = registry.get("delayqueue.schedule.ticks").tag("outcome", "missed").counter();
			// At least the ticks between the stop and the start of this instance.
			assertThat(missed.count()).isGreaterThanOrEqualTo(1);
			assertThat(redisNow(redis) - stoppedAt[0]).isGreaterThan((long) missed.count() * 1000);
		});
	}

	/**
	 * Binds the meters as the application starts, before the schedule loop decides its
	 * first ticks: the missed ones are counted once, at the first decision.
	 */
	@Configuration(proxyBeanMethods = false)
	static class BoundRegistry implements BeanPostProcessor {

		final SimpleMeterRegistry registry = new SimpleMeterRegistry();

		@Override
		public Object postProcessAfterInitialization(Object bean, String beanName) {
			if (bean instanceof ScheduleMetrics metrics) {
				metrics.bindTo(this.registry);
			}
			return bean;
		}

	}

	private static double produced(SimpleMeterRegistry registry) {
		Counter counter = registry.find("delayqueue.schedule.ticks")
			.tags("schedule", "metered", "topic", "metered", "outcome", "produced")
			.counter();
		return (counter != null) ? counter.count() : 0;
	}

	private static long redisNow(StringRedisTemplate redis) {
		Long now = redis.execute((RedisCallback<Long>) (connection) -> connection.serverCommands().time());
		return (now != null) ? now : 0;
	}

}
