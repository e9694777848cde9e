package io.github.delayqueue.listener;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DeadJob;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.DelayedJob;
import io.github.delayqueue.core.DelayedJobErrorHandler;
import io.github.delayqueue.core.FailureAction;
import io.github.delayqueue.core.JobFailure;
import io.github.delayqueue.core.JobInfo;
import io.github.delayqueue.core.JobRequest;
import io.github.delayqueue.core.JobState;
import io.github.delayqueue.test.DelayQueueContextRunner;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.BeanInitializationException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Primary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * A {@link DelayedJobErrorHandler} deciding what becomes of failed jobs, against a real
 * Redis. The handler decides by the payload; the listener fails every first attempt.
 */
@ExtendWith(RedisExtension.class)
class ErrorHandlerTests {

	private ApplicationContextRunner runner;

	@BeforeEach
	void setUp(RedisTestServer server) {
		server.flushAll();
		this.runner = DelayQueueContextRunner.create(server)
			.withPropertyValues("delayqueue.defaults.retry.backoff.delay=1h",
					"delayqueue.defaults.retry.backoff.jitter=0")
			.withUserConfiguration(ErrorHandlers.class, FailingListeners.class);
	}

	@Test
	void retriesAfterTheDelayTheErrorHandlerChooses() {
		this.runner.run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			ListenerProbe probe = context.getBean(ListenerProbe.class);
			String id = queue.send("decided", "retry-after");
			// The topic's backoff is an hour: only the handler's 200 ms bring it back.
			ListenerProbe.awaitGone(queue, "decided", id);
			assertThat(probe.attempts()).containsExactly(1, 2);
		});
	}

	@Test
	void retriesAtTheTimeTheErrorHandlerChooses() {
		this.runner.run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			DecidingErrorHandler handler = context.getBean(DecidingErrorHandler.class);
			String id = queue.send("decided", "retry-at");
			JobInfo delayed = ListenerProbe.awaitState(queue, "decided", id, JobState.DELAYED);
			assertThat(delayed.attempts()).isOne();
			assertThat(delayed.dueAt().toEpochMilli()).isCloseTo(handler.retryAt.toEpochMilli(), within(1_000L));
		});
	}

	@Test
	void makesTheJobDeadWhenTheErrorHandlerSaysSoWhateverAttemptsAreLeft() {
		this.runner.run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			DeadJobRecorder deadJobs = context.getBean(DeadJobRecorder.class);
			String id = queue.send("decided", "dead");
			JobInfo dead = ListenerProbe.awaitState(queue, "decided", id, JobState.DEAD);
			assertThat(dead.attempts()).isOne();
			assertThat(dead.lastError()).startsWith("java.lang.IllegalStateException: failed: dead\n\tat ");
			DeadJob heard = deadJobs.awaitDeath(id);
			assertThat(heard.cause()).isEqualTo(DeadJob.Cause.ERROR_HANDLER);
			assertThat(heard.exception()).hasMessage("failed: dead");
		});
	}

	@Test
	void acknowledgesTheJobWhenTheErrorHandlerSaysSo() {
		this.runner.run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			ListenerProbe probe = context.getBean(ListenerProbe.class);
			String id = queue.send("decided", "acknowledge");
			ListenerProbe.awaitGone(queue, "decided", id);
			assertThat(probe.attempts()).containsExactly(1);
		});
	}

	@Test
	void decidesAsConfiguredWhenTheErrorHandlerSaysSoFailsOrReturnsNothing() {
		this.runner.run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			long hourFromNow = Instant.now().plus(Duration.ofHours(1)).toEpochMilli();
			for (String payload : List.of("as-configured", "throw", "null")) {
				String id = queue.send("decided", payload);
				JobInfo delayed = ListenerProbe.awaitState(queue, "decided", id, JobState.DELAYED);
				assertThat(delayed.attempts()).as(payload).isOne();
				assertThat(delayed.dueAt().toEpochMilli()).as(payload).isCloseTo(hourFromNow, within(10_000L));
			}
		});
	}

	@Test
	void seesTheJobTheAttemptAndTheException() {
		this.runner.withPropertyValues("delayqueue.topics.decided.retry.max-attempts=7").run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			DecidingErrorHandler handler = context.getBean(DecidingErrorHandler.class);
			String id = queue.send(JobRequest.builder("decided", "acknowledge").header("tenant", "acme").build());
			ListenerProbe.awaitGone(queue, "decided", id);
			JobFailure failure = handler.seen.get(id);
			assertThat(failure.id()).isEqualTo(id);
			assertThat(failure.topic()).isEqualTo("decided");
			assertThat(failure.attempt()).isOne();
			assertThat(failure.maxAttempts()).isEqualTo(7);
			assertThat(failure.isLastAttempt()).isFalse();
			assertThat(failure.headers()).containsEntry("tenant", "acme");
			assertThat(failure.payloadJson()).isEqualTo("\"acknowledge\"");
			assertThat(failure.exception()).isInstanceOf(IllegalStateException.class).hasMessage("failed: acknowledge");
		});
	}

	@Test
	void decidesTheFailureOfAnAsynchronousHandlerByWhatItsFutureFailedWith() {
		this.runner.run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			DecidingErrorHandler handler = context.getBean(DecidingErrorHandler.class);
			String id = queue.send("decided.async", "dead");
			ListenerProbe.awaitState(queue, "decided.async", id, JobState.DEAD);
			assertThat(handler.seen.get(id).exception()).isInstanceOf(IllegalStateException.class)
				.hasMessage("failed: dead");
		});
	}

	@Test
	void aListenerNamesItsOwnErrorHandlerWhichWinsOverTheApplicationsOne() {
		this.runner.withUserConfiguration(OwnErrorHandlerListener.class)
			.withPropertyValues("app.error-handler=acknowledgingErrorHandler")
			.run((context) -> {
				DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
				DecidingErrorHandler global = context.getBean(DecidingErrorHandler.class);
				String id = queue.send("own", "dead");
				ListenerProbe.awaitGone(queue, "own", id);
				assertThat(global.seen).doesNotContainKey(id);
			});
	}

	@Test
	void anUnknownErrorHandlerFailsStartUpNamingTheMethod() {
		this.runner.withUserConfiguration(OwnErrorHandlerListener.class)
			.withPropertyValues("app.error-handler=noSuchHandler")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.isInstanceOf(BeanInitializationException.class)
					.hasMessageContaining("@DelayedJobListener method")
					.hasMessageContaining("OwnErrorHandlerListener")
					.hasMessageContaining("names error handler 'noSuchHandler'");
			});
	}

	@Configuration(proxyBeanMethods = false)
	@Import(DeadJobRecorder.class)
	static class ErrorHandlers {

		@Bean
		@Primary
		DecidingErrorHandler decidingErrorHandler() {
			return new DecidingErrorHandler();
		}

		@Bean
		DelayedJobErrorHandler acknowledgingErrorHandler() {
			return (failure) -> FailureAction.acknowledge();
		}

	}

	static class DecidingErrorHandler implements DelayedJobErrorHandler {

		final Map<String, JobFailure> seen = new ConcurrentHashMap<>();

		volatile Instant retryAt = Instant.EPOCH;

		@Override
		public FailureAction handle(JobFailure failure) {
			this.seen.put(failure.id(), failure);
			String payload = failure.payloadJson().replace("\"", "");
			return switch (payload) {
				case "retry-after" -> FailureAction.retryAfter(Duration.ofMillis(200));
				case "retry-at" -> {
					this.retryAt = Instant.now().plus(Duration.ofMinutes(5));
					yield FailureAction.retryAt(this.retryAt);
				}
				case "dead" -> FailureAction.dead();
				case "acknowledge" -> FailureAction.acknowledge();
				case "throw" -> throw new IllegalArgumentException("error handler broken");
				case "null" -> null;
				default -> FailureAction.asConfigured();
			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class FailingListeners {

		@Bean
		ListenerProbe probe() {
			return new ListenerProbe();
		}

		@Bean
		Object failingListeners(ListenerProbe probe) {
			return new Object() {
				@DelayedJobListener("decided")
				void on(DelayedJob<String> job) {
					probe.delivered(job);
					if (job.attempt() == 1) {
						throw new IllegalStateException("failed: " + job.payload());
					}
				}

				@DelayedJobListener("decided.async")
				CompletableFuture<Void> onAsync(DelayedJob<String> job) {
					return CompletableFuture.supplyAsync(() -> {
						throw new IllegalStateException("failed: " + job.payload());
					});
				}
			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnErrorHandlerListener {

		@DelayedJobListener(topics = "own", errorHandler = "${app.error-handler}")
		void on(String payload) {
			throw new IllegalStateException("failed: " + payload);
		}

	}

}
