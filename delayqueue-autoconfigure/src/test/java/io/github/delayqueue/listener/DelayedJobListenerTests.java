package io.github.delayqueue.listener;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.DelayedJob;
import io.github.delayqueue.core.JobInfo;
import io.github.delayqueue.core.JobRequest;
import io.github.delayqueue.core.JobState;
import io.github.delayqueue.core.NonRetryableJobException;
import io.github.delayqueue.core.TopicStats;
import io.github.delayqueue.test.DelayQueueContextRunner;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code @DelayedJobListener} methods consuming jobs from a real Redis.
 */
@ExtendWith(RedisExtension.class)
class DelayedJobListenerTests {

	private ApplicationContextRunner runner;

	@BeforeEach
	void setUp(RedisTestServer server) {
		server.flushAll();
		this.runner = DelayQueueContextRunner.create(server);
	}

	@Test
	void passesThePayloadConvertedToTheDeclaredType() {
		this.runner.withUserConfiguration(OrderListener.class).run((context) -> {
			context.getBean(DelayQueueOperations.class).send("orders", new Order(7, "EUR"));
			Recorder recorder = context.getBean(Recorder.class);
			await().atMost(Duration.ofSeconds(5)).until(() -> recorder.payloads.size() == 1);
			assertThat(recorder.payloads).containsExactly(new Order(7, "EUR"));
		});
	}

	@Test
	void handsBackJobsClaimedAheadWhenASlowHandlerKeepsThemWaitingHalfTheirTimeToRun() {
		this.runner.withUserConfiguration(SuddenlySlowListener.class)
			.withPropertyValues("delayqueue.topics.ahead.ttr=2s")
			.run((context) -> {
				DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
				DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
				SuddenlySlowListener listener = context.getBean(SuddenlySlowListener.class);
				List<JobRequest> warmUp = new ArrayList<>();
				for (int i = 0; i < 100; i++) {
					warmUp.add(JobRequest.builder("ahead", "warm-up-" + i).build());
				}
				queue.sendAll(warmUp);
				await().atMost(Duration.ofSeconds(10)).until(() -> listener.done.get() == 100);
				// Quick handlers so far, so these are claimed together, and the ten
				// behind the slow one wait 1.3 s: past half their 2 s time to run, and
				// their runs one after another would end past all of it.
				List<JobRequest> jobs = new ArrayList<>();
				jobs.add(JobRequest.builder("ahead", "slow").build());
				for (int i = 0; i < 10; i++) {
					jobs.add(JobRequest.builder("ahead", "after-" + i).build());
				}
				queue.sendAll(jobs);
				await().atMost(Duration.ofSeconds(15)).until(() -> listener.done.get() >= 111);
				await().atMost(Duration.ofSeconds(10)).until(() -> admin.stats("ahead").pending() == 0);
				for (int i = 0; i < 10; i++) {
					assertThat(listener.attempts.get("after-" + i)).as("after-" + i).containsExactly(1);
				}
				assertThat(listener.attempts.get("slow")).containsExactly(1);
				assertThat(listener.done).hasValue(111);
				assertThat(admin.stats("ahead").dead()).isZero();
			});
	}

