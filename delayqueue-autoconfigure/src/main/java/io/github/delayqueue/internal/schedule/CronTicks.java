package io.github.delayqueue.internal.schedule;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.scheduling.support.CronExpression;

/**
 * Ticks of a cron expression in a time zone. The expression is matched against the local
 * date-times of the zone, and each matching local date-time ticks once: in a gap of a
 * daylight saving change (spring forward) at the first valid instant after the gap, in an
 * overlap (fall back) at its first occurrence only. Spring's own
 * {@code CronExpression.next(ZonedDateTime)} skips a time that falls in a gap and fires
 * twice for one in an overlap, so local date-times are matched here and mapped to
 * instants by the zone's rules.
 *
 * @author delayqueue contributors
 */
final class CronTicks implements TickSeries {

	// No cron expression matches nothing for this long: four years hold every calendar,
	// 29 February on a Monday included.
	private static final long GIVE_UP_YEARS = 30;

	private final CronExpression expression;

	private final ZoneId zone;

	private final ZoneRules rules;

	CronTicks(CronExpression expression, ZoneId zone) {
		this.expression = expression;
		this.zone = zone;
		this.rules = zone.getRules();
	}

	@Override
	public long next(long afterMillis) {
		Instant after = Instant.ofEpochMilli(afterMillis);
		LocalDateTime local = LocalDateTime.ofInstant(after, this.zone);
		ZoneOffsetTransition overlap = overlapAt(local);
		if (overlap != null && this.rules.getOffset(after).equals(overlap.getOffsetAfter())) {
			// In the second pass of an overlap every local time already ticked in the
			// first: go on from the overlap's end.
			local = overlap.getDateTimeBefore().minusNanos(1);
		}
		LocalDateTime limit = local.plusYears(GIVE_UP_YEARS);
		for (LocalDateTime candidate = this.expression.next(local); candidate != null
				&& candidate.isBefore(limit); candidate = this.expression.next(candidate)) {
			long tick = instantOf(candidate).toEpochMilli();
			if (tick > afterMillis) {
				return tick;
			}
		}
		return Long.MAX_VALUE;
	}

	private @Nullable ZoneOffsetTransition overlapAt(LocalDateTime local) {
		ZoneOffsetTransition transition = this.rules.getTransition(local);
		return (transition != null && transition.isOverlap()) ? transition : null;
	}

	// A local time in a gap ticks at the gap's end, the first instant that exists after
	// it; one in an overlap at its earlier instant.
	private Instant instantOf(LocalDateTime local) {
		List<ZoneOffset> offsets = this.rules.getValidOffsets(local);
		if (offsets.isEmpty()) {
			return this.rules.getTransition(local).getInstant();
		}
		return local.toInstant(offsets.get(0));
	}

}
