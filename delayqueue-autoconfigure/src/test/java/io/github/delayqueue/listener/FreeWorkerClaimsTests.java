package io.github.delayqueue.listener;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.JobRequest;
import io.github.delayqueue.internal.store.DelayQueueKeys;
import io.github.delayqueue.test.DelayQueueContextRunner;
import io.github.delayqueue.test.PartitionIds;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A listener takes no more ready ids than it has free workers: while every worker is
 * busy, jobs stay where another instance's idle listener takes them at once, rather than
 * in this one's claiming lists until a worker frees or the orphan check hands them back.
 */
@ExtendWith(RedisExtension.class)
class FreeWorkerClaimsTests {

	private static final String TOPIC = "slow";

	private static final int PARTITIONS = 4;

	private ApplicationContextRunner runner;

	@BeforeEach
	void setUp(RedisTestServer server) {
		server.flushAll();
		// Waits long enough not to end and begin again while the test runs, which would
		// change which instance's wait Redis serves first.
		this.runner = DelayQueueContextRunner.create(server)
			.withUserConfiguration(SlowListener.class)
			.withPropertyValues("delayqueue.topics." + TOPIC + ".partitions=" + PARTITIONS,
					"delayqueue.listener.poll-timeout=25s");
	}

	@Test
	void leavesJobsItHasNoFreeWorkerForToAnIdleInstance(RedisTestServer server) {
		this.runner.run((first) -> {
			// The first instance's waits block first, so Redis serves them first: one
			// on each partition.
			await().atMost(Duration.ofSeconds(10)).until(() -> RedisExtension.blockedClients(server) == PARTITIONS);
			this.runner.run((second) -> {
				await().atMost(Duration.ofSeconds(10))
					.until(() -> RedisExtension.blockedClients(server) == 2 * PARTITIONS);
				SlowListener one = first.getBean(SlowListener.class);
				SlowListener two = second.getBean(SlowListener.class);
				try {
					DelayQueueKeys keys = first.getBean(DelayQueueKeys.class);
					first.getBean(DelayQueueOperations.class).sendAll(onePerPartition(keys));
					// Both instances run a job within moments; the two left stay ready.
					await().atMost(Duration.ofSeconds(10))
						.until(() -> one.started.get() == 1 && two.started.get() == 1);
					StringRedisTemplate redis = first.getBean(StringRedisTemplate.class);
					await().atMost(Duration.ofSeconds(5)).until(() -> claimingIds(redis, keys) == 0);
					assertThat(first.getBean(DelayQueueAdmin.class).stats(TOPIC).ready()).isEqualTo(2);
				}
				finally {
					one.release.countDown();
					two.release.countDown();
				}
			});
		});
	}

	private static List<JobRequest> onePerPartition(DelayQueueKeys keys) {
		return PartitionIds.onePerPartition(keys, TOPIC, PARTITIONS)
			.stream()
			.map((id) -> JobRequest.builder(TOPIC, "x").id(id).build())
			.toList();
	}

	private static long claimingIds(StringRedisTemplate redis, DelayQueueKeys keys) {
		long ids = 0;
		for (String queue : keys.queues(TOPIC)) {
			Long size = redis.opsForList().size(keys.topic(queue).claiming());
			ids += (size != null) ? size : 0;
		}
		return ids;
	}

	@Configuration(proxyBeanMethods = false)
	static class SlowListener {

		final AtomicInteger started = new AtomicInteger();

		final CountDownLatch release = new CountDownLatch(1);

		@DelayedJobListener(topics = TOPIC)
		void on(String payload) throws InterruptedException {
			this.started.incrementAndGet();
			this.release.await(30, TimeUnit.SECONDS);
		}

	}

}
