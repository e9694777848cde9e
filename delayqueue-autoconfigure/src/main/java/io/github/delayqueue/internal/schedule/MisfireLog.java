package io.github.delayqueue.internal.schedule;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.github.delayqueue.core.RecurringSchedule.Misfire;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Tells the log of the ticks that were not decided on time, in the words of
 * docs/scheduling.md and of the endpoint's {@code missedTicks} and
 * {@code recentRuns[].missed}: of the ticks that fell due while no instance ran a
 * schedule, those its misfire policy runs run late and the others are missed. One line
 * per decision, however many ticks it took in: a warning when ticks were missed, else a
 * line at info level when ticks ran late, a single one only when it was decided at least
 * {@link #LATE} after its time.
 *
 * @author delayqueue contributors
 */
final class MisfireLog {

	/**
	 * How late a tick decided on its own (no later tick due with it) must be to be
	 * logged: below it, a tick is on time as far as an operator is concerned.
	 */
	static final Duration LATE = Duration.ofSeconds(1);

	private static final Log logger = LogFactory.getLog(MisfireLog.class);

	/**
	 * Log what a decision did to ticks that were not decided on time, if anything.
	 * @param decision the decision, {@code done}
	 * @param now the Redis time it was made at
	 */
	void decided(ScheduleStore.Decision decision, long now) {
		ScheduleStore.TickRequest request = decision.request();
		long ran = decision.produced() + decision.skipped();
		long due = ran + decision.missed();
		if (due == 0) {
			return;
		}
		if (decision.missed() > 0) {
			if (logger.isWarnEnabled()) {
				logger.warn(catchUp(request, decision, now));
			}
		}
		else if (due > 1) {
			if (logger.isInfoEnabled()) {
				logger.info(catchUp(request, decision, now));
			}
		}
		else if (now - decision.last() >= LATE.toMillis() && logger.isInfoEnabled()) {
			logger.info("Schedule '" + request.definition().id() + "' " + runs(List.of(decision.last()), decision, now)
					+ ": no instance ran it on time, and no tick was missed");
		}
	}

	// Several ticks fell due at once: which ones, which ran and how late, how many are
	// missed.
	private static String catchUp(ScheduleStore.TickRequest request, ScheduleStore.Decision decision, long now) {
		ScheduleDefinition definition = request.definition();
		long missed = decision.missed();
		long due = decision.produced() + decision.skipped() + missed;
		List<Long> runs = latestDue(request, decision.last(), decision.produced() + decision.skipped());
		StringBuilder line = new StringBuilder("Schedule '").append(definition.id()).append("' missed ");
		line.append((missed > 0) ? ticks(missed) : "no tick").append(" (misfire ").append(policy(definition));
		if (definition.misfire() == Misfire.FIRE_ALL) {
			line.append(", catch-up-limit ").append(definition.catchUpLimit());
		}
		line.append("): ")
			.append(due)
			.append(" ticks fell due from ")
			.append(at(request.next()))
			.append(" to ")
			.append(at(decision.last()))
			.append(" while no instance ran it; ");
		line.append(runs.isEmpty() ? "ran none of them" : runs(runs, decision, now));
		return line.toString();
	}

	// "ran the tick due at T late by 3.0 s", "ran 2 ticks due at T1 to T2, oldest
	// first, late by 8.0 s to 3.0 s", or "skipped ..., decided late by ..." when a job of
	// the schedule was still pending.
	private static String runs(List<Long> runs, ScheduleStore.Decision decision, long now) {
		long first = runs.get(0);
		long last = runs.get(runs.size() - 1);
		StringBuilder text = new StringBuilder();
		if (decision.skipped() == 0) {
			text.append("ran ");
		}
		else if (decision.produced() == 0) {
			text.append("skipped ");
		}
		else {
			text.append("ran ")
				.append(decision.produced())
				.append(" and skipped ")
				.append(decision.skipped())
				.append(" of ");
		}
		if (runs.size() == 1) {
			text.append("the tick due at ").append(at(first));
		}
		else {
			text.append(runs.size()).append(" ticks due at ").append(at(first)).append(" to ").append(at(last));
			text.append(", oldest first,");
		}
		text.append((decision.produced() == 0) ? " decided late by " : " late by ").append(duration(now - first));
		if (runs.size() > 1) {
			text.append(" to ").append(duration(now - last));
		}
		if (decision.skipped() > 0) {
			text.append(" (skipped: a job of the schedule was still pending)");
		}
		return text.toString();
	}

	// The ticks the policy ran are the latest that fell due, all of which the request
	// listed: the script runs no tick it was not given.
	private static List<Long> latestDue(ScheduleStore.TickRequest request, long last, long count) {
		List<Long> due = new ArrayList<>();
		due.add(request.next());
		for (long tick : request.window().ticks()) {
			if (tick <= last) {
				due.add(tick);
			}
		}
		return due.subList((int) Math.max(0, due.size() - count), due.size());
	}

	private static String ticks(long count) {
		return count + ((count == 1) ? " tick" : " ticks");
	}

	// As in the YAML: fire-once, skip, fire-all.
	private static String policy(ScheduleDefinition definition) {
		return definition.misfire().name().toLowerCase(Locale.ROOT).replace('_', '-');
	}

	// As the endpoint shows ticks.
	private static String at(long tick) {
		return Instant.ofEpochMilli(tick).toString();
	}

	private static String duration(long millis) {
		Duration duration = Duration.ofMillis(Math.max(0, millis));
		if (duration.toSeconds() < 60) {
			return String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
		}
		if (duration.toMinutes() < 60) {
			return duration.toMinutes() + " min " + duration.toSecondsPart() + " s";
		}
		if (duration.toHours() < 24) {
			return duration.toHours() + " h " + duration.toMinutesPart() + " min";
		}
		return duration.toDays() + " d " + duration.toHoursPart() + " h";
	}

}
