package io.github.delayqueue.internal.schedule;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.autoconfigure.DelayQueueSchedulesAutoConfiguration;
import io.github.delayqueue.core.DelayQueueSchedules;
import io.github.delayqueue.core.DelayedJob;
import io.github.delayqueue.core.ScheduleInfo;
import io.github.delayqueue.core.ScheduleInfo.TickOutcome;
import io.github.delayqueue.core.ScheduleRun;
import io.github.delayqueue.test.DelayQueueContextRunner;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code overlap: skip}: while the job of the last tick is still pending (here: its
 * handler runs for two and a half ticks), the ticks that fall due are skipped, and no two
 * runs of the schedule overlap.
 */
@ExtendWith(RedisExtension.class)
class ScheduleOverlapTests {

	@Test
	void skipsTicksWhileTheLastTicksJobIsStillRunning(RedisTestServer server) {
		server.flushAll();
		DelayQueueContextRunner.create(server)
			.withConfiguration(AutoConfigurations.of(DelayQueueSchedulesAutoConfiguration.class))
			.withUserConfiguration(SlowListener.class)
			.withPropertyValues("delayqueue.schedules.slow.topic=slow", "delayqueue.schedules.slow.every=1s",
					"delayqueue.schedules.slow.overlap=skip")
			.run((context) -> {
				SlowListener listener = context.getBean(SlowListener.class);
				await().atMost(Duration.ofSeconds(30)).until(() -> listener.finished.size() >= 3);
				assertThat(listener.mostAtOnce.get()).isEqualTo(1);
				List<Long> ticks = listener.finished.stream()
					.map((id) -> Long.parseLong(id.substring(id.indexOf('@') + 1)))
					.toList();
				for (int i = 1; i < ticks.size(); i++) {
					assertThat(ticks.get(i) - ticks.get(i - 1)).isGreaterThanOrEqualTo(3000);
				}
				ScheduleInfo info = context.getBean(DelayQueueSchedules.class).find("slow").orElseThrow();
				assertThat(info.recentRuns()).extracting(ScheduleRun::outcome).contains(TickOutcome.SKIPPED);
				assertThat(info.missedTicks()).isZero();
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class SlowListener {

		final List<String> finished = new CopyOnWriteArrayList<>();

		final AtomicInteger running = new AtomicInteger();

		final AtomicInteger mostAtOnce = new AtomicInteger();

		private final CountDownLatch never = new CountDownLatch(1);

		@Bean
		SlowHandler slowHandler() {
			return new SlowHandler(this);
		}

		void handle(DelayedJob<Map<String, Object>> job) throws InterruptedException {
			this.mostAtOnce.accumulateAndGet(this.running.incrementAndGet(), Math::max);
			try {
				// Busy for two and a half ticks, as a slow report would be.
				this.never.await(2500, TimeUnit.MILLISECONDS);
			}
			finally {
				this.running.decrementAndGet();
			}
			this.finished.add(job.id());
		}

	}

	static class SlowHandler {

		private final SlowListener listener;

		SlowHandler(SlowListener listener) {
			this.listener = listener;
		}

		@DelayedJobListener(topics = "slow", concurrency = "4")
		void on(DelayedJob<Map<String, Object>> job) throws InterruptedException {
			this.listener.handle(job);
		}

	}

}
