package io.github.delayqueue.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.DelayedJob;
import io.github.delayqueue.core.JobRequest;
import io.github.delayqueue.test.ClusterExtension;
import io.github.delayqueue.test.DelayQueueContextRunner;
import io.github.delayqueue.test.RedisTestCluster;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A topic's limits across two instances on a Redis Cluster, the topic spread over six
 * partitions in as many slots: one rate limit and one global concurrency for all of them,
 * and each group's own concurrency.
 */
@ExtendWith(ClusterExtension.class)
class ClusterLimitsTests {

	// Handlers of both instances, which share this JVM.
	static final AtomicInteger running = new AtomicInteger();

	static final AtomicInteger mostAtOnce = new AtomicInteger();

	static final List<Long> starts = Collections.synchronizedList(new ArrayList<>());

	static final Map<String, AtomicInteger> deliveries = new ConcurrentHashMap<>();

	static final int JOBS = 50;

	private ApplicationContextRunner runner;

	@BeforeEach
	void setUp(RedisTestCluster cluster) {
		cluster.flushAll();
		running.set(0);
		mostAtOnce.set(0);
		starts.clear();
		deliveries.clear();
		TenantListener.running.clear();
		TenantListener.started.clear();
		TenantListener.mostAtOnce.clear();
		this.runner = DelayQueueContextRunner.create(cluster)
			.withUserConfiguration(LimitedListener.class)
			.withPropertyValues("delayqueue.topics.cluster.limited.partitions=6",
					"delayqueue.topics.cluster.limited.rate-limit.limit=20",
					"delayqueue.topics.cluster.limited.rate-limit.period=1s",
					"delayqueue.topics.cluster.limited.global-concurrency=3");
	}

	@Test
	void oneRateLimitAndOneGlobalConcurrencyHoldForEveryPartitionOnTheCluster(RedisTestCluster cluster) {
		this.runner.run((first) -> this.runner.run((second) -> {
			List<JobRequest> batch = new ArrayList<>();
			for (int i = 0; i < JOBS; i++) {
				batch.add(JobRequest.builder("cluster.limited", "call-" + i).build());
			}
			first.getBean(DelayQueueOperations.class).sendAll(batch);
			for (RedisTestServer master : cluster.masters()) {
				assertThat(master.command("KEYS", "{*cluster.limited*}:jobs")).as("master " + master.port())
					.contains("cluster.limited");
			}
			await().atMost(Duration.ofSeconds(30)).until(() -> deliveries.size() == JOBS);
			assertThat(deliveries.values()).allMatch((count) -> count.get() == 1);
			List<Long> sorted = new ArrayList<>(starts);
			Collections.sort(sorted);
			// Twenty starts per second at most: fifty take two periods and a bit.
			assertThat(sorted.get(sorted.size() - 1) - sorted.get(0)).isBetween(1900L, 3500L);
			// No window of a period holds more than the limit plus one start, at the
			// handlers.
			for (int i = 0; i + 21 < sorted.size(); i++) {
				assertThat(sorted.get(i + 21) - sorted.get(i)).as("starts %d to %d span a period", i, i + 21)
					.isGreaterThanOrEqualTo(1000);
			}
			assertThat(mostAtOnce.get()).isEqualTo(3);
		}));
	}

	@Test
	void eachGroupsConcurrencyHoldsForEveryPartitionOnTheCluster(RedisTestCluster cluster) {
		ApplicationContextRunner tenants = DelayQueueContextRunner.create(cluster)
			.withUserConfiguration(TenantListener.class)
			.withPropertyValues("delayqueue.topics.cluster.tenants.partitions=6",
					"delayqueue.topics.cluster.tenants.group.concurrency=2");
		tenants.run((first) -> tenants.run((second) -> {
			List<JobRequest> batch = new ArrayList<>();
			for (String group : TenantListener.GROUPS) {
				for (int i = 0; i < TenantListener.JOBS_PER_GROUP; i++) {
					batch.add(JobRequest.builder("cluster.tenants", group + "-" + i).group(group).build());
				}
			}
			first.getBean(DelayQueueOperations.class).sendAll(batch);
			await().atMost(Duration.ofSeconds(30)).until(() -> deliveries.size() == batch.size());
			assertThat(deliveries.values()).allMatch((count) -> count.get() == 1);
			assertThat(TenantListener.mostAtOnce).containsOnlyKeys(TenantListener.GROUPS);
			assertThat(TenantListener.mostAtOnce.values()).allSatisfy((most) -> assertThat(most.get()).isEqualTo(2));
		}));
	}

	@Configuration(proxyBeanMethods = false)
	static class TenantListener {

		static final List<String> GROUPS = List.of("north", "south", "west");

		static final int JOBS_PER_GROUP = 8;

		static final Map<String, AtomicInteger> running = new ConcurrentHashMap<>();

		static final Map<String, AtomicInteger> started = new ConcurrentHashMap<>();

		static final Map<String, AtomicInteger> mostAtOnce = new ConcurrentHashMap<>();

		@DelayedJobListener(topics = "cluster.tenants", concurrency = "4")
		void handle(DelayedJob<String> job) {
			String group = job.group();
			AtomicInteger mine = running.computeIfAbsent(group, (key) -> new AtomicInteger());
			AtomicInteger startedOfGroup = started.computeIfAbsent(group, (key) -> new AtomicInteger());
			startedOfGroup.incrementAndGet();
			mostAtOnce.computeIfAbsent(group, (key) -> new AtomicInteger())
				.accumulateAndGet(mine.incrementAndGet(), Math::max);
			try {
				// Hold until the group runs two at once (or has no job left to start), so
				// that a third would get its chance to run if the bound leaked.
				await().atMost(Duration.ofSeconds(10))
					.pollInterval(Duration.ofMillis(2))
					.until(() -> mine.get() >= 2 || startedOfGroup.get() >= JOBS_PER_GROUP);
			}
			finally {
				mine.decrementAndGet();
				deliveries.computeIfAbsent(job.payload(), (key) -> new AtomicInteger()).incrementAndGet();
			}
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class LimitedListener {

		@DelayedJobListener(topics = "cluster.limited", concurrency = "4")
		void handle(String payload) {
			starts.add(System.currentTimeMillis());
			mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
			try {
				// Hold the permit until the bound is reached (or every job has started),
				// so
				// that a fourth handler would get its chance to run if the bound leaked.
				await().atMost(Duration.ofSeconds(10))
					.pollInterval(Duration.ofMillis(2))
					.until(() -> running.get() >= 3 || starts.size() >= JOBS);
			}
			finally {
				running.decrementAndGet();
				deliveries.computeIfAbsent(payload, (key) -> new AtomicInteger()).incrementAndGet();
			}
		}

	}

}
