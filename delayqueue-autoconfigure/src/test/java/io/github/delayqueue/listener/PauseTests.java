package io.github.delayqueue.listener;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.DelayedJob;
import io.github.delayqueue.core.InvalidJobException;
import io.github.delayqueue.core.JobRequest;
import io.github.delayqueue.core.JobState;
import io.github.delayqueue.test.DelayQueueContextRunner;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A paused topic: two instances claim none of its jobs while they keep falling due, the
 * other topic of the same listener goes on, and a resume delivers every job once.
 */
@ExtendWith(RedisExtension.class)
class PauseTests {

	private ApplicationContextRunner runner;

	@BeforeEach
	void setUp(RedisTestServer server) {
		server.flushAll();
		this.runner = DelayQueueContextRunner.create(server)
			.withUserConfiguration(CountingListener.class)
			.withPropertyValues("delayqueue.scheduler.max-sleep=200ms");
	}

	@Test
	void pausedTopicIsNotConsumedOnAnyInstanceUntilResumed() {
		this.runner.run((first) -> this.runner.run((second) -> {
			DelayQueueOperations queue = first.getBean(DelayQueueOperations.class);
			DelayQueueAdmin admin = first.getBean(DelayQueueAdmin.class);
			CountingListener one = first.getBean(CountingListener.class);
			CountingListener two = second.getBean(CountingListener.class);
			admin.pause("held");
			assertThat(admin.isPaused("held")).isTrue();
			assertThat(second.getBean(DelayQueueAdmin.class).isPaused("held")).isTrue();
			for (int i = 0; i < 20; i++) {
				queue.send("held", "now-" + i);
				queue.send("held", "soon-" + i, Duration.ofMillis(300));
				queue.send("open", "open-" + i);
			}
			// Jobs keep falling due and the other topic is consumed meanwhile.
			await().atMost(Duration.ofSeconds(20)).until(() -> admin.stats("held").ready() == 40);
			await().atMost(Duration.ofSeconds(20)).until(() -> total(one, two, "open") == 20);
			await().during(Duration.ofSeconds(2))
				.atMost(Duration.ofSeconds(5))
				.until(() -> total(one, two, "held") == 0 && admin.stats("held").ready() == 40
						&& admin.stats("held").running() == 0);
			assertThat(queue.find("held", queue.send("held", "late")).orElseThrow().attempts()).isZero();
			admin.resume("held");
			assertThat(admin.isPaused("held")).isFalse();
			await().atMost(Duration.ofSeconds(20)).until(() -> total(one, two, "held") == 41);
			assertThat(one.deliveries.entrySet())
				.allSatisfy((delivery) -> assertThat(delivery.getValue().get()).isEqualTo(1));
			assertThat(two.deliveries.entrySet())
				.allSatisfy((delivery) -> assertThat(delivery.getValue().get()).isEqualTo(1));
			assertThat(admin.stats("held").ready()).isZero();
		}));
	}

	@Test
	void jobsClaimedAheadOfTheFreeWorkersDoNotStartOncePauseHasReturned() {
		this.runner.withUserConfiguration(QuickListener.class).run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
			QuickListener listener = context.getBean(QuickListener.class);
			// Quick handlers: the listener learns to claim jobs ahead of its worker.
			sendNow(queue, "warm-up", 100);
			await().atMost(Duration.ofSeconds(20)).until(() -> listener.started.get() == 100);
			listener.holdNext.set(true);
			sendNow(queue, "held", 20);
			assertThat(listener.holding.await(10, TimeUnit.SECONDS)).isTrue();
			// The held job runs; others wait for the worker, claimed.
			await().atMost(Duration.ofSeconds(5)).until(() -> admin.stats("quick").running() > 1);
			admin.pause("quick");
			int startedBeforePause = listener.started.get();
			listener.release.countDown();
			await().atMost(Duration.ofSeconds(10))
				.until(() -> admin.stats("quick").running() == 0 && admin.stats("quick").ready() == 19);
			assertThat(listener.started.get()).isEqualTo(startedBeforePause);
			assertThat(admin.jobs("quick", JobState.READY, 0, 100))
				.allSatisfy((job) -> assertThat(job.attempts()).isZero());
		});
	}

	private static void sendNow(DelayQueueOperations queue, String payload, int jobs) {
		List<JobRequest> batch = new ArrayList<>();
		for (int i = 0; i < jobs; i++) {
			batch.add(JobRequest.builder("quick", payload + "-" + i).build());
		}
		queue.sendAll(batch);
	}

	@Test
	void refusesAnInvalidTopicName() {
		this.runner.run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
			assertThatExceptionOfType(InvalidJobException.class).isThrownBy(() -> admin.pause("no spaces"))
				.withMessageContaining("no spaces");
			assertThat(admin.topics()).doesNotContain("no spaces");
		});
	}

	private static long total(CountingListener one, CountingListener two, String topic) {
		return List.of(one, two)
			.stream()
			.flatMap((listener) -> listener.deliveries.keySet().stream())
			.filter((key) -> key.startsWith(topic + ":"))
			.count();
	}

	@Configuration(proxyBeanMethods = false)
	static class QuickListener {

		final AtomicInteger started = new AtomicInteger();

		final AtomicBoolean holdNext = new AtomicBoolean();

		final CountDownLatch holding = new CountDownLatch(1);

		final CountDownLatch release = new CountDownLatch(1);

		@DelayedJobListener(id = "quick", topics = "quick")
		void on(String payload) throws InterruptedException {
			this.started.incrementAndGet();
			if (this.holdNext.compareAndSet(true, false)) {
				this.holding.countDown();
				this.release.await(30, TimeUnit.SECONDS);
			}
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class CountingListener {

		final Map<String, AtomicInteger> deliveries = new ConcurrentHashMap<>();

		@DelayedJobListener(id = "pausable", topics = { "held", "open" }, concurrency = "4")
		void on(DelayedJob<String> job) {
			this.deliveries.computeIfAbsent(job.topic() + ":" + job.payload(), (key) -> new AtomicInteger())
				.incrementAndGet();
		}

	}

}
