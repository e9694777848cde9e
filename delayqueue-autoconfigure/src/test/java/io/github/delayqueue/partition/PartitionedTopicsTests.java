package io.github.delayqueue.partition;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.autoconfigure.InvalidDelayQueuePropertiesException;
import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.DelayedJob;
import io.github.delayqueue.core.JobInfo;
import io.github.delayqueue.core.JobRequest;
import io.github.delayqueue.core.JobState;
import io.github.delayqueue.core.NonRetryableJobException;
import io.github.delayqueue.core.TopicStats;
import io.github.delayqueue.internal.store.DelayQueueKeys;
import io.github.delayqueue.test.DelayQueueContextRunner;
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
 * A topic split into partitions is one topic to the application: every job is written to
 * the partition its id maps to, found, cancelled and rescheduled there, counted and
 * consumed with the others, and a change of the number of partitions loses nothing.
 */
@ExtendWith(RedisExtension.class)
class PartitionedTopicsTests {

	private static final String TOPIC = "orders.timeout";

	private ApplicationContextRunner runner;

	@BeforeEach
	void setUp(RedisTestServer server) {
		server.flushAll();
		this.runner = DelayQueueContextRunner.create(server)
			.withPropertyValues("delayqueue.topics." + TOPIC + ".partitions=6", "delayqueue.scheduler.max-sleep=200ms");
	}

