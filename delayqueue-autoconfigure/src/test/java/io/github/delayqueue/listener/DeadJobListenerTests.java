package io.github.delayqueue.listener;

import java.util.List;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DeadJob;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.DelayedJob;
import io.github.delayqueue.core.JobRequest;
import io.github.delayqueue.core.JobState;
import io.github.delayqueue.core.NonRetryableJobException;
import io.github.delayqueue.test.DelayQueueContextRunner;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code DeadJobListener}s hear of every job that becomes dead on this instance, by each
 * path a job dies, against a real Redis. (An error handler's decision is in
 * {@link ErrorHandlerTests}.)
 */
@ExtendWith(RedisExtension.class)
class DeadJobListenerTests {

	private ApplicationContextRunner runner;

	@BeforeEach
	void setUp(RedisTestServer server) {
		server.flushAll();
		this.runner = DelayQueueContextRunner.create(server)
			.withUserConfiguration(DyingListeners.class)
			.withPropertyValues("delayqueue.defaults.retry.max-attempts=1");
	}

	@Test
	void hearsOfAJobWhoseHandlerFailedOnItsLastAttempt() {
		this.runner.run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			String id = queue.send(JobRequest.builder("dying", "fail").header("tenant", "acme").build());
			DeadJob dead = context.getBean(DeadJobRecorder.class).awaitDeath(id);
			assertThat(dead.topic()).isEqualTo("dying");
			assertThat(dead.cause()).isEqualTo(DeadJob.Cause.ATTEMPTS_EXHAUSTED);
			assertThat(dead.attempts()).isOne();
			assertThat(dead.exception()).isInstanceOf(IllegalStateException.class).hasMessage("broken");
			assertThat(dead.lastError()).startsWith("Failed 1 of 1 attempts; last: java.lang.IllegalStateException");
			assertThat(dead.lastError()).isEqualTo(queue.find("dying", id).orElseThrow().lastError());
			assertThat(dead.headers()).containsEntry("tenant", "acme");
			assertThat(dead.payloadJson()).isEqualTo("\"fail\"");
		});
	}

	@Test
	void hearsOfANonRetryableFailure() {
		this.runner.withPropertyValues("delayqueue.defaults.retry.max-attempts=5").run((context) -> {
			String id = context.getBean(DelayQueueOperations.class).send("dying", "fatal");
			DeadJob dead = context.getBean(DeadJobRecorder.class).awaitDeath(id);
			assertThat(dead.cause()).isEqualTo(DeadJob.Cause.NON_RETRYABLE);
			assertThat(dead.exception()).isInstanceOf(NonRetryableJobException.class);
		});
	}

	@Test
	void hearsOfAPayloadThatCannotBeConverted() {
		this.runner.withPropertyValues("delayqueue.defaults.retry.max-attempts=5").run((context) -> {
			String id = context.getBean(DelayQueueOperations.class).send("dying.typed", List.of("not", "a", "number"));
			DeadJob dead = context.getBean(DeadJobRecorder.class).awaitDeath(id);
			assertThat(dead.cause()).isEqualTo(DeadJob.Cause.NON_RETRYABLE);
			assertThat(dead.exception()).isInstanceOf(PayloadConversionException.class);
			assertThat(dead.payloadJson()).isEqualTo("[\"not\",\"a\",\"number\"]");
		});
	}

	@Test
	void hearsOfAJobWhoseDataCannotBeRead() {
		this.runner.run((context) -> {
			StringRedisTemplate redis = context.getBean(StringRedisTemplate.class);
			redis.opsForHash().put("{dq:dying}:jobs", "garbled", "not a job record");
			redis.opsForList().leftPush("{dq:dying}:ready", "garbled");
			context.getBean(DelayQueueOperations.class).send("dying", "wake the listener");
			DeadJob dead = context.getBean(DeadJobRecorder.class).awaitDeath("garbled");
			assertThat(dead.cause()).isEqualTo(DeadJob.Cause.UNREADABLE);
			assertThat(dead.exception()).isInstanceOf(IllegalArgumentException.class);
			assertThat(dead.lastError()).contains("Malformed job record");
			assertThat(dead.payloadJson()).isNull();
			assertThat(dead.headers()).isEmpty();
		});
	}

	@Test
	void hearsOfAJobWhoseLastTimeToRunElapsedAsThisInstancesSchedulerMakesItDead() {
		this.runner.withPropertyValues("delayqueue.topics.dying.ttr=300ms").run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			ListenerProbe probe = context.getBean(ListenerProbe.class);
			String id = queue.send(JobRequest.builder("dying", "hang").header("tenant", "acme").build());
			DeadJob dead = context.getBean(DeadJobRecorder.class).awaitDeath(id);
			assertThat(dead.cause()).isEqualTo(DeadJob.Cause.TIME_TO_RUN_ELAPSED);
			assertThat(dead.exception()).isNull();
			assertThat(dead.attempts()).isOne();
			assertThat(dead.lastError()).isEqualTo("Time to run elapsed on attempt 1 of 1");
			assertThat(dead.headers()).containsEntry("tenant", "acme");
			assertThat(dead.payloadJson()).isEqualTo("\"hang\"");
			probe.open();
			// The late handler's acknowledgement changes nothing, and nobody hears twice.
			ListenerProbe.awaitState(queue, "dying", id, JobState.DEAD);
			assertThat(context.getBean(DeadJobRecorder.class).heard).hasSize(1);
		});
	}

	@Configuration(proxyBeanMethods = false)
	@Import(DeadJobRecorder.class)
	static class DyingListeners {

		@Bean
		ListenerProbe probe() {
			return new ListenerProbe();
		}

		@Bean
		Object dyingListeners(ListenerProbe probe) {
			return new Object() {
				@DelayedJobListener("dying")
				void on(DelayedJob<String> job) throws InterruptedException {
					probe.delivered(job);
					switch (job.payload()) {
						case "fail" -> throw new IllegalStateException("broken");
						case "fatal" -> throw new NonRetryableJobException("cannot ever succeed");
						case "hang" -> probe.waitAtGate();
						default -> {
						}
					}
				}

				@DelayedJobListener("dying.typed")
				void onNumber(Integer number) {
				}
			};
		}

	}

}
