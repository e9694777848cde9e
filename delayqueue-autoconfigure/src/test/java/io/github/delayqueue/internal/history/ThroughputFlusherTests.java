package io.github.delayqueue.internal.history;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.autoconfigure.DelayQueueHistoryAutoConfiguration;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.DelayedJob;
import io.github.delayqueue.test.DelayQueueContextRunner;
import io.github.delayqueue.test.DelayQueueFixture;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Instances write what their listeners did to the shared history every few seconds and
 * when they stop; counts that Redis could not take wait for the next flush.
 */
@ExtendWith(RedisExtension.class)
class ThroughputFlusherTests {

	@Test
	void twoInstancesCountEveryOutcomeIntoOneHistory(RedisTestServer server) {
		server.flushAll();
		ApplicationContextRunner runner = DelayQueueContextRunner.create(server)
			.withConfiguration(AutoConfigurations.of(DelayQueueHistoryAutoConfiguration.class))
			.withUserConfiguration(FlakyListener.class)
			.withPropertyValues("delayqueue.history.flush-interval=200ms",
					"delayqueue.topics.counted.retry.max-attempts=2",
					"delayqueue.topics.counted.retry.backoff.delay=100ms",
					"delayqueue.topics.counted.retry.backoff.jitter=0ms", "delayqueue.scheduler.max-sleep=200ms");
		runner.run((first) -> runner.run((second) -> {
			DelayQueueOperations queue = first.getBean(DelayQueueOperations.class);
			for (int i = 0; i < 10; i++) {
				queue.send("counted", "ok-" + i);
			}
			for (int i = 0; i < 3; i++) {
				queue.send("counted", "fail-" + i);
			}
			ThroughputHistory history = first.getBean(ThroughputHistory.class);
			// Ten completed; three failed twice each: retried once, then dead.
			await().atMost(Duration.ofSeconds(30))
				.untilAsserted(() -> assertThat(sum(history.lastHour("counted"))).containsExactly(10L, 6L, 3L, 3L));
			assertThat(first.getBean(FlakyListener.class).calls.get() + second.getBean(FlakyListener.class).calls.get())
				.isEqualTo(16);
		}));
	}

	@Test
	void keepsCountsRedisCouldNotTakeForTheNextFlush() {
		try (RedisTestServer server = RedisTestServer.startDedicated();
				DelayQueueFixture fixture = new DelayQueueFixture(server)) {
			ThroughputCounters counters = new ThroughputCounters();
			ThroughputHistory history = new ThroughputHistory(fixture.redis(), "dq", Clock.systemUTC());
			ThroughputFlusher flusher = new ThroughputFlusher(counters, history, Duration.ofHours(1));
			counters.jobCompleted("kept", Duration.ZERO);
			server.stop();
			flusher.flush();
			counters.jobCompleted("kept", Duration.ZERO);
			server.restart();
			await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
				flusher.flush();
				assertThat(sum(history.lastHour("kept")).get(0)).isEqualTo(2);
			});
		}
	}

	@Test
	void isOnByDefaultAndOffWhenDisabled() {
		ApplicationContextRunner runner = DelayQueueContextRunner.withoutRedis()
			.withConfiguration(AutoConfigurations.of(DelayQueueHistoryAutoConfiguration.class));
		runner.run((context) -> assertThat(context).hasSingleBean(ThroughputCounters.class)
			.hasSingleBean(ThroughputFlusher.class));
		runner.withPropertyValues("delayqueue.history.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(ThroughputCounters.class));
		runner.withPropertyValues("delayqueue.history.flush-interval=0s")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("delayqueue.history.flush-interval"));
	}

	private static List<Long> sum(List<ThroughputHistory.Bucket> buckets) {
		long completed = 0;
		long failed = 0;
		long retried = 0;
		long dead = 0;
		for (ThroughputHistory.Bucket bucket : buckets) {
			completed += bucket.completed();
			failed += bucket.failed();
			retried += bucket.retried();
			dead += bucket.dead();
		}
		return List.of(completed, failed, retried, dead);
	}

	@Configuration(proxyBeanMethods = false)
	static class FlakyListener {

		final AtomicInteger calls = new AtomicInteger();

		@DelayedJobListener(id = "counted", topics = "counted", concurrency = "2")
		void on(DelayedJob<String> job) {
			this.calls.incrementAndGet();
			if (job.payload().startsWith("fail")) {
				throw new IllegalStateException("fails on purpose");
			}
		}

	}

}