	@Test
	void passesTheDelayedJobWithItsDetails() {
		this.runner.withUserConfiguration(DetailsListener.class).run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
			String id = queue.send(JobRequest.builder("details", new Order(1, "USD")).header("tenant", "acme").build());
			Recorder recorder = context.getBean(Recorder.class);
			await().atMost(Duration.ofSeconds(5)).until(() -> recorder.jobs.size() == 1);
			DelayedJob<?> job = recorder.jobs.get(0);
			assertThat(job.id()).isEqualTo(id);
			assertThat(job.topic()).isEqualTo("details");
			assertThat(job.payload()).isEqualTo(new Order(1, "USD"));
			assertThat(job.attempt()).isEqualTo(1);
			assertThat(job.headers()).containsEntry("tenant", "acme");
			assertThat(job.dueAt()).isBefore(Instant.now().plusSeconds(5));
			await().atMost(Duration.ofSeconds(5)).until(() -> queue.find("details", id).isEmpty());
		});
	}

	@Test
	void convertsGenericPayloads() {
		this.runner.withUserConfiguration(ItemsListener.class).run((context) -> {
			context.getBean(DelayQueueOperations.class).send("items", List.of(new Item("a", 1), new Item("b", 2)));
			Recorder recorder = context.getBean(Recorder.class);
			await().atMost(Duration.ofSeconds(5)).until(() -> recorder.payloads.size() == 1);
			assertThat(recorder.payloads.get(0)).isEqualTo(List.of(new Item("a", 1), new Item("b", 2)));
			assertThat(((List<?>) recorder.payloads.get(0)).get(0)).isInstanceOf(Item.class);
		});
	}

	@Test
	void convertsPayloadsToTheTypeThatASubclassBindsToATypeVariable() {
		this.runner.withUserConfiguration(InheritedListener.class).run((context) -> {
			context.getBean(DelayQueueOperations.class).send("inherited", new Order(8, "CHF"));
			context.getBean(DelayQueueOperations.class).send("inherited.job", new Order(9, "USD"));
			Recorder recorder = context.getBean(Recorder.class);
			await().atMost(Duration.ofSeconds(5)).until(() -> recorder.payloads.size() == 2);
			assertThat(recorder.payloads).containsExactlyInAnyOrder(new Order(8, "CHF"), new Order(9, "USD"));
		});
	}

	@Test
	void retriesAfterTheConfiguredBackoffByTheRedisClock() {
		this.runner.withUserConfiguration(FailingListener.class)
			.withPropertyValues("delayqueue.topics.flaky.retry.max-attempts=3",
					"delayqueue.topics.flaky.retry.backoff.delay=300ms",
					"delayqueue.topics.flaky.retry.backoff.multiplier=2",
					"delayqueue.topics.flaky.retry.backoff.jitter=0")
			.run((context) -> {
				String id = context.getBean(DelayQueueOperations.class).send("flaky", "x");
				Recorder recorder = context.getBean(Recorder.class);
				await().atMost(Duration.ofSeconds(10)).until(() -> recorder.startedAt.size() == 3);
				List<Long> gaps = gaps(recorder.startedAt);
				assertThat(gaps.get(0)).isBetween(300L, 450L);
				assertThat(gaps.get(1)).isBetween(600L, 750L);
				JobInfo dead = awaitState(context.getBean(DelayQueueOperations.class), "flaky", id, JobState.DEAD);
				assertThat(dead.attempts()).isEqualTo(3);
				assertThat(dead.lastError()).startsWith("Failed 3 of 3 attempts")
					.contains("IllegalStateException: broken on attempt 3\n\tat ")
					.contains(FailingListener.class.getName());
			});
	}

	@Test
	void retriesOnAnExplicitSchedule() {
		this.runner.withUserConfiguration(FailingListener.class)
			.withPropertyValues("delayqueue.topics.flaky.retry.max-attempts=4",
					"delayqueue.topics.flaky.retry.backoff.schedule=200ms,500ms")
			.run((context) -> {
				context.getBean(DelayQueueOperations.class).send("flaky", "x");
				Recorder recorder = context.getBean(Recorder.class);
				await().atMost(Duration.ofSeconds(10)).until(() -> recorder.startedAt.size() == 4);
				List<Long> gaps = gaps(recorder.startedAt);
				assertThat(gaps.get(0)).isBetween(200L, 350L);
				assertThat(gaps.get(1)).isBetween(500L, 650L);
				assertThat(gaps.get(2)).isBetween(500L, 650L);
			});
	}

	@Test
	void makesAJobDeadAtOnceForNonRetryableFailures() {
		this.runner.withUserConfiguration(NonRetryableListener.class)
			.withPropertyValues("delayqueue.defaults.retry.non-retryable=java.lang.IllegalArgumentException")
			.run((context) -> {
				DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
				DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
				String declared = queue.send("refuse", "declared");
				String configured = queue.send("refuse", "configured");
				assertThat(awaitState(queue, "refuse", declared, JobState.DEAD).lastError())
					.startsWith("io.github.delayqueue.core.NonRetryableJobException: no such order\n\tat ");
				JobInfo dead = awaitState(queue, "refuse", configured, JobState.DEAD);
				assertThat(dead.attempts()).isEqualTo(1);
				assertThat(dead.lastError()).startsWith("java.lang.NumberFormatException");
			});
	}

	@Test
	void makesAJobDeadAtOnceWhenItsPayloadDoesNotConvert() {
		this.runner.withUserConfiguration(OrderListener.class).run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
			String id = queue.send("orders", List.of("not", "an", "order"));
			JobInfo dead = awaitState(queue, "orders", id, JobState.DEAD);
			assertThat(dead.attempts()).isEqualTo(1);
			assertThat(dead.lastError()).contains("Cannot convert payload to")
				.contains(Order.class.getName().replace('$', '.').substring(0, 20));
			assertThat(context.getBean(Recorder.class).payloads).isEmpty();
		});
	}

	@Test
	void runsRequeuedDeadJobsAgain() {
		this.runner.withUserConfiguration(FailingListener.class)
			.withPropertyValues("delayqueue.topics.flaky.retry.max-attempts=1")
			.run((context) -> {
				DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
				DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
				Recorder recorder = context.getBean(Recorder.class);
				String id = queue.send("flaky", "x");
				awaitState(queue, "flaky", id, JobState.DEAD);
				recorder.succeedFrom.set(1);
				assertThat(admin.requeueDead("flaky", id)).isTrue();
				await().atMost(Duration.ofSeconds(5)).until(() -> queue.find("flaky", id).isEmpty());
				assertThat(recorder.startedAt).hasSize(2);
			});
	}

	@Test
	void deliversAgainWhenTheTimeToRunElapsesAndIgnoresTheLateAcknowledgement() {
		this.runner.withUserConfiguration(SlowListener.class)
			.withPropertyValues("delayqueue.topics.slow.ttr=1s", "delayqueue.topics.slow.concurrency=2")
			.run((context) -> {
				DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
				DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
				SlowListener listener = context.getBean(SlowListener.class);
				String id = queue.send("slow", "x");
				await().atMost(Duration.ofSeconds(5)).until(() -> listener.attempts.size() == 2);
				assertThat(listener.attempts).containsExactly(1, 2);
				listener.release.get(1).countDown();
				await().atMost(Duration.ofSeconds(5)).until(() -> listener.finished.get() == 1);
				JobInfo stillRunning = queue.find("slow", id).orElseThrow();
				assertThat(stillRunning.state()).isEqualTo(JobState.RUNNING);
				assertThat(stillRunning.attempts()).isEqualTo(2);
				assertThat(stillRunning.lastError()).contains("Time to run elapsed on attempt 1");
				listener.release.get(2).countDown();
				await().atMost(Duration.ofSeconds(5)).until(() -> queue.find("slow", id).isEmpty());
			});
	}

	@Test
	void takesEarlierTopicsFirst() {
		this.runner.withUserConfiguration(PriorityListener.class).run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
			for (int i = 0; i < 5; i++) {
				queue.send("low", "low-" + i);
			}
			for (int i = 0; i < 5; i++) {
				queue.send("high", "high-" + i);
			}
			context.getBean(DelayedJobListenerEndpointRegistry.class).getListenerContainer("priority").start();
			Recorder recorder = context.getBean(Recorder.class);
			await().atMost(Duration.ofSeconds(5)).until(() -> recorder.payloads.size() == 10);
			assertThat(recorder.payloads.subList(0, 5))
				.allSatisfy((payload) -> assertThat(payload).asString().startsWith("high"));
			assertThat(recorder.payloads.subList(5, 10))
				.allSatisfy((payload) -> assertThat(payload).asString().startsWith("low"));
		});
	}

	@Test
	void wakesUpForALowerPriorityTopicWithoutPolling() {
		this.runner.withUserConfiguration(PriorityListener.class).run((context) -> {
			context.getBean(DelayedJobListenerEndpointRegistry.class).getListenerContainer("priority").start();
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
			Recorder recorder = context.getBean(Recorder.class);
			queue.send("low", "low-late");
			await().atMost(Duration.ofSeconds(2)).until(() -> recorder.payloads.contains("low-late"));
			queue.send("high", "high-late");
			await().atMost(Duration.ofSeconds(2)).until(() -> recorder.payloads.contains("high-late"));
		});
	}

	@Test
	void neverRunsMoreJobsAtOnceThanItsConcurrency() {
		this.runner.withUserConfiguration(BusyListener.class).run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
			List<JobRequest> requests = new ArrayList<>();
			for (int i = 0; i < 60; i++) {
				requests.add(JobRequest.builder("busy", i).build());
			}
			queue.sendAll(requests);
			BusyListener listener = context.getBean(BusyListener.class);
			await().atMost(Duration.ofSeconds(20)).until(() -> listener.done.get() == 60);
			assertThat(listener.mostAtOnce.get()).isEqualTo(3);
			assertThat(admin.stats("busy")).isEqualTo(new TopicStats("busy", 0, 0, 0, 0));
		});
	}

	@Test
	void losesNothingWhenStoppedInTheMiddleOfAStream(RedisTestServer server) {
		List<String> ids = new ArrayList<>();
		Map<String, Integer> runs = new ConcurrentHashMap<>();
		BusyListener.runs = runs;
		this.runner.withUserConfiguration(BusyListener.class).run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
			List<JobRequest> requests = new ArrayList<>();
			for (int i = 0; i < 200; i++) {
				requests.add(JobRequest.builder("busy", i).build());
			}
			ids.addAll(queue.sendAll(requests));
			await().atMost(Duration.ofSeconds(10)).until(() -> context.getBean(BusyListener.class).done.get() > 20);
			context.getBean(DelayedJobListenerEndpointRegistry.class).stop();
			TopicStats stopped = admin.stats("busy");
			assertThat(stopped.running()).isZero();
			assertThat(stopped.ready()).isPositive();
		});
		this.runner.withUserConfiguration(BusyListener.class).run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
			await().atMost(Duration.ofSeconds(20)).until(() -> admin.stats("busy").pending() == 0);
		});
		assertThat(runs.keySet()).hasSize(200);
		BusyListener.runs = null;
	}

	private static JobInfo awaitState(DelayQueueOperations queue, String topic, String id, JobState state) {
		return await().atMost(Duration.ofSeconds(10))
			.until(() -> queue.find(topic, id).orElse(null), (job) -> job != null && job.state() == state);
	}

	private static List<Long> gaps(List<Long> times) {
		List<Long> gaps = new ArrayList<>();
		for (int i = 1; i < times.size(); i++) {
			gaps.add(times.get(i) - times.get(i - 1));
		}
		return gaps;
	}

	record Order(int id, String currency) {
	}

	record Item(String name, int quantity) {
	}

	static class Recorder {

		final List<Object> payloads = new CopyOnWriteArrayList<>();

		final List<DelayedJob<?>> jobs = new CopyOnWriteArrayList<>();

		final List<Long> startedAt = new CopyOnWriteArrayList<>();

		final AtomicInteger succeedFrom = new AtomicInteger(Integer.MAX_VALUE);

	}

	@Configuration(proxyBeanMethods = false)
	static class RecorderConfiguration {

		@Bean
		Recorder recorder() {
			return new Recorder();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OrderListener extends RecorderConfiguration {

		@Bean
		Object orderHandler(Recorder recorder) {
			return new Object() {
				@DelayedJobListener("orders")
				void on(Order order) {
					recorder.payloads.add(order);
				}
			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class DetailsListener extends RecorderConfiguration {

		@Bean
		Object detailsHandler(Recorder recorder) {
			return new Object() {
				@DelayedJobListener("details")
				void on(DelayedJob<Order> job) {
					recorder.jobs.add(job);
				}
			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ItemsListener extends RecorderConfiguration {

		@Bean
		Object itemsHandler(Recorder recorder) {
			return new Object() {
				@DelayedJobListener("items")
				void on(List<Item> items) {
					recorder.payloads.add(items);
				}
			};
		}

	}

	abstract static class TypedHandler<T> {

		final Recorder recorder;

		TypedHandler(Recorder recorder) {
			this.recorder = recorder;
		}

		@DelayedJobListener("inherited")
		void on(T payload) {
			this.recorder.payloads.add(payload);
		}

		@DelayedJobListener("inherited.job")
		void onJob(DelayedJob<T> job) {
			this.recorder.payloads.add(job.payload());
		}

	}

	static class OrderHandler extends TypedHandler<Order> {

		OrderHandler(Recorder recorder) {
			super(recorder);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class InheritedListener extends RecorderConfiguration {

		@Bean
		OrderHandler inheritedHandler(Recorder recorder) {
			return new OrderHandler(recorder);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class FailingListener extends RecorderConfiguration {

		@Bean
		Object failingHandler(Recorder recorder, StringRedisTemplate redis) {
			return new Object() {
				@DelayedJobListener("flaky")
				void on(DelayedJob<String> job) {
					recorder.startedAt.add(redis.execute((RedisCallback<Long>) (c) -> c.serverCommands().time()));
					if (job.attempt() < recorder.succeedFrom.get()) {
						throw new IllegalStateException("broken on attempt " + job.attempt());
					}
				}
			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class NonRetryableListener {

		@Bean
		Object refusingHandler() {
			return new Object() {
				@DelayedJobListener("refuse")
				void on(String kind) {
					if (kind.equals("declared")) {
						throw new NonRetryableJobException("no such order");
					}
					Integer.parseInt(kind);
				}
			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class SuddenlySlowListener {

		final Map<String, List<Integer>> attempts = new ConcurrentHashMap<>();

		final AtomicInteger done = new AtomicInteger();

		@DelayedJobListener(topics = "ahead", concurrency = "1")
		void on(DelayedJob<String> job) {
			this.attempts.computeIfAbsent(job.payload(), (payload) -> new CopyOnWriteArrayList<>()).add(job.attempt());
			// Simulated work: a quick warm-up, then one long job and some moderate ones.
			long millis = job.payload().equals("slow") ? 1300 : job.payload().startsWith("after") ? 150 : 0;
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(millis));
			this.done.incrementAndGet();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class SlowListener {

		final List<Integer> attempts = new CopyOnWriteArrayList<>();

		final Map<Integer, CountDownLatch> release = Map.of(1, new CountDownLatch(1), 2, new CountDownLatch(1));

		final AtomicInteger finished = new AtomicInteger();

		@DelayedJobListener("slow")
		void on(DelayedJob<String> job) throws InterruptedException {
			this.attempts.add(job.attempt());
			this.release.get(job.attempt()).await(10, TimeUnit.SECONDS);
			this.finished.incrementAndGet();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class PriorityListener extends RecorderConfiguration {

		@Bean
		Object priorityHandler(Recorder recorder) {
			return new Object() {
				@DelayedJobListener(id = "priority", topics = { "high", "low" }, autoStartup = "false")
				void on(String payload) {
					recorder.payloads.add(payload);
				}
			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class BusyListener {

		static volatile Map<String, Integer> runs;

		final AtomicInteger running = new AtomicInteger();

		final AtomicInteger mostAtOnce = new AtomicInteger();

		final AtomicInteger done = new AtomicInteger();

		@DelayedJobListener(topics = "busy", concurrency = "3")
		void on(DelayedJob<Integer> job) {
			int now = this.running.incrementAndGet();
			this.mostAtOnce.accumulateAndGet(now, Math::max);
			// Simulated work, so that jobs overlap.
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
			this.running.decrementAndGet();
			Map<String, Integer> seen = runs;
			if (seen != null) {
				seen.merge(job.id(), 1, Integer::sum);
			}
			this.done.incrementAndGet();
		}

	}

}
