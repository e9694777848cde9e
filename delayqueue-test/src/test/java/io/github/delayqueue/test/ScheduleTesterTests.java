package io.github.delayqueue.test;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;

import io.github.delayqueue.core.DelayQueueSchedules;
import io.github.delayqueue.core.UnknownScheduleException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The tester moves recurring schedules in time on a real Redis: the next tick of a
 * schedule runs at once, with its tick as due time, and moving a topic's time forward
 * decides the ticks that fall in the span, by the schedule's misfire policy; each test
 * starts from the schedules' first tick after now.
 */
@SpringBootTest(classes = ScheduleTestApplication.class)
@AutoConfigureDelayQueue
class ScheduleTesterTests {

	private static final long FIVE_MINUTES = Duration.ofMinutes(5).toMillis();

	@Autowired
	private DelayQueueTester delayQueue;

	@Autowired
	private DelayQueueSchedules schedules;

	@Autowired
	private ScheduleTestApplication.Reports reports;

	@BeforeEach
	void forgetWhatEarlierTestsRan() {
		this.reports.builtJobs.clear();
		this.reports.synced.clear();
	}

	// The example of docs/testing.md, as it is there.
	@Test
	void buildsTheNightlyReportAt2() {
		Instant tick = delayQueue.runNextTick("nightly-report"); // the next 02:00, now
		delayQueue.awaitIdle("reports.nightly");
		assertThat(reports.built()).containsExactly(tick); // tick.dueAt() in the listener
	}

	@Test
	void runsTheNightlyReportOfTheNextNightAtOnce() {
		Instant tick = this.delayQueue.runNextTick("nightly-report");
		this.delayQueue.awaitIdle("reports.nightly");

		ZonedDateTime berlin = tick.atZone(ZoneId.of("Europe/Berlin"));
		assertThat(berlin.getHour()).isEqualTo(2);
		assertThat(berlin.getMinute()).isZero();
		assertThat(tick).isAfter(this.delayQueue.now()).isBefore(this.delayQueue.now().plus(Duration.ofHours(25)));
		assertThat(this.reports.builtJobs).singleElement().satisfies((job) -> {
			assertThat(job.id()).isEqualTo("nightly-report@" + tick.toEpochMilli());
			assertThat(job.dueAt()).isEqualTo(tick);
		});
		// The schedule goes on from the next night.
		assertThat(this.schedules.find("nightly-report").orElseThrow().nextFireTimes().get(0))
			.isEqualTo(tick.plus(Duration.ofDays(1)));
		assertThat(this.delayQueue.runNextTick("nightly-report")).isEqualTo(tick.plus(Duration.ofDays(1)));
		this.delayQueue.awaitIdle("reports.nightly");
		assertThat(this.reports.builtJobs).hasSize(2);
	}

	@Test
	void movingATopicsTimeForwardRunsTheTicksInTheSpanByTheMisfirePolicy() {
		Instant next = this.schedules.find("partner-sync").orElseThrow().nextFireTimes().get(0);

		assertThat(this.delayQueue.advance("partner.sync", Duration.ZERO)).isZero();
		// Past the next tick and the two after it: fire-once runs the latest once.
		long to = next.toEpochMilli() + 2 * FIVE_MINUTES;
		assertThat(this.delayQueue.advance("partner.sync",
				Duration.ofMillis(to - this.delayQueue.now().toEpochMilli() + 1)))
			.isEqualTo(1);
		this.delayQueue.awaitIdle("partner.sync");
		assertThat(this.reports.synced).singleElement()
			.satisfies((job) -> assertThat(job.id()).isEqualTo("partner-sync@" + to));
		assertThat(this.schedules.find("partner-sync").orElseThrow().missedTicks()).isEqualTo(2);
		assertThat(this.schedules.find("partner-sync").orElseThrow().nextFireTimes().get(0))
			.isEqualTo(Instant.ofEpochMilli(to + FIVE_MINUTES));
		// Not yet at the schedule's next tick: nothing runs.
		assertThat(this.delayQueue.advance("partner.sync", Duration.ofMinutes(1))).isZero();
	}

	@Test
	void eachTestStartsFromTheFirstTickAfterNow() {
		this.delayQueue.runNextTick("nightly-report");
		this.delayQueue.runNextTick("nightly-report");
		this.delayQueue.awaitIdle("reports.nightly");

		this.delayQueue.reset();

		Instant next = this.schedules.find("nightly-report").orElseThrow().nextFireTimes().get(0);
		assertThat(next).isBefore(this.delayQueue.now().plus(Duration.ofHours(25)));
		assertThat(this.schedules.find("nightly-report").orElseThrow().recentRuns()).isEmpty();
	}

	@Test
	void refusesAScheduleThatDoesNotExistOrIsPaused() {
		assertThatExceptionOfType(UnknownScheduleException.class)
			.isThrownBy(() -> this.delayQueue.runNextTick("weekly-report"))
			.withMessageContaining("'weekly-report'");
		this.schedules.pause("partner-sync");
		assertThatIllegalStateException().isThrownBy(() -> this.delayQueue.runNextTick("partner-sync"))
			.withMessageContaining("paused");
	}

}
