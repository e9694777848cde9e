package io.github.delayqueue.reliability;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.DelayedJob;
import io.github.delayqueue.core.DuplicateJobException;
import io.github.delayqueue.core.JobRequest;
import io.github.delayqueue.test.DelayQueueContextRunner;
import io.github.delayqueue.test.RedisTestCluster;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Failovers of a real Redis Cluster while jobs are sent and consumed: a manual
 * {@code CLUSTER FAILOVER} loses nothing; a killed master loses at most what its replica
 * had not received yet, which on loopback is nothing sent a second before the kill. Each
 * test has a cluster of its own, as a killed node changes it.
 */
class ClusterFailoverTests {

	private static final String[] TOPICS = { "failover.a", "failover.b", "failover.c", "failover.d", "failover.e",
			"failover.f" };

	private static final int JOBS = 1200;

	private RedisTestCluster cluster;

	private ApplicationContextRunner runner;

	@BeforeEach
	void setUp() {
		this.cluster = RedisTestCluster.start();
		// No topology refresh settings: the starter's defaults must follow the failover.
		// A short time to run: an acknowledgement lost to the kill is delivered again
		// within the test's deadline.
		this.runner = DelayQueueContextRunner.create(this.cluster)
			.withPropertyValues("delayqueue.defaults.ttr=5s")
			.withUserConfiguration(Recorder.class);
	}

	@AfterEach
	void tearDown() {
		this.cluster.close();
	}

	@Test
	void losesNothingAcknowledgedWhenAReplicaIsPromotedByAManualFailover() {
		this.runner.run((context) -> {
			Recorder recorder = context.getBean(Recorder.class);
			Sender sender = new Sender(context.getBean(DelayQueueOperations.class));
			CompletableFuture<Void> sending = CompletableFuture.runAsync(() -> sender.send(JOBS));
			await().atMost(Duration.ofSeconds(30)).until(() -> sender.sent.size() >= JOBS / 4);
			this.cluster.failover(this.cluster.replicas().get(0));
			assertThat(sending).succeedsWithin(Duration.ofSeconds(60));
			await().atMost(Duration.ofSeconds(60))
				.untilAsserted(() -> assertThat(recorder.received.keySet()).containsAll(sender.sent.keySet()));
			report("manual failover", sender, recorder);
			assertInvariants();
		});
	}

	@Test
	void losesAtMostWhatTheReplicaHadNotReceivedWhenAMasterIsKilled() {
		this.runner.run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
			Recorder recorder = context.getBean(Recorder.class);
			Sender sender = new Sender(queue);
			CompletableFuture<Void> sending = CompletableFuture.runAsync(() -> sender.send(JOBS));
			await().atMost(Duration.ofSeconds(30)).until(() -> sender.sent.size() >= JOBS / 4);
			RedisTestServer master = this.cluster.masters().get(0);
			long killedAt = System.nanoTime();
			master.kill();
			// Sends to the dead master's slots fail until its replica takes over; each is
			// tried again until it lands.
			assertThat(sending).succeedsWithin(Duration.ofSeconds(60));
			master.restart();
			// Acknowledged a second before the kill: replicated by then on loopback.
			Set<String> settled = sender.sent.entrySet()
				.stream()
				.filter((sent) -> sent.getValue() < killedAt - TimeUnit.SECONDS.toNanos(1))
				.map(Map.Entry::getKey)
				.collect(Collectors.toSet());
			await().atMost(Duration.ofSeconds(60))
				.untilAsserted(() -> assertThat(recorder.received.keySet()).containsAll(settled));
			await().atMost(Duration.ofSeconds(60)).until(() -> pendingJobs(admin) == 0);
			report("killed master", sender, recorder);
			assertInvariants();
		});
	}

	private static long pendingJobs(DelayQueueAdmin admin) {
		return Arrays.stream(TOPICS).mapToLong((topic) -> admin.stats(topic).pending()).sum();
	}

	private void report(String fault, Sender sender, Recorder recorder) {
		List<String> lost = sender.sent.keySet().stream().filter((id) -> !recorder.received.containsKey(id)).toList();
		long duplicates = recorder.received.values().stream().filter((count) -> count.get() > 1).count();
		System.out.println("CLUSTER FAILOVER | " + fault + " | sent " + sender.sent.size() + " | lost " + lost.size()
				+ " | delivered twice " + duplicates + " | sends tried again " + sender.retries.get()
				+ " | longest send " + TimeUnit.NANOSECONDS.toMillis(sender.longestSendNanos) + " ms");
	}

	private void assertInvariants() {
		LettuceConnectionFactory factory = this.cluster.connectionFactory();
		try {
			StringRedisTemplate redis = new StringRedisTemplate(factory);
			for (String topic : TOPICS) {
				QueueInvariants invariants = new QueueInvariants(redis, topic);
				assertThat(invariants.check().violations()).as("invariants of " + topic).isEmpty();
			}
		}
		finally {
			factory.destroy();
		}
	}

	/**
	 * Sends jobs with ids of its own, trying each again until Redis acknowledges it: a
	 * refusal as a duplicate means an earlier try had landed.
	 */
	private static final class Sender {

		private final DelayQueueOperations queue;

		// Each acknowledged id, with when its send returned.
		final Map<String, Long> sent = new ConcurrentHashMap<>();

		final AtomicInteger retries = new AtomicInteger();

		// The longest one send took, its tries again included.
		volatile long longestSendNanos;

		Sender(DelayQueueOperations queue) {
			this.queue = queue;
		}

		private boolean trySend(JobRequest request) {
			try {
				this.queue.send(request);
				return true;
			}
			catch (DuplicateJobException ex) {
				return true;
			}
			catch (RuntimeException ex) {
				this.retries.incrementAndGet();
				return false;
			}
		}

		void send(int count) {
			for (int i = 0; i < count; i++) {
				String id = "job-" + i;
				JobRequest request = JobRequest.builder(TOPICS[i % TOPICS.length], "payload-" + i)
					.id(id)
					.delay(Duration.ofMillis(i % 50))
					.build();
				long started = System.nanoTime();
				if (!trySend(request)) {
					await().atMost(Duration.ofSeconds(30))
						.pollInterval(Duration.ofMillis(50))
						.until(() -> trySend(request));
				}
				long now = System.nanoTime();
				this.longestSendNanos = Math.max(this.longestSendNanos, now - started);
				this.sent.put(id, now);
			}
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class Recorder {

		final Map<String, AtomicInteger> received = new ConcurrentHashMap<>();

		@DelayedJobListener(
				topics = { "failover.a", "failover.b", "failover.c", "failover.d", "failover.e", "failover.f" })
		void on(DelayedJob<String> job) {
			this.received.computeIfAbsent(job.id(), (id) -> new AtomicInteger()).incrementAndGet();
		}

	}

}
