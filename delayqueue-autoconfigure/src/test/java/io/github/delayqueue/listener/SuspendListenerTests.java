package io.github.delayqueue.listener;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.JobInfo;
import io.github.delayqueue.core.JobState;
import io.github.delayqueue.test.DelayQueueContextRunner;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Listeners written as Kotlin {@code suspend} functions ({@link SuspendingListener},
 * compiled by kotlinc as an application's are), against a real Redis: acknowledged when
 * the function returns, retried when it throws, its continuation never taken for a
 * payload.
 */
@ExtendWith(RedisExtension.class)
class SuspendListenerTests {

	private ApplicationContextRunner runner;

	@BeforeEach
	void setUp(RedisTestServer server) {
		server.flushAll();
		this.runner = DelayQueueContextRunner.create(server)
			.withPropertyValues("delayqueue.defaults.retry.backoff.delay=1h")
			.withUserConfiguration(KotlinListeners.class);
	}

	@Test
	void acknowledgesTheJobWhenTheSuspendFunctionReturnsAndNotBefore() {
		this.runner.run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			ListenerProbe probe = context.getBean(ListenerProbe.class);
			String id = queue.send("suspending", "x");
			probe.awaitAttempts(1);
			await().atMost(Duration.ofSeconds(5)).until(() -> probe.futures.size() == 1);
			assertThat(queue.find("suspending", id).orElseThrow().state()).isEqualTo(JobState.RUNNING);
			probe.futures.get(0).complete("done");
			ListenerProbe.awaitGone(queue, "suspending", id);
		});
	}

	@Test
	void retriesTheJobWhenTheSuspendFunctionThrows() {
		this.runner.run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			ListenerProbe probe = context.getBean(ListenerProbe.class);
			String id = queue.send("suspending", "x");
			await().atMost(Duration.ofSeconds(10)).until(() -> probe.futures.size() == 1);
			probe.futures.get(0).completeExceptionally(new IllegalStateException("coroutine failed"));
			JobInfo retried = ListenerProbe.awaitState(queue, "suspending", id, JobState.DELAYED);
			assertThat(retried.attempts()).isOne();
			assertThat(retried.lastError()).startsWith("java.lang.IllegalStateException: coroutine failed");
		});
	}

	@Test
	void passesThePayloadToASuspendFunctionWhoseContinuationIsNoPayloadParameter() {
		this.runner.run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			KotlinListeners listeners = context.getBean(KotlinListeners.class);
			String id = queue.send("suspending.payload", "hello");
			ListenerProbe.awaitGone(queue, "suspending.payload", id);
			assertThat(listeners.payloads).containsExactly("hello");
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class KotlinListeners {

		final List<String> payloads = new CopyOnWriteArrayList<>();

		@Bean
		ListenerProbe probe() {
			return new ListenerProbe();
		}

		@Bean
		SuspendingListener suspendingListener(ListenerProbe probe) {
			return new SuspendingListener(probe::futureFor, this.payloads::add);
		}

	}

}
