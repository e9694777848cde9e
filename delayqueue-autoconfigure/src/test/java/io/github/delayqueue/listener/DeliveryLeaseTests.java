package io.github.delayqueue.listener;

import java.time.Duration;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.DelayedJob;
import io.github.delayqueue.core.JobInfo;
import io.github.delayqueue.core.JobState;
import io.github.delayqueue.test.DelayQueueContextRunner;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Handlers that extend their delivery's time to run with {@link DelayedJob#extendTtr},
 * against a real Redis and a running scheduler.
 */
@ExtendWith(RedisExtension.class)
class DeliveryLeaseTests {

	private ApplicationContextRunner runner;

	@BeforeEach
	void setUp(RedisTestServer server) {
		server.flushAll();
		this.runner = DelayQueueContextRunner.create(server)
			.withPropertyValues("delayqueue.topics.lease.concurrency=2",
					"delayqueue.topics.lease.retry.max-attempts=3");
	}

	@Test
	void anExtendedDeliveryOutlivesItsTimeToRunWithoutBeingDeliveredAgain() {
		this.runner.withUserConfiguration(LongHandler.class)
			.withPropertyValues("delayqueue.topics.lease.ttr=1s")
			.run((context) -> {
				DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
				StringRedisTemplate redis = context.getBean(StringRedisTemplate.class);
				ListenerProbe probe = context.getBean(ListenerProbe.class);
				String id = queue.send("lease", "long");
				await().atMost(Duration.ofSeconds(10)).until(() -> probe.extensions.containsKey(1));
				long extendedAt = ListenerProbe.redisNow(redis);
				assertThat(probe.extensions).containsEntry(1, true);
				assertThat(ListenerProbe.deadline(redis, "lease", id)).isGreaterThan(extendedAt + 20_000);
				// The claim's own deadline was at most 1 s from now; a second past it,
				// the
				// scheduler woken for it has swept, and a free worker would have run the
				// job again.
				await().atMost(Duration.ofSeconds(10)).until(() -> ListenerProbe.redisNow(redis) > extendedAt + 2_000);
				JobInfo running = queue.find("lease", id).orElseThrow();
				assertThat(running.state()).isEqualTo(JobState.RUNNING);
				assertThat(running.attempts()).isEqualTo(1);
				assertThat(probe.attempts()).containsExactly(1);
				probe.open();
				ListenerProbe.awaitGone(queue, "lease", id);
				assertThat(probe.attempts()).containsExactly(1);
			});
	}

	@Test
	void anExtensionAfterTheDeliveryExpiredIsRefused() {
		this.runner.withUserConfiguration(OverdueHandler.class)
			.withPropertyValues("delayqueue.topics.lease.ttr=500ms")
			.run((context) -> {
				DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
				ListenerProbe probe = context.getBean(ListenerProbe.class);
				String id = queue.send("lease", "overdue");
				// The first delivery waits past its time to run, so the job is delivered
				// again; only then does it try to extend.
				probe.awaitAttempts(2);
				probe.open();
				await().atMost(Duration.ofSeconds(10)).until(() -> probe.extensions.size() == 2);
				assertThat(probe.extensions).containsEntry(1, false).containsEntry(2, true);
				ListenerProbe.awaitGone(queue, "lease", id);
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class LongHandler {

		@Bean
		ListenerProbe probe() {
			return new ListenerProbe();
		}

		@Bean
		Object longHandler(ListenerProbe probe) {
			return new Object() {
				@DelayedJobListener("lease")
				void on(DelayedJob<String> job) throws InterruptedException {
					probe.delivered(job);
					probe.extensions.put(job.attempt(), job.extendTtr(Duration.ofSeconds(30)));
					probe.waitAtGate();
				}
			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OverdueHandler {

		@Bean
		ListenerProbe probe() {
			return new ListenerProbe();
		}

		@Bean
		Object overdueHandler(ListenerProbe probe) {
			return new Object() {
				@DelayedJobListener("lease")
				void on(DelayedJob<String> job) throws InterruptedException {
					probe.delivered(job);
					if (job.attempt() == 1) {
						probe.waitAtGate();
					}
					probe.extensions.put(job.attempt(), job.extendTtr(Duration.ofSeconds(30)));
				}
			};
		}

	}

}
