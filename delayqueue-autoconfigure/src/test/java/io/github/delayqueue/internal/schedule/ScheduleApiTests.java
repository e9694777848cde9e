package io.github.delayqueue.internal.schedule;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;

import io.github.delayqueue.autoconfigure.DelayQueueSchedulesAutoConfiguration;
import io.github.delayqueue.core.DelayQueueSchedules;
import io.github.delayqueue.core.InvalidScheduleException;
import io.github.delayqueue.core.JobState;
import io.github.delayqueue.core.RecurringSchedule;
import io.github.delayqueue.core.ScheduleInfo;
import io.github.delayqueue.core.ScheduleInfo.TickOutcome;
import io.github.delayqueue.core.ScheduleRun;
import io.github.delayqueue.test.DelayQueueContextRunner;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The {@link DelayQueueSchedules} bean: listing with next fire times and recent runs,
 * pause, resume and trigger of a declared schedule, and schedules saved and deleted at
 * run time.
 */
@ExtendWith(RedisExtension.class)
class ScheduleApiTests {

	private static final String TOPIC = "api";

	private ApplicationContextRunner runner;

	@BeforeEach
	void setUp(RedisTestServer server) {
		server.flushAll();
		TickLedger.clear();
		this.runner = DelayQueueContextRunner.create(server)
			.withConfiguration(AutoConfigurations.of(DelayQueueSchedulesAutoConfiguration.class))
			.withUserConfiguration(TickLedger.Recorder.class)
			.withPropertyValues("ticks.topic=" + TOPIC, "delayqueue.schedules.declared.topic=" + TOPIC,
					"delayqueue.schedules.declared.every=1s", "delayqueue.schedules.declared.zone=UTC");
	}

	@Test
	void listsSchedulesWithTheirNextFireTimesLastTickAndRecentRuns() {
		this.runner.run((context) -> {
			DelayQueueSchedules schedules = context.getBean(DelayQueueSchedules.class);
			await().atMost(Duration.ofSeconds(20)).until(() -> TickLedger.runs(TOPIC).size() >= 2);
			ScheduleInfo info = schedules.list(3).get(0);
			assertThat(info.id()).isEqualTo("declared");
			assertThat(info.topic()).isEqualTo(TOPIC);
			assertThat(info.every()).isEqualTo(Duration.ofSeconds(1));
			assertThat(info.declared()).isTrue();
			assertThat(info.paused()).isFalse();
			assertThat(info.nextFireTimes()).hasSize(3);
			assertThat(info.nextFireTimes().get(1)).isEqualTo(info.nextFireTimes().get(0).plusSeconds(1));
			assertThat(info.lastTick()).isNotNull();
			assertThat(info.lastOutcome()).isEqualTo(TickOutcome.PRODUCED);
			assertThat(info.missedTicks()).isZero();
			assertThat(info.recentRuns()).isNotEmpty().allSatisfy((run) -> {
				assertThat(run.outcome()).isEqualTo(TickOutcome.PRODUCED);
				assertThat(run.jobId()).isEqualTo("declared@" + run.tick().toEpochMilli());
			});
			assertThat(schedules.find("nothing")).isEmpty();
		});
	}

	@Test
	void pausesResumesAndTriggersADeclaredSchedule() {
		this.runner.run((context) -> {
			DelayQueueSchedules schedules = context.getBean(DelayQueueSchedules.class);
			await().atMost(Duration.ofSeconds(20)).until(() -> TickLedger.runs(TOPIC).size() >= 1);
			schedules.pause("declared");
			ScheduleInfo paused = schedules.find("declared").orElseThrow();
			assertThat(paused.paused()).isTrue();
			assertThat(paused.nextFireTimes()).isEmpty();
			// No tick runs while paused (one decided in the instant of the pause may
			// still run): the runs stay the same for over two ticks.
			awaitNoNewRuns(() -> TickLedger.runs(TOPIC).size());
			int runsWhenPaused = TickLedger.runs(TOPIC).size();
			String triggered = schedules.trigger("declared");
			assertThat(triggered).startsWith("declared@");
			await().atMost(Duration.ofSeconds(10))
				.until(() -> TickLedger.runs(TOPIC).stream().anyMatch((run) -> run.jobId().equals(triggered)));
			assertThat(TickLedger.runs(TOPIC)).hasSize(runsWhenPaused + 1);
			schedules.resume("declared");
			await().atMost(Duration.ofSeconds(10)).until(() -> TickLedger.runs(TOPIC).size() >= runsWhenPaused + 3);
			ScheduleInfo resumed = schedules.find("declared").orElseThrow();
			assertThat(resumed.paused()).isFalse();
			// Ticks that fell due while paused are not missed ticks.
			assertThat(resumed.missedTicks()).isZero();
			assertThat(resumed.recentRuns()).anySatisfy((run) -> {
				assertThat(run.outcome()).isEqualTo(TickOutcome.TRIGGERED);
				assertThat(run.jobId()).isEqualTo(triggered);
			});
		});
	}

