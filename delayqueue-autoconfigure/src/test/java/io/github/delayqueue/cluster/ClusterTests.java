package io.github.delayqueue.cluster;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.autoconfigure.DelayQueueEndpointAutoConfiguration;
import io.github.delayqueue.autoconfigure.DelayQueueHealthAutoConfiguration;
import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.DelayedJob;
import io.github.delayqueue.core.JobRequest;
import io.github.delayqueue.core.JobState;
import io.github.delayqueue.core.NonRetryableJobException;
import io.github.delayqueue.core.TopicStats;
import io.github.delayqueue.internal.actuate.DelayQueueEndpoint;
import io.github.delayqueue.internal.actuate.DelayQueueHealthIndicator;
import io.github.delayqueue.listener.DelayedJobListenerEndpointRegistry;
import io.github.delayqueue.test.ClusterExtension;
import io.github.delayqueue.test.DelayQueueContextRunner;
import io.github.delayqueue.test.RedisTestCluster;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The whole contract on a real Redis Cluster of three masters with a replica each.
 */
@ExtendWith(ClusterExtension.class)
class ClusterTests {

	private static final int TOPICS = 30;

	private ApplicationContextRunner runner;

	@BeforeEach
	void setUp(RedisTestCluster cluster) {
		cluster.flushAll();
		this.runner = DelayQueueContextRunner.create(cluster)
			.withPropertyValues("cluster.topics=" + String.join(",", allTopics()));
	}

