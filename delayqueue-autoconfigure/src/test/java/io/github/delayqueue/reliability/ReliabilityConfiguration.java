package io.github.delayqueue.reliability;

import java.time.Clock;
import java.time.Duration;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayedJob;
import io.github.delayqueue.internal.scheduler.DelayedJobScheduler;
import io.github.delayqueue.test.RecordingJobHandler;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * An application instance of the reliability scenarios: one listener on
 * {@code reliability.topic} that records what it does in Redis, and a scheduler whose
 * wall clock is off by {@code reliability.clock-offset} (none unless set).
 */
@Configuration(proxyBeanMethods = false)
class ReliabilityConfiguration {

	@Bean
	RecordingListener recordingListener(StringRedisTemplate redis,
			@Value("${reliability.instance:local}") String instance) {
		return new RecordingListener(new RecordingJobHandler(redis, instance));
	}

	@Bean
	static BeanPostProcessor reliabilitySchedulerPostProcessor(Environment environment) {
		return new BeanPostProcessor() {

			@Override
			public Object postProcessAfterInitialization(Object bean, String beanName) {
				if (bean instanceof DelayedJobScheduler scheduler) {
					Duration offset = Duration.parse(environment.getProperty("reliability.clock-offset", "PT0S"));
					scheduler.setClock(Clock.offset(Clock.systemUTC(), offset));
				}
				return bean;
			}

		};
	}

	static class RecordingListener {

		private final RecordingJobHandler handler;

		RecordingListener(RecordingJobHandler handler) {
			this.handler = handler;
		}

		@DelayedJobListener(topics = "${reliability.topic}")
		void on(DelayedJob<String> job) throws InterruptedException {
			this.handler.handle(job);
		}

	}

}