	@Test
	void spreadsJobsOverEveryPartitionAndReportsThemAsOneTopic() {
		this.runner.run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
			DelayQueueKeys keys = context.getBean(DelayQueueKeys.class);
			List<String> ids = new ArrayList<>();
			for (int i = 0; i < 100; i++) {
				ids.add(queue.send(TOPIC, "single-" + i, Duration.ofHours(1)));
			}
			List<JobRequest> batch = new ArrayList<>();
			for (int i = 0; i < 500; i++) {
				batch.add(JobRequest.builder(TOPIC, "batch-" + i).id("order-" + i).delay(Duration.ofHours(1)).build());
			}
			ids.addAll(queue.sendAll(batch));
			List<String> queues = keys.queues(TOPIC);
			assertThat(queues).hasSize(6).doesNotHaveDuplicates().first().isEqualTo(TOPIC);
			StringRedisTemplate redis = context.getBean(StringRedisTemplate.class);
			long total = 0;
			for (String partition : queues) {
				Long delayed = redis.opsForZSet().zCard(keys.topic(partition).delayed());
				// 600 jobs over 6 partitions: each gets its share, give or take.
				assertThat(delayed).as(partition).isBetween(50L, 150L);
				total += delayed;
			}
			assertThat(total).isEqualTo(600);
			assertThat(admin.stats(TOPIC)).isEqualTo(new TopicStats(TOPIC, 600, 0, 0, 0));
			assertThat(admin.topics()).containsExactly(TOPIC);
			for (String id : List.of(ids.get(0), ids.get(99), ids.get(100), ids.get(599))) {
				assertThat(queue.find(TOPIC, id)).hasValueSatisfying((job) -> {
					assertThat(job.topic()).isEqualTo(TOPIC);
					assertThat(job.state()).isEqualTo(JobState.DELAYED);
				});
			}
			assertThat(queue.cancel(TOPIC, ids.get(0))).isTrue();
			assertThat(queue.find(TOPIC, ids.get(0))).isEmpty();
			assertThat(queue.reschedule(TOPIC, ids.get(1), Duration.ofHours(2))).isTrue();
			assertThat(queue.find(TOPIC, ids.get(1)).orElseThrow().dueAt())
				.isAfter(java.time.Instant.now().plus(Duration.ofMinutes(90)));
			// Pages run through the partitions: every job once, none twice.
			Set<String> paged = new HashSet<>();
			for (int offset = 0; offset < 700; offset += 70) {
				for (JobInfo job : admin.jobs(TOPIC, JobState.DELAYED, offset, 70)) {
					assertThat(paged.add(job.id())).as(job.id()).isTrue();
					assertThat(job.topic()).isEqualTo(TOPIC);
				}
			}
			assertThat(paged).hasSize(599);
		});
	}

	@Test
	void listenerConsumesEveryPartitionOnce() {
		this.runner.withUserConfiguration(CountingListener.class)
			.withPropertyValues("delayqueue.topics." + TOPIC + ".concurrency=4")
			.run((context) -> {
				DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
				DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
				CountingListener listener = context.getBean(CountingListener.class);
				List<JobRequest> batch = new ArrayList<>();
				for (int i = 0; i < 1000; i++) {
					batch.add(JobRequest.builder(TOPIC, "job-" + i).delay(Duration.ofMillis(i % 300)).build());
				}
				queue.sendAll(batch);
				for (int i = 0; i < 50; i++) {
					queue.send(TOPIC, "single-" + i);
				}
				await().atMost(Duration.ofSeconds(30)).until(() -> listener.received.size() == 1050);
				assertThat(listener.received.values()).allMatch((count) -> count.get() == 1);
				assertThat(listener.topics).containsExactly(TOPIC);
				await().atMost(Duration.ofSeconds(10))
					.untilAsserted(() -> assertThat(admin.stats(TOPIC)).isEqualTo(new TopicStats(TOPIC, 0, 0, 0, 0)));
			});
	}

	@Test
	void deadJobsPausesAndBulkOperationsCoverEveryPartition() {
		this.runner.withUserConfiguration(FailingListener.class).run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
			for (int i = 0; i < 60; i++) {
				queue.send(TOPIC, "doomed-" + i);
			}
			await().atMost(Duration.ofSeconds(20)).until(() -> admin.stats(TOPIC).dead() == 60);
			assertThat(admin.deadJobs(TOPIC, 0, 100)).hasSize(60);
			String oneDead = admin.deadJobs(TOPIC, 30, 1).get(0).id();
			admin.pause(TOPIC);
			assertThat(admin.isPaused(TOPIC)).isTrue();
			assertThat(admin.requeueDead(TOPIC, oneDead)).isTrue();
			assertThat(admin.requeueDead(TOPIC)).isEqualTo(59);
			// Paused: every requeued job waits in READY, whichever partition holds it.
			await().atMost(Duration.ofSeconds(5)).until(() -> admin.stats(TOPIC).ready() == 60);
			assertThat(admin.stats(TOPIC).dead()).isZero();
			admin.resume(TOPIC);
			await().atMost(Duration.ofSeconds(20)).until(() -> admin.stats(TOPIC).dead() == 60);
			assertThat(admin.purgeDead(TOPIC)).isEqualTo(60);
			assertThat(admin.stats(TOPIC)).isEqualTo(new TopicStats(TOPIC, 0, 0, 0, 0));
		});
	}

	@Test
	void changingTheNumberOfPartitionsWhileJobsArePendingLosesNothing(RedisTestServer server) {
		List<String> ids = new ArrayList<>();
		// Sent by an instance with six partitions: jobs due soon and later.
		this.runner.withPropertyValues("delayqueue.scheduler.enabled=false").run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
			for (int i = 0; i < 300; i++) {
				ids.add(queue.send(TOPIC, "six-" + i, Duration.ofMillis((i % 2 == 0) ? 0 : 1500)));
			}
		});
		// Read by instances with two partitions, then with one: both see all 300.
		DelayQueueContextRunner.create(server)
			.withPropertyValues("delayqueue.topics." + TOPIC + ".partitions=2", "delayqueue.scheduler.enabled=false")
			.run((context) -> {
				DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
				DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
				assertThat(admin.stats(TOPIC).delayed() + admin.stats(TOPIC).ready()).isEqualTo(300);
				assertThat(queue.find(TOPIC, ids.get(7))).isPresent();
				for (int i = 0; i < 100; i++) {
					ids.add(queue.send(TOPIC, "two-" + i, Duration.ofMillis(500)));
				}
			});
		DelayQueueContextRunner.create(server)
			.withPropertyValues("delayqueue.scheduler.max-sleep=200ms")
			.withUserConfiguration(CountingListener.class)
			.run((context) -> {
				DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
				DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
				CountingListener listener = context.getBean(CountingListener.class);
				assertThat(queue.cancel(TOPIC, ids.get(1))).isTrue();
				for (int i = 0; i < 100; i++) {
					queue.send(TOPIC, "one-" + i);
				}
				await().atMost(Duration.ofSeconds(30)).until(() -> listener.received.size() == 499);
				// An instance still on six partitions (a rolling deployment) sends on:
				// the listener waits on those partitions too, so their jobs come at once,
				// not after its idle look every five poll timeouts (50 s).
				DelayQueueContextRunner.create(server)
					.withPropertyValues("delayqueue.topics." + TOPIC + ".partitions=6",
							"delayqueue.scheduler.enabled=false")
					.run((old) -> {
						DelayQueueKeys keys = old.getBean(DelayQueueKeys.class);
						int sent = 0;
						for (int i = 0; sent < 60; i++) {
							// None in the topic's own queue, which the listener waits on
							// anyway.
							if (!keys.queueOf(TOPIC, "late-" + i).equals(TOPIC)) {
								old.getBean(DelayQueueOperations.class)
									.send(JobRequest.builder(TOPIC, "still-six-" + i).id("late-" + i).build());
								sent++;
							}
						}
					});
				await().atMost(Duration.ofSeconds(10)).until(() -> listener.received.size() == 559);
				assertThat(listener.received.values()).allMatch((count) -> count.get() == 1);
				assertThat(listener.received).doesNotContainKey("six-1");
				await().atMost(Duration.ofSeconds(10))
					.untilAsserted(() -> assertThat(admin.stats(TOPIC)).isEqualTo(new TopicStats(TOPIC, 0, 0, 0, 0)));
			});
	}

	@Test
	void refusesPartitionsOutsideOneTo1024NamingTheProperty() {
		DelayQueueContextRunner.withoutRedis()
			.withPropertyValues("delayqueue.defaults.partitions=0", "delayqueue.topics.hot.partitions=1025")
			.run((context) -> {
				assertThat(context).hasFailed();
				Throwable failure = context.getStartupFailure();
				while (!(failure instanceof InvalidDelayQueuePropertiesException) && failure.getCause() != null) {
					failure = failure.getCause();
				}
				assertThat(failure).isInstanceOf(InvalidDelayQueuePropertiesException.class);
				assertThat(((InvalidDelayQueuePropertiesException) failure).getProblems())
					.anySatisfy((problem) -> assertThat(problem).contains("delayqueue.defaults.partitions")
						.contains("1 to 1024"))
					.anySatisfy((problem) -> assertThat(problem).contains("delayqueue.topics.hot.partitions")
						.contains("1025"));
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class CountingListener {

		final Map<String, AtomicInteger> received = new ConcurrentHashMap<>();

		final Set<String> topics = ConcurrentHashMap.newKeySet();

		@DelayedJobListener(topics = TOPIC)
		void handle(DelayedJob<String> job) {
			this.topics.add(job.topic());
			this.received.computeIfAbsent(job.payload(), (key) -> new AtomicInteger()).incrementAndGet();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class FailingListener {

		@DelayedJobListener(topics = TOPIC)
		void handle(String payload) {
			throw new NonRetryableJobException("never works: " + payload);
		}

	}

}
