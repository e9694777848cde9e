package io.github.delayqueue.listener;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
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

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Lazy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Stopping listeners: what becomes of handlers still running when the graceful stop gives
 * up, and how the registry follows Spring's lifecycle.
 */
@ExtendWith({ RedisExtension.class, OutputCaptureExtension.class })
class ListenerShutdownTests {

	private ApplicationContextRunner runner;

	@BeforeEach
	void setUp(RedisTestServer server) {
		server.flushAll();
		this.runner = DelayQueueContextRunner.create(server);
	}

	@Test
	void handsAJobInterruptedByTheShutdownBackUncountedInsteadOfSpendingItsLastAttempt() {
		this.runner.withUserConfiguration(SleepingListener.class)
			.withPropertyValues("delayqueue.listener.shutdown-timeout=200ms",
					"delayqueue.topics.sleepy.retry.max-attempts=1")
			.run((context) -> {
				DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
				SleepingListener listener = context.getBean(SleepingListener.class);
				String id = queue.send("sleepy", "x");
				assertThat(listener.started.await(10, TimeUnit.SECONDS)).isTrue();
				context.getBean(DelayedJobListenerEndpointRegistry.class).stop();
				JobInfo job = await().atMost(Duration.ofSeconds(10))
					.until(() -> queue.find("sleepy", id).orElseThrow(), (info) -> info.state() == JobState.READY);
				assertThat(job.attempts()).isZero();
				assertThat(job.lastError()).isNull();
				assertThat(listener.interrupted).containsExactly(1);
			});
	}

	@Test
	void acknowledgesAJobWhoseHandlerCompletesDespiteTheShutdownsInterrupt(CapturedOutput output) {
		this.runner.withUserConfiguration(StubbornListener.class)
			.withPropertyValues("delayqueue.listener.shutdown-timeout=200ms")
			.run((context) -> {
				DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
				StubbornListener listener = context.getBean(StubbornListener.class);
				String id = queue.send("stubborn", "x");
				assertThat(listener.started.await(10, TimeUnit.SECONDS)).isTrue();
				context.getBean(DelayedJobListenerEndpointRegistry.class).stop();
				await().atMost(Duration.ofSeconds(10)).until(() -> queue.find("stubborn", id).isEmpty());
				assertThat(listener.interrupted.getCount()).isZero();
				// Redis may have run the acknowledgement whose reply the interrupt cut
				// off; the client must not have given up on it.
				assertThat(output.getOut()).doesNotContain("Acknowledging jobs [" + id + "]");
			});
	}

	@Test
	void stopsListenersInParallelAndCallsSpringsLifecycleBackWithoutBlockingIt() {
		this.runner.withUserConfiguration(BlockedListeners.class)
			.withPropertyValues("delayqueue.listener.shutdown-timeout=20s")
			.run((context) -> {
				DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
				BlockedListeners listeners = context.getBean(BlockedListeners.class);
				String one = queue.send("blocked.one", "x");
				String two = queue.send("blocked.two", "y");
				assertThat(listeners.started.await(10, TimeUnit.SECONDS)).isTrue();
				DelayedJobListenerEndpointRegistry registry = context.getBean(DelayedJobListenerEndpointRegistry.class);
				CountDownLatch stopped = new CountDownLatch(1);
				registry.stop(stopped::countDown);
				assertThat(registry.isRunning()).isFalse();
				assertThat(stopped.getCount()).as("called back while handlers still run").isOne();
				listeners.finish.countDown();
				assertThat(stopped.await(15, TimeUnit.SECONDS)).isTrue();
				assertThat(registry.getListenerContainers()).noneMatch(DelayedJobListenerContainer::isRunning);
				await().atMost(Duration.ofSeconds(10))
					.until(() -> queue.find("blocked.one", one).isEmpty() && queue.find("blocked.two", two).isEmpty());
			});
	}

	@Test
	void callsBackAtOnceWhenNoListenerRuns() {
		this.runner.withUserConfiguration(BlockedListeners.class).run((context) -> {
			DelayedJobListenerEndpointRegistry registry = context.getBean(DelayedJobListenerEndpointRegistry.class);
			registry.stop();
			CountDownLatch stopped = new CountDownLatch(1);
			registry.stop(stopped::countDown);
			assertThat(stopped.getCount()).isZero();
		});
	}

	@Test
	void registersAndStartsTheListenersOfABeanCreatedAfterStartUp() {
		this.runner.withUserConfiguration(LazyListenerConfiguration.class).run((context) -> {
			DelayedJobListenerEndpointRegistry registry = context.getBean(DelayedJobListenerEndpointRegistry.class);
			assertThat(registry.getListenerContainer("lazy")).isNull();
			LazyListener listener = context.getBean(LazyListener.class);
			DelayedJobListenerContainer container = registry.getListenerContainer("lazy");
			assertThat(container).isNotNull();
			assertThat(container.isRunning()).isTrue();
			context.getBean(DelayQueueOperations.class).send("lazy", "x");
			await().atMost(Duration.ofSeconds(10)).until(() -> listener.payloads.contains("x"));
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class LazyListenerConfiguration {

		@Bean
		@Lazy
		LazyListener lazyListener() {
			return new LazyListener();
		}

	}

	static class LazyListener {

		final List<String> payloads = new CopyOnWriteArrayList<>();

		@DelayedJobListener(id = "lazy", topics = "lazy")
		void on(String payload) {
			this.payloads.add(payload);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class BlockedListeners {

		final CountDownLatch started = new CountDownLatch(2);

		final CountDownLatch finish = new CountDownLatch(1);

		@DelayedJobListener("blocked.one")
		void one(String payload) throws InterruptedException {
			block();
		}

		@DelayedJobListener("blocked.two")
		void two(String payload) throws InterruptedException {
			block();
		}

		private void block() throws InterruptedException {
			this.started.countDown();
			this.finish.await(30, TimeUnit.SECONDS);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class StubbornListener {

		final CountDownLatch started = new CountDownLatch(1);

		final CountDownLatch interrupted = new CountDownLatch(1);

		// Never released: the handler works until the shutdown interrupts it.
		private final CountDownLatch endless = new CountDownLatch(1);

		@DelayedJobListener("stubborn")
		void on(String payload) {
			this.started.countDown();
			try {
				this.endless.await();
			}
			catch (InterruptedException ex) {
				// Finishes its work anyway, keeping the interrupt for whoever asks.
				this.interrupted.countDown();
				Thread.currentThread().interrupt();
			}
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class SleepingListener {

		final CountDownLatch started = new CountDownLatch(1);

		final List<Integer> interrupted = new CopyOnWriteArrayList<>();

		// Never released: simulated work that outlasts the shutdown timeout.
		private final CountDownLatch endless = new CountDownLatch(1);

		@DelayedJobListener("sleepy")
		void on(DelayedJob<String> job) throws InterruptedException {
			this.started.countDown();
			try {
				this.endless.await();
			}
			catch (InterruptedException ex) {
				this.interrupted.add(job.attempt());
				throw ex;
			}
		}

	}

}