	@Test
	void savesChangesAndDeletesSchedulesAtRunTime() {
		this.runner.run((context) -> {
			DelayQueueSchedules schedules = context.getBean(DelayQueueSchedules.class);
			ScheduleInfo saved = schedules.save(RecurringSchedule.every("runtime", TOPIC, Duration.ofSeconds(1))
				.payload(Map.of("from", "code"))
				.build());
			assertThat(saved.declared()).isFalse();
			assertThat(saved.payloadJson()).isEqualTo("{\"from\":\"code\"}");
			await().atMost(Duration.ofSeconds(20)).until(() -> runsOf("runtime").size() >= 2);
			assertThat(runsOf("runtime"))
				.allSatisfy((run) -> assertThat(run.payload()).isEqualTo(Map.of("from", "code")));
			ScheduleInfo changed = schedules.save(RecurringSchedule.cron("runtime", TOPIC, "*/2 * * * * *").build());
			assertThat(changed.cron()).isEqualTo("*/2 * * * * *");
			assertThat(changed.nextFireTimes()).allSatisfy((tick) -> assertThat(tick.getEpochSecond() % 2).isZero());
			assertThat(schedules.delete("runtime")).isTrue();
			assertThat(schedules.find("runtime")).isEmpty();
			assertThat(schedules.delete("runtime")).isFalse();
			// A tick decided in the instant of the delete may still run, then none.
			awaitNoNewRuns(() -> runsOf("runtime").size());
		});
	}

	@Test
	void refusesToChangeOrDeleteASchedulesDeclaredByTheConfiguration() {
		this.runner.run((context) -> {
			DelayQueueSchedules schedules = context.getBean(DelayQueueSchedules.class);
			await().atMost(Duration.ofSeconds(20)).until(() -> schedules.find("declared").isPresent());
			assertThatExceptionOfType(InvalidScheduleException.class)
				.isThrownBy(
						() -> schedules.save(RecurringSchedule.every("declared", TOPIC, Duration.ofHours(1)).build()))
				.withMessageContaining("declared by the configuration");
			assertThatExceptionOfType(InvalidScheduleException.class).isThrownBy(() -> schedules.delete("declared"))
				.withMessageContaining("declared by the configuration");
		});
	}

	@Test
	void refusesInvalidSchedulesNamingEveryProblem() {
		this.runner.run((context) -> {
			DelayQueueSchedules schedules = context.getBean(DelayQueueSchedules.class);
			assertThatExceptionOfType(InvalidScheduleException.class)
				.isThrownBy(() -> schedules.save(RecurringSchedule.cron("bad id!", "bad topic!", "not a cron").build()))
				.withMessageContaining("id 'bad id!'")
				.withMessageContaining("topic 'bad topic!'")
				.withMessageContaining("cron 'not a cron'");
			assertThatExceptionOfType(InvalidScheduleException.class).isThrownBy(() -> schedules.pause("nothing"))
				.withMessage("No schedule 'nothing'");
			assertThatExceptionOfType(InvalidScheduleException.class).isThrownBy(() -> schedules.trigger("nothing"));
		});
	}

	@Test
	void tellsTheStateOfTheJobsOfRecentRuns() {
		this.runner.withPropertyValues("ticks.topic=other").run((context) -> {
			DelayQueueSchedules schedules = context.getBean(DelayQueueSchedules.class);
			// No listener consumes the topic: the jobs of its ticks wait, READY.
			await().atMost(Duration.ofSeconds(20))
				.until(() -> schedules.find("declared").map(ScheduleInfo::recentRuns).orElse(List.of()).size() >= 2);
			List<ScheduleRun> runs = schedules.find("declared").orElseThrow().recentRuns();
			assertThat(runs).allSatisfy((run) -> assertThat(run.jobState()).isEqualTo(JobState.READY));
			assertThat(runs.get(0).tick()).isAfter(runs.get(1).tick());
		});
	}

	// The count stays the same for over two ticks.
	private static void awaitNoNewRuns(IntSupplier runs) {
		AtomicInteger seen = new AtomicInteger(-1);
		await().atMost(Duration.ofSeconds(15)).during(Duration.ofMillis(2500)).until(() -> {
			int now = runs.getAsInt();
			return seen.getAndSet(now) == now;
		});
	}

	private static List<TickLedger.Run> runsOf(String schedule) {
		return TickLedger.runs(TOPIC).stream().filter((run) -> run.jobId().startsWith(schedule + "@")).toList();
	}

}
