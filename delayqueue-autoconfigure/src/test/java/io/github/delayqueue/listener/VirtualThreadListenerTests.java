package io.github.delayqueue.listener;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.test.DelayQueueContextRunner;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.task.TaskDecorator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/**
 * Handlers run on virtual threads when {@code spring.threads.virtual.enabled} is set on
 * Java 21 or later, and on platform threads otherwise.
 */
@ExtendWith(RedisExtension.class)
class VirtualThreadListenerTests {

	private ApplicationContextRunner runner;

	@BeforeEach
	void setUp(RedisTestServer server) {
		server.flushAll();
		this.runner = DelayQueueContextRunner.create(server).withUserConfiguration(ThreadRecorder.class);
	}

	@Test
	void runsHandlersOnVirtualThreadsWhenSpringBootAsksForThem() {
		assumeThat(Runtime.version().feature()).as("virtual threads need Java 21").isGreaterThanOrEqualTo(21);
		this.runner.withPropertyValues("spring.threads.virtual.enabled=true").run((context) -> {
			List<Boolean> virtual = handle(context.getBean(DelayQueueOperations.class),
					context.getBean(ThreadRecorder.class));
			assertThat(virtual).containsExactly(true, true, true);
			assertThat(context.getBean(ThreadRecorder.class).mostAtOnce()).isLessThanOrEqualTo(2);
			// A virtual thread never keeps the JVM running: the poller, a platform thread
			// (listed below, which virtual threads are not), keeps an application whose
			// only work is its listeners up.
			assertThat(Thread.getAllStackTraces().keySet())
				.filteredOn((thread) -> thread.getName().equals("delayqueue-thread-recorder-poller"))
				.singleElement()
				.satisfies((poller) -> assertThat(poller.isDaemon()).isFalse());
		});
	}

	@Test
	void runsHandlersOnPlatformThreadsOtherwise() {
		this.runner.run((context) -> {
			List<Boolean> virtual = handle(context.getBean(DelayQueueOperations.class),
					context.getBean(ThreadRecorder.class));
			assertThat(virtual).containsExactly(false, false, false);
		});
	}

	@Test
	void runsHandlersUnderTheApplicationsTaskDecorator() {
		this.runner.withConfiguration(AutoConfigurations.of(TaskExecutionAutoConfiguration.class))
			.withBean(TaskDecorator.class, () -> ThreadRecorder::marked)
			.run((context) -> {
				ThreadRecorder recorder = context.getBean(ThreadRecorder.class);
				handle(context.getBean(DelayQueueOperations.class), recorder);
				assertThat(recorder.marks).containsExactly("decorated", "decorated", "decorated");
			});
	}

	@Test
	void runsHandlersWithoutAMarkWhenTheApplicationHasNoTaskDecorator() {
		this.runner.withConfiguration(AutoConfigurations.of(TaskExecutionAutoConfiguration.class)).run((context) -> {
			ThreadRecorder recorder = context.getBean(ThreadRecorder.class);
			handle(context.getBean(DelayQueueOperations.class), recorder);
			assertThat(recorder.marks).containsExactly("none", "none", "none");
		});
	}

	private static List<Boolean> handle(DelayQueueOperations queue, ThreadRecorder recorder) {
		for (int i = 0; i < 3; i++) {
			queue.send("threads", "job-" + i);
		}
		await().atMost(Duration.ofSeconds(10)).until(() -> recorder.virtual.size() == 3);
		return recorder.virtual;
	}

	@Configuration(proxyBeanMethods = false)
	static class ThreadRecorder {

		// Set by the application's task decorator on the threads it wraps.
		static final ThreadLocal<String> MARK = new ThreadLocal<>();

		final List<Boolean> virtual = new CopyOnWriteArrayList<>();

		final List<String> marks = new CopyOnWriteArrayList<>();

		private final AtomicInteger running = new AtomicInteger();

		private final AtomicInteger mostAtOnce = new AtomicInteger();

		@DelayedJobListener(id = "thread-recorder", topics = "threads", concurrency = "2")
		void on(String payload) throws Exception {
			this.mostAtOnce.accumulateAndGet(this.running.incrementAndGet(), Math::max);
			try {
				this.marks.add((MARK.get() != null) ? MARK.get() : "none");
				this.virtual.add(isVirtual(Thread.currentThread()));
			}
			finally {
				this.running.decrementAndGet();
			}
		}

		static Runnable marked(Runnable task) {
			return () -> {
				MARK.set("decorated");
				try {
					task.run();
				}
				finally {
					MARK.remove();
				}
			};
		}

		int mostAtOnce() {
			return this.mostAtOnce.get();
		}

		// Thread.isVirtual() exists from Java 21 on; the tests compile for Java 17.
		private static boolean isVirtual(Thread thread) throws Exception {
			if (Runtime.version().feature() < 21) {
				return false;
			}
			Method isVirtual = Thread.class.getMethod("isVirtual");
			return (boolean) isVirtual.invoke(thread);
		}

	}

}
