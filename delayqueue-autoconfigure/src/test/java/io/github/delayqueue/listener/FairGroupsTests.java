package io.github.delayqueue.listener;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.DelayedJob;
import io.github.delayqueue.core.JobRequest;
import io.github.delayqueue.test.DelayQueueContextRunner;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Fair groups on two application instances: a tenant with ten jobs ready behind another's
 * ten thousand is served within its fair share, each job once, on one Redis, on the
 * cluster, and for a topic spread over partitions.
 */
@ExtendWith(RedisExtension.class)
class FairGroupsTests {

	static final int BIG = 10_000;

	static final int SMALL = 10;

	// Starts on both instances, which share this JVM, numbered in order.
	static final AtomicInteger starts = new AtomicInteger();

	static final Map<String, Integer> startedAs = new ConcurrentHashMap<>();

	static final Map<String, String> groupOf = new ConcurrentHashMap<>();

	static final AtomicInteger deliveries = new AtomicInteger();

	private ApplicationContextRunner runner;

	@BeforeEach
	void setUp(RedisTestServer server) {
		server.flushAll();
		starts.set(0);
		startedAs.clear();
		groupOf.clear();
		deliveries.set(0);
		this.runner = DelayQueueContextRunner.create(server).withUserConfiguration(TenantListener.class);
	}

	@Test
	void aSmallTenantBehindALargeOneFinishesWithinItsFairShare() {
		this.runner.run((first) -> this.runner.run((second) -> serveBothTenants(first.getBean(DelayQueueAdmin.class),
				second.getBean(DelayQueueOperations.class), "tenants")));
	}

	@Test
	void aPartitionedTopicTakesEachPartitionsGroupsInTurns() {
		ApplicationContextRunner partitioned = this.runner.withPropertyValues("delayqueue.topics.tenants.partitions=3");
		partitioned.run((first) -> partitioned.run((second) -> serveBothTenants(first.getBean(DelayQueueAdmin.class),
				second.getBean(DelayQueueOperations.class), "tenants")));
	}

	private void serveBothTenants(DelayQueueAdmin admin, DelayQueueOperations queue, String topic) {
		// Held while both tenants' jobs are sent, so that all are ready at once, the
		// small
		// tenant's behind the large one's.
		admin.pause(topic);
		List<JobRequest> requests = new ArrayList<>();
		for (int i = 0; i < BIG; i++) {
			requests.add(JobRequest.builder(topic, "big-" + i).group("big").build());
		}
		for (int i = 0; i < SMALL; i++) {
			requests.add(JobRequest.builder(topic, "small-" + i).group("small").build());
		}
		for (int i = 0; i < requests.size(); i += 1000) {
			queue.sendAll(requests.subList(i, Math.min(i + 1000, requests.size())));
		}
		admin.resume(topic);
		await().atMost(Duration.ofSeconds(60)).until(() -> startedAs.size() == BIG + SMALL);
		assertThat(deliveries.get()).isEqualTo(BIG + SMALL);
		int lastSmall = 0;
		for (int i = 0; i < SMALL; i++) {
			lastSmall = Math.max(lastSmall, startedAs.get("small-" + i));
			assertThat(groupOf.get("small-" + i)).isEqualTo("small");
		}
		// In the ready list's order it would start last. Its fair share is every other
		// start once its jobs have their turn, after the claims that line up the large
		// tenant's jobs ahead of it, a thousand per claim in each partition, and those
		// claims hand out up to a container's claimed-ahead jobs each: a few hundred to
		// over a thousand starts here, depending on the partitions and the pace.
		assertThat(lastSmall).as("start of the small tenant's last job").isLessThan(BIG / 4);
		await().atMost(Duration.ofSeconds(10)).until(() -> admin.stats(topic).pending() == 0);
		assertThat(admin.groups(topic).groups()).isZero();
	}

	@Configuration(proxyBeanMethods = false)
	static class TenantListener {

		@DelayedJobListener(topics = "tenants", concurrency = "4")
		void handle(DelayedJob<String> job) {
			deliveries.incrementAndGet();
			startedAs.put(job.payload(), starts.incrementAndGet());
			groupOf.put(job.payload(), job.group());
		}

	}

}
