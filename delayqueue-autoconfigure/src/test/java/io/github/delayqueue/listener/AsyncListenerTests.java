package io.github.delayqueue.listener;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

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
import reactor.core.publisher.Mono;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Listener methods that complete asynchronously, returning a {@link CompletableFuture}, a
 * {@link CompletionStage} or a Reactor {@link Mono}, against a real Redis.
 */
@ExtendWith(RedisExtension.class)
class AsyncListenerTests {

	private ApplicationContextRunner runner;

	@BeforeEach
	void setUp(RedisTestServer server) {
		server.flushAll();
		this.runner = DelayQueueContextRunner.create(server)
			.withPropertyValues("delayqueue.defaults.retry.backoff.delay=1h", "delayqueue.defaults.ttr=30s");
	}

	@Test
	void acknowledgesTheJobWhenItsFutureCompletesAndNotBefore() {
		this.runner.withUserConfiguration(FutureHandler.class).run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			ListenerProbe probe = context.getBean(ListenerProbe.class);
			String id = queue.send("async", "x");
			probe.awaitAttempts(1);
			assertThat(queue.find("async", id).orElseThrow().state()).isEqualTo(JobState.RUNNING);
			assertThat(container(context, "async").getActiveJobs()).isOne();
			probe.futures.get(0).complete("done");
			ListenerProbe.awaitGone(queue, "async", id);
			await().atMost(Duration.ofSeconds(5)).until(() -> container(context, "async").getActiveJobs() == 0);
		});
	}

	@Test
	void retriesTheJobWhenItsFutureFails() {
		this.runner.withUserConfiguration(FutureHandler.class).run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			ListenerProbe probe = context.getBean(ListenerProbe.class);
			String id = queue.send("async", "x");
			probe.awaitAttempts(1);
			probe.futures.get(0).completeExceptionally(new IllegalStateException("partner down"));
			JobInfo retried = ListenerProbe.awaitState(queue, "async", id, JobState.DELAYED);
			assertThat(retried.attempts()).isOne();
			assertThat(retried.lastError()).startsWith("java.lang.IllegalStateException: partner down");
		});
	}

	@Test
	void holdsAConcurrencyPermitUntilTheFutureCompletes() {
		this.runner.withUserConfiguration(FutureHandler.class)
			.withPropertyValues("delayqueue.topics.async.concurrency=1")
			.run((context) -> {
				DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
				ListenerProbe probe = context.getBean(ListenerProbe.class);
				String first = queue.send("async", "first");
				String second = queue.send("async", "second");
				probe.awaitAttempts(1);
				// The handler returned long ago; its job still holds the one permit.
				await().during(Duration.ofMillis(700))
					.atMost(Duration.ofSeconds(3))
					.until(() -> probe.deliveries.size() == 1);
				probe.futures.get(0).complete("done");
				probe.awaitAttempts(2);
				probe.futures.get(1).complete("done");
				ListenerProbe.awaitGone(queue, "async", first);
				ListenerProbe.awaitGone(queue, "async", second);
			});
	}

	@Test
	void cancelsAFutureStillIncompleteWhenItsTimeToRunElapsesAndDeliversTheJobAgain() {
		this.runner.withUserConfiguration(FutureHandler.class)
			.withPropertyValues("delayqueue.topics.async.concurrency=1", "delayqueue.topics.async.ttr=500ms")
			.run((context) -> {
				DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
				ListenerProbe probe = context.getBean(ListenerProbe.class);
				String id = queue.send("async", "x");
				// With one permit, the second delivery proves the first one's was freed.
				probe.awaitAttempts(2);
				assertThat(probe.attempts()).containsExactly(1, 2);
				assertThat(probe.futures.get(0)).isCancelled();
				probe.futures.get(1).complete("done");
				ListenerProbe.awaitGone(queue, "async", id);
			});
	}

	@Test
	void anAsynchronousHandlerMayExtendItsTimeToRunFromAnotherThread() {
		this.runner.withUserConfiguration(FutureHandler.class)
			.withPropertyValues("delayqueue.topics.async.ttr=1s")
			.run((context) -> {
				DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
				StringRedisTemplate redis = context.getBean(StringRedisTemplate.class);
				ListenerProbe probe = context.getBean(ListenerProbe.class);
				String id = queue.send("async", "x");
				probe.awaitAttempts(1);
				assertThat(probe.deliveries.get(0).extendTtr(Duration.ofSeconds(30))).isTrue();
				long extendedAt = ListenerProbe.redisNow(redis);
				await().atMost(Duration.ofSeconds(10)).until(() -> ListenerProbe.redisNow(redis) > extendedAt + 2_000);
				assertThat(probe.futures.get(0)).isNotDone();
				assertThat(probe.attempts()).containsExactly(1);
				assertThat(queue.find("async", id).orElseThrow().state()).isEqualTo(JobState.RUNNING);
				probe.futures.get(0).complete("done");
				ListenerProbe.awaitGone(queue, "async", id);
			});
	}

	@Test
	void acknowledgesTheJobWhenAMonoCompletesAndRetriesItWhenItFails() {
		this.runner.withUserConfiguration(MonoHandler.class).run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			ListenerProbe probe = context.getBean(ListenerProbe.class);
			String completes = queue.send("mono", "completes");
			String fails = queue.send("mono", "fails");
			probe.awaitAttempts(2);
			assertThat(queue.find("mono", completes).orElseThrow().state()).isEqualTo(JobState.RUNNING);
			for (int i = 0; i < 2; i++) {
				if (probe.deliveries.get(i).payload().equals("completes")) {
					probe.futures.get(i).complete("done");
				}
				else {
					probe.futures.get(i).completeExceptionally(new IllegalStateException("mono failed"));
				}
			}
			ListenerProbe.awaitGone(queue, "mono", completes);
			assertThat(ListenerProbe.awaitState(queue, "mono", fails, JobState.DELAYED).lastError())
				.startsWith("java.lang.IllegalStateException: mono failed");
		});
	}

	@Test
	void awaitsAPlainCompletionStage() {
		this.runner.withUserConfiguration(StageHandler.class).run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			ListenerProbe probe = context.getBean(ListenerProbe.class);
			String id = queue.send("stage", "x");
			probe.awaitAttempts(1);
			assertThat(queue.find("stage", id).orElseThrow().state()).isEqualTo(JobState.RUNNING);
			probe.futures.get(0).complete("done");
			ListenerProbe.awaitGone(queue, "stage", id);
		});
	}

	@Test
	void aStopWaitsForPendingFuturesThenCancelsThemAndHandsTheirJobsBackUncounted() {
		this.runner.withUserConfiguration(FutureHandler.class)
			.withPropertyValues("delayqueue.listener.shutdown-timeout=300ms",
					"delayqueue.topics.async.retry.max-attempts=1")
			.run((context) -> {
				DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
				ListenerProbe probe = context.getBean(ListenerProbe.class);
				String id = queue.send("async", "x");
				probe.awaitAttempts(1);
				context.getBean(DelayedJobListenerEndpointRegistry.class).stop();
				assertThat(probe.futures.get(0)).isCancelled();
				JobInfo job = ListenerProbe.awaitState(queue, "async", id, JobState.READY);
				assertThat(job.attempts()).isZero();
				assertThat(job.lastError()).isNull();
			});
	}

	@Test
	void aStopWaitsForAFutureThatCompletesWithinTheShutdownTimeout() {
		this.runner.withUserConfiguration(FutureHandler.class)
			.withPropertyValues("delayqueue.listener.shutdown-timeout=20s")
			.run((context) -> {
				DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
				ListenerProbe probe = context.getBean(ListenerProbe.class);
				String id = queue.send("async", "x");
				probe.awaitAttempts(1);
				DelayedJobListenerEndpointRegistry registry = context.getBean(DelayedJobListenerEndpointRegistry.class);
				CountDownLatch stopped = new CountDownLatch(1);
				registry.stop(stopped::countDown);
				assertThat(stopped.getCount()).as("stopped while a future was pending").isOne();
				probe.futures.get(0).complete("done");
				assertThat(stopped.await(15, TimeUnit.SECONDS)).isTrue();
				ListenerProbe.awaitGone(queue, "async", id);
			});
	}

	private static DelayedJobListenerContainer container(ApplicationContext context, String topic) {
		return context.getBean(DelayedJobListenerEndpointRegistry.class)
			.getListenerContainers()
			.stream()
			.filter((container) -> container.getTopics().contains(topic))
			.findFirst()
			.orElseThrow();
	}

	@Configuration(proxyBeanMethods = false)
	static class FutureHandler {

		@Bean
		ListenerProbe probe() {
			return new ListenerProbe();
		}

		@Bean
		Object futureHandler(ListenerProbe probe) {
			return new Object() {
				@DelayedJobListener("async")
				CompletableFuture<String> on(DelayedJob<String> job) {
					return probe.futureFor(job);
				}
			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class MonoHandler {

		@Bean
		ListenerProbe probe() {
			return new ListenerProbe();
		}

		@Bean
		Object monoHandler(ListenerProbe probe) {
			return new Object() {
				@DelayedJobListener(topics = "mono", concurrency = "2")
				Mono<Void> on(DelayedJob<String> job) {
					return Mono.fromFuture(probe.futureFor(job)).then();
				}
			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class StageHandler {

		@Bean
		ListenerProbe probe() {
			return new ListenerProbe();
		}

		@Bean
		Object stageHandler(ListenerProbe probe) {
			return new Object() {
				@DelayedJobListener("stage")
				CompletionStage<String> on(DelayedJob<String> job) {
					// A stage that offers no future of its own.
					return probe.futureFor(job).minimalCompletionStage();
				}
			};
		}

	}

}