	@Test
	void deliversEveryJobOfThirtyTopicsOnceWhetherSentOneByOneOrInBatchesSpreadOverEverySlot() {
		this.runner.withUserConfiguration(EveryTopicListener.class).run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
			EveryTopicListener listener = context.getBean(EveryTopicListener.class);
			List<JobRequest> batch = new ArrayList<>();
			for (int i = 0; i < 3000; i++) {
				batch.add(JobRequest.builder(topic(i), "batch-" + i).delay(Duration.ofMillis(i % 500)).build());
			}
			queue.sendAll(batch);
			for (int i = 0; i < 100; i++) {
				queue.send(topic(i), "single-" + i, Duration.ofMillis(i * 5));
			}
			await().atMost(Duration.ofSeconds(30)).until(() -> listener.received.size() == 3100);
			assertThat(listener.received.values()).allMatch((count) -> count.get() == 1);
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(admin.topics()).allSatisfy(
						(topic) -> assertThat(admin.stats(topic)).isEqualTo(new TopicStats(topic, 0, 0, 0, 0))));
		});
	}

	@Test
	void firesJobsOfThirtyTopicsWhenTheyAreDue() {
		this.runner.withUserConfiguration(EveryTopicListener.class).run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
			EveryTopicListener listener = context.getBean(EveryTopicListener.class);
			// Due from half a second on, after every send has returned, over two seconds.
			Instant start = Instant.now().plusMillis(500);
			List<JobRequest> jobs = new ArrayList<>();
			for (int i = 0; i < 1500; i++) {
				jobs.add(JobRequest.builder(topic(i), "due-" + i).dueAt(start.plusMillis(i * 2000L / 1500)).build());
			}
			queue.sendAll(jobs);
			await().atMost(Duration.ofSeconds(30)).until(() -> listener.lateness.size() == 1500);
			assertThat(listener.received.values()).allMatch((count) -> count.get() == 1);
			List<Long> lateness = listener.lateness.stream().sorted().toList();
			// Measured, not asserted: timing is the benchmark's to judge.
			System.out.println("Lateness of 1,500 jobs over " + TOPICS + " topics on a cluster: p50 "
					+ lateness.get(749) + " ms, p99 " + lateness.get(1484) + " ms, max " + lateness.get(1499) + " ms");
			assertThat(lateness.get(0)).as("no job fires before it is due").isGreaterThanOrEqualTo(0);
		});
	}

	@Test
	void findsCancelsReschedulesAndRequeuesJobsByIdAsOnOneRedis() {
		this.runner.run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
			List<String> ids = new ArrayList<>();
			for (int i = 0; i < TOPICS; i++) {
				ids.add(queue.send(topic(i), "later-" + i, Duration.ofHours(1)));
			}
			for (int i = 0; i < TOPICS; i++) {
				assertThat(queue.find(topic(i), ids.get(i))).hasValueSatisfying((job) -> {
					assertThat(job.state()).isEqualTo(JobState.DELAYED);
				});
				assertThat(admin.stats(topic(i)).delayed()).isEqualTo(1);
			}
			assertThat(admin.topics()).hasSize(TOPICS);
			assertThat(queue.cancel(topic(0), ids.get(0))).isTrue();
			assertThat(queue.find(topic(0), ids.get(0))).isEmpty();
			assertThat(queue.reschedule(topic(1), ids.get(1), Duration.ofHours(2))).isTrue();
			assertThat(admin.stats(topic(1)).delayed()).isEqualTo(1);
		});
	}

	@Test
	void keepsDeadJobsPausesTheEndpointAndHealthAsOnOneRedis() {
		this.runner.withUserConfiguration(FailingListener.class)
			.withConfiguration(
					AutoConfigurations.of(EndpointAutoConfiguration.class, HealthContributorAutoConfiguration.class,
							DelayQueueEndpointAutoConfiguration.class, DelayQueueHealthAutoConfiguration.class))
			.withPropertyValues("management.endpoints.web.exposure.include=delayqueue")
			.run((context) -> {
				DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
				DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
				for (int i = 0; i < 60; i++) {
					queue.send(deadTopic(i), "doomed-" + i);
				}
				await().atMost(Duration.ofSeconds(20))
					.until(() -> deadTopics().stream().mapToLong((topic) -> admin.stats(topic).dead()).sum() == 60);
				assertThat(admin.deadJobs(deadTopic(0), 0, 100)).hasSize(10);
				assertThat(admin.requeueDead(deadTopic(0))).isEqualTo(10);
				await().atMost(Duration.ofSeconds(20)).until(() -> admin.stats(deadTopic(0)).dead() == 10);
				assertThat(admin.purgeDead(deadTopic(1))).isEqualTo(10);
				assertThat(admin.stats(deadTopic(1)).dead()).isZero();
				admin.pause(deadTopic(2));
				assertThat(admin.isPaused(deadTopic(2))).isTrue();
				admin.resume(deadTopic(2));
				assertThat(admin.isPaused(deadTopic(2))).isFalse();
				DelayQueueEndpoint.QueuesDescriptor queues = context.getBean(DelayQueueEndpoint.class)
					.queues(SecurityContext.NONE);
				assertThat(queues.topics()).containsKeys(deadTopics().toArray(String[]::new));
				assertThat(queues.topics().get(deadTopic(3)).dead()).isEqualTo(10);
				assertThat(context.getBean(DelayQueueHealthIndicator.class).health().getStatus()).isEqualTo(Status.UP);
			});
	}

	@Test
	void spreadsAPartitionedTopicOverEveryMasterAndDeliversEachJobOnce(RedisTestCluster cluster) {
		this.runner.withUserConfiguration(PartitionedListener.class)
			.withPropertyValues("delayqueue.topics.cluster.partitioned.partitions=6",
					"delayqueue.topics.cluster.partitioned.concurrency=4")
			.run((context) -> {
				DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
				DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
				PartitionedListener listener = context.getBean(PartitionedListener.class);
				String later = queue.send("cluster.partitioned", "later", Duration.ofHours(1));
				List<JobRequest> batch = new ArrayList<>();
				for (int i = 0; i < 1200; i++) {
					batch.add(JobRequest.builder("cluster.partitioned", "job-" + i)
						.delay(Duration.ofMillis(i % 400))
						.build());
				}
				queue.sendAll(batch);
				// Each master holds a share: one topic is no longer capped by one node.
				for (RedisTestServer master : cluster.masters()) {
					assertThat(master.command("KEYS", "{*cluster.partitioned*}:jobs")).as("master " + master.port())
						.contains("cluster.partitioned");
				}
				await().atMost(Duration.ofSeconds(30)).until(() -> listener.received.size() == 1200);
				assertThat(listener.received.values()).allMatch((count) -> count.get() == 1);
				assertThat(queue.find("cluster.partitioned", later)).isPresent();
				assertThat(admin.stats("cluster.partitioned"))
					.isEqualTo(new TopicStats("cluster.partitioned", 1, 0, 0, 0));
				assertThat(queue.cancel("cluster.partitioned", later)).isTrue();
				assertThat(admin.topics()).contains("cluster.partitioned").noneMatch((topic) -> topic.contains("~"));
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class PartitionedListener {

		final Map<String, AtomicInteger> received = new ConcurrentHashMap<>();

		@DelayedJobListener(topics = "cluster.partitioned")
		void handle(String payload) {
			this.received.computeIfAbsent(payload, (key) -> new AtomicInteger()).incrementAndGet();
		}

	}

	private static String deadTopic(int i) {
		return "cluster.dead-" + (i % 6);
	}

	private static List<String> deadTopics() {
		return List.of(deadTopic(0), deadTopic(1), deadTopic(2), deadTopic(3), deadTopic(4), deadTopic(5));
	}

	@Test
	void stopsIdleListenersWellUnderASecond(RedisTestCluster cluster) {
		this.runner.withUserConfiguration(EveryTopicListener.class).run((context) -> {
			DelayedJobListenerEndpointRegistry registry = context.getBean(DelayedJobListenerEndpointRegistry.class);
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
			EveryTopicListener listener = context.getBean(EveryTopicListener.class);
			// One job per topic proves every waiter is up and blocking before the stop.
			for (int i = 0; i < TOPICS; i++) {
				queue.send(topic(i), "ping-" + i);
			}
			await().atMost(Duration.ofSeconds(10)).until(() -> listener.received.size() == TOPICS);
			// Every topic's wait is blocked on the master of its slot.
			await().atMost(Duration.ofSeconds(20)).until(() -> blockedClients(cluster) == TOPICS);
			long start = System.nanoTime();
			registry.stop();
			Duration took = Duration.ofNanos(System.nanoTime() - start);
			System.out.println("Stopping " + TOPICS + " idle listeners on a cluster took " + took.toMillis() + " ms");
			assertThat(took).isLessThan(Duration.ofMillis(1000));
			assertThat(blockedClients(cluster)).isZero();
		});
	}

	private static long blockedClients(RedisTestCluster cluster) {
		return cluster.masters().stream().mapToLong(RedisTestServer::blockedClients).sum();
	}

	private static String topic(int i) {
		return "cluster.topic-" + (i % TOPICS);
	}

	@Configuration(proxyBeanMethods = false)
	static class FailingListener {

		@DelayedJobListener(topics = { "cluster.dead-0", "cluster.dead-1", "cluster.dead-2", "cluster.dead-3",
				"cluster.dead-4", "cluster.dead-5" })
		void handle(String payload) {
			throw new NonRetryableJobException("never works: " + payload);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class EveryTopicListener {

		final Map<String, AtomicInteger> received = new ConcurrentHashMap<>();

		final List<Long> lateness = new CopyOnWriteArrayList<>();

		@DelayedJobListener(topics = "${cluster.topics}")
		void handle(DelayedJob<String> job) {
			this.lateness.add(Duration.between(job.dueAt(), Instant.now()).toMillis());
			this.received.computeIfAbsent(job.topic() + "/" + job.payload(), (key) -> new AtomicInteger())
				.incrementAndGet();
		}

	}

	private static String[] allTopics() {
		String[] topics = new String[TOPICS];
		for (int i = 0; i < TOPICS; i++) {
			topics[i] = topic(i);
		}
		return topics;
	}

}
