package io.github.delayqueue.internal.schedule;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.scheduling.support.CronExpression;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Ticks of cron expressions across daylight saving changes, computed from given instants:
 * a tick in the spring-forward gap runs at the first valid instant after it, one in the
 * fall-back overlap runs once.
 */
class CronTicksTests {

	private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

	private static final ZoneId NEW_YORK = ZoneId.of("America/New_York");

	@Test
	void runsADailyTickThatFallsInTheSpringForwardGapAtTheEndOfTheGapInBerlin() {
		// 29 March 2026: 02:00 CET jumps to 03:00 CEST; 02:30 does not exist.
		List<Instant> ticks = ticks("0 30 2 * * *", BERLIN, local(BERLIN, 2026, 3, 27, 12, 0), 4);
		assertThat(ticks).containsExactly(local(BERLIN, 2026, 3, 28, 2, 30), Instant.parse("2026-03-29T01:00:00Z"),
				local(BERLIN, 2026, 3, 30, 2, 30), local(BERLIN, 2026, 3, 31, 2, 30));
	}

	@Test
	void runsADailyTickThatFallsInTheFallBackOverlapOnceInBerlin() {
		// 25 October 2026: 03:00 CEST falls back to 02:00 CET; 02:30 happens twice.
		List<Instant> ticks = ticks("0 30 2 * * *", BERLIN, local(BERLIN, 2026, 10, 24, 12, 0), 3);
		assertThat(ticks).containsExactly(Instant.parse("2026-10-25T00:30:00Z"), local(BERLIN, 2026, 10, 26, 2, 30),
				local(BERLIN, 2026, 10, 27, 2, 30));
	}

	@Test
	void runsADailyTickThatFallsInTheSpringForwardGapAtTheEndOfTheGapInNewYork() {
		// 8 March 2026: 02:00 EST jumps to 03:00 EDT.
		List<Instant> ticks = ticks("0 15 2 * * *", NEW_YORK, local(NEW_YORK, 2026, 3, 7, 12, 0), 2);
		assertThat(ticks).containsExactly(Instant.parse("2026-03-08T07:00:00Z"), local(NEW_YORK, 2026, 3, 9, 2, 15));
	}

	@Test
	void runsADailyTickThatFallsInTheFallBackOverlapOnceInNewYork() {
		// 1 November 2026: 02:00 EDT falls back to 01:00 EST; 01:15 happens twice.
		List<Instant> ticks = ticks("0 15 1 * * *", NEW_YORK, local(NEW_YORK, 2026, 10, 31, 12, 0), 2);
		assertThat(ticks).containsExactly(Instant.parse("2026-11-01T05:15:00Z"), local(NEW_YORK, 2026, 11, 2, 1, 15));
	}

	@Test
	void collapsesTicksOfTheGapIntoOneAtItsEnd() {
		List<Instant> ticks = ticks("0 */20 * * * *", BERLIN, local(BERLIN, 2026, 3, 29, 1, 30), 4);
		assertThat(ticks).containsExactly(Instant.parse("2026-03-29T00:40:00Z"), Instant.parse("2026-03-29T01:00:00Z"),
				Instant.parse("2026-03-29T01:20:00Z"), Instant.parse("2026-03-29T01:40:00Z"));
	}

	@Test
	void ticksEachLocalTimeOfTheOverlapOnceAndGoesOnAfterIt() {
		List<Instant> ticks = ticks("0 */20 * * * *", BERLIN, Instant.parse("2026-10-24T23:50:00Z"), 5);
		// 02:00, 02:20 and 02:40 CEST, then 03:00 CET: the repeated hour ticks no more.
		assertThat(ticks).containsExactly(Instant.parse("2026-10-25T00:00:00Z"), Instant.parse("2026-10-25T00:20:00Z"),
				Instant.parse("2026-10-25T00:40:00Z"), Instant.parse("2026-10-25T02:00:00Z"),
				Instant.parse("2026-10-25T02:20:00Z"));
	}

	@Test
	void startsAfterTheOverlapWhenAskedFromItsSecondPass() {
		CronTicks ticks = new CronTicks(CronExpression.parse("0 */20 * * * *"), BERLIN);
		// 02:10 CET, the second 02:10 of the night.
		long next = ticks.next(Instant.parse("2026-10-25T01:10:00Z").toEpochMilli());
		assertThat(Instant.ofEpochMilli(next)).isEqualTo(Instant.parse("2026-10-25T02:00:00Z"));
	}

	@Test
	void readsMacros() {
		List<Instant> ticks = ticks("@daily", ZoneId.of("UTC"), Instant.parse("2026-01-01T10:00:00Z"), 2);
		assertThat(ticks).containsExactly(Instant.parse("2026-01-02T00:00:00Z"), Instant.parse("2026-01-03T00:00:00Z"));
	}

	@Test
	void countsTicksBetweenTwoInstants() {
		CronTicks ticks = new CronTicks(CronExpression.parse("0 0 * * * *"), ZoneId.of("UTC"));
		long from = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();
		long to = Instant.parse("2026-01-02T00:00:00Z").toEpochMilli();
		assertThat(ticks.count(from, to, 1000)).isEqualTo(24);
		assertThat(ticks.count(from, to, 10)).isEqualTo(10);
	}

	private static Instant local(ZoneId zone, int year, int month, int day, int hour, int minute) {
		return ZonedDateTime.of(LocalDateTime.of(year, month, day, hour, minute), zone).toInstant();
	}

	private static List<Instant> ticks(String cron, ZoneId zone, Instant from, int count) {
		CronTicks ticks = new CronTicks(CronExpression.parse(cron), zone);
		List<Instant> found = new ArrayList<>();
		long after = from.toEpochMilli();
		for (int i = 0; i < count; i++) {
			after = ticks.next(after);
			found.add(Instant.ofEpochMilli(after));
		}
		return found;
	}

}
