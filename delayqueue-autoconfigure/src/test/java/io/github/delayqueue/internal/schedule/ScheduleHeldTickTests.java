package io.github.delayqueue.internal.schedule;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.delayqueue.autoconfigure.DelayQueueSchedulesAutoConfiguration;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.DelayQueueSchedules;
import io.github.delayqueue.core.JobRequest;
import io.github.delayqueue.core.JobState;
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
 * A tick whose job id a pending job already holds (as a job triggered by hand in the
 * tick's millisecond does) writes nothing: it is reported and counted as skipped, not as
 * produced, and the pending job is left as it was.
 */
@ExtendWith(RedisExtension.class)
class ScheduleHeldTickTests {

	@Test
	void aTickWhoseJobIdIsPendingIsSkippedNotProduced(RedisTestServer server) {
		server.flushAll();
		DelayQueueContextRunner.create(server)
			.withConfiguration(AutoConfigurations.of(DelayQueueSchedulesAutoConfiguration.class))
			.withUserConfiguration(Decisions.class)
			.withPropertyValues("delayqueue.schedules.held.topic=held", "delayqueue.schedules.held.every=1s")
			.run((context) -> {
				DelayQueueSchedules schedules = context.getBean(DelayQueueSchedules.class);
				DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
				Decisions decisions = context.getBean(Decisions.class);
				await().atMost(Duration.ofSeconds(10)).until(() -> schedules.find("held").isPresent());
				// The ticks from the second next on are surely still ahead: their ids are
				// taken by jobs due in an hour, as a trigger in their millisecond would.
				List<Instant> next = schedules.find("held").orElseThrow().nextFireTimes();
				assertThat(next).hasSizeGreaterThanOrEqualTo(3);
				List<Long> held = new ArrayList<>();
				for (Instant tick : next.subList(1, 3)) {
					String id = "held@" + tick.toEpochMilli();
					queue.send(JobRequest.builder("held", "by hand").id(id).delay(Duration.ofHours(1)).build());
					held.add(tick.toEpochMilli());
				}
				await().atMost(Duration.ofSeconds(20))
					.until(() -> decisions.produced.size() + decisions.skipped.size() >= 4);
				ScheduleInfo info = schedules.find("held").orElseThrow();
				assertThat(info.recentRuns()).filteredOn((run) -> held.contains(run.tick().toEpochMilli()))
					.extracting(ScheduleRun::outcome)
					.containsOnly(TickOutcome.SKIPPED)
					.hasSize(2);
				assertThat(decisions.skipped).hasSizeGreaterThanOrEqualTo(2);
				for (long tick : held) {
					assertThat(queue.find("held", "held@" + tick)).get()
						.satisfies((job) -> assertThat(job.state()).isEqualTo(JobState.DELAYED));
				}
				// Every tick reported as produced wrote its own job.
				assertThat(info.recentRuns()).filteredOn((run) -> run.outcome() == TickOutcome.PRODUCED)
					.allSatisfy((run) -> assertThat(queue.find("held", "held@" + run.tick().toEpochMilli())).get()
						.satisfies((job) -> assertThat(job.payloadJson()).doesNotContain("by hand")));
			});
	}

	/**
	 * Records each decision the schedule loop reports, one entry per tick.
	 */
	@Configuration(proxyBeanMethods = false)
	static class Decisions {

		final List<String> produced = new CopyOnWriteArrayList<>();

		final List<String> skipped = new CopyOnWriteArrayList<>();

		@Bean
		ScheduleTickListener recordingTickListener() {
			return (schedule, topic, produced, skipped, missed, lateness) -> {
				for (long i = 0; i < produced; i++) {
					this.produced.add(schedule);
				}
				for (long i = 0; i < skipped; i++) {
					this.skipped.add(schedule);
				}
			};
		}

	}

}
