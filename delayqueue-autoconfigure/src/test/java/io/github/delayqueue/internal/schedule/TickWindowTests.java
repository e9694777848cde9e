package io.github.delayqueue.internal.schedule;

import java.time.Instant;
import java.time.ZoneOffset;

import org.junit.jupiter.api.Test;

import org.springframework.scheduling.support.CronExpression;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The ticks a script call is given: every tick near the estimated Redis time, and of the
 * ticks before, a count and the latest few, however long the downtime.
 */
class TickWindowTests {

	@Test
	void listsTheTicksAroundNowAndTheFirstOneWellAfterIt() {
		FixedRateTicks ticks = new FixedRateTicks(1000);
		TickWindow window = TickWindow.after(ticks, 10_000, 10_500, 1);
		assertThat(window.first()).isEqualTo(11_000);
		assertThat(window.older()).isZero();
		assertThat(window.cutoff()).isEqualTo(10_000);
		assertThat(window.ticks()).containsExactly(11_000L, 12_000L, 13_000L);
	}

	@Test
	void countsTicksOfADowntimeAndListsTheLatestOfThem() {
		FixedRateTicks ticks = new FixedRateTicks(1000);
		TickWindow window = TickWindow.after(ticks, 0, 100_500, 3);
		// Ticks 1 s to 98 s lie before the cutoff (98.5 s): 95 counted, the latest 3
		// listed, then 99 s to 102 s and the first after the horizon.
		assertThat(window.older()).isEqualTo(95);
		assertThat(window.ticks()).containsExactly(96_000L, 97_000L, 98_000L, 99_000L, 100_000L, 101_000L, 102_000L,
				103_000L);
	}

	@Test
	void findsTheLatestTicksOfAYearLongDowntimeWithoutWalkingEveryOne() {
		CronTicks ticks = new CronTicks(CronExpression.parse("* * * * * *"), ZoneOffset.UTC);
		long after = Instant.parse("2025-01-01T00:00:00Z").toEpochMilli();
		long now = Instant.parse("2026-01-01T00:00:00.500Z").toEpochMilli();
		TickWindow window = TickWindow.after(ticks, after, now, 2);
		assertThat(window.older()).isEqualTo(TickWindow.MAX_COUNTED - 2);
		assertThat(window.ticks().subList(0, 2)).containsExactly(now - 3500, now - 2500);
	}

	@Test
	void listsTicksAroundNowForAScheduleThatStarts() {
		TickWindow window = TickWindow.around(new FixedRateTicks(5000), 12_000);
		assertThat(window.ticks()).containsExactly(15_000L);
	}

}
