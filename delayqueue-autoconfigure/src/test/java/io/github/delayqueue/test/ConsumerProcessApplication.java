package io.github.delayqueue.test;

import java.util.concurrent.CountDownLatch;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.autoconfigure.DelayQueueAutoConfiguration;
import io.github.delayqueue.autoconfigure.DelayQueueListenerAutoConfiguration;
import io.github.delayqueue.autoconfigure.DelayQueueSchedulerAutoConfiguration;
import io.github.delayqueue.core.DelayedJob;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The application {@link ConsumerProcess} runs: a listener on topic
 * {@code consumer.topic} (default {@code kill}) that prints each job it starts and then,
 * in {@code hold} mode, never returns, or in {@code complete} mode, returns at once. In
 * {@code record} mode the listener is a {@link RecordingJobHandler} instead, named by
 * {@code consumer.instance}.
 */
@SpringBootConfiguration(proxyBeanMethods = false)
@ImportAutoConfiguration({ DataRedisAutoConfiguration.class, JacksonAutoConfiguration.class,
		DelayQueueAutoConfiguration.class, DelayQueueSchedulerAutoConfiguration.class,
		DelayQueueListenerAutoConfiguration.class })
public class ConsumerProcessApplication {

	public static void main(String[] args) {
		new SpringApplicationBuilder(ConsumerProcessApplication.class).web(WebApplicationType.NONE).run(args);
	}

	@Bean
	@ConditionalOnExpression("'${consumer.mode:hold}' != 'record'")
	HoldingListener holdingListener(@Value("${consumer.mode:hold}") String mode) {
		return new HoldingListener(mode.equals("hold"));
	}

	@Bean
	@ConditionalOnProperty(name = "consumer.mode", havingValue = "record")
	RecordingListener recordingListener(StringRedisTemplate redis,
			@Value("${consumer.instance:consumer}") String instance) {
		return new RecordingListener(new RecordingJobHandler(redis, instance));
	}

	/**
	 * Runs every job through a {@link RecordingJobHandler}.
	 */
	public static class RecordingListener {

		private final RecordingJobHandler handler;

		RecordingListener(RecordingJobHandler handler) {
			this.handler = handler;
		}

		@DelayedJobListener(topics = "${consumer.topic:kill}", concurrency = "${consumer.concurrency:4}")
		void on(DelayedJob<String> job) throws InterruptedException {
			this.handler.handle(job);
		}

	}

	/**
	 * Prints every job it starts, so that the test can see what the process holds.
	 */
	public static class HoldingListener {

		private final boolean hold;

		private final CountDownLatch never = new CountDownLatch(1);

		HoldingListener(boolean hold) {
			this.hold = hold;
		}

		@DelayedJobListener(topics = "${consumer.topic:kill}", concurrency = "${consumer.concurrency:4}")
		void on(DelayedJob<String> job) throws InterruptedException {
			System.out.println("STARTED " + job.id() + " " + job.attempt());
			System.out.flush();
			if (this.hold) {
				this.never.await();
			}
		}

	}

}
