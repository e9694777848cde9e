package io.github.delayqueue.internal.schedule;

import io.github.delayqueue.core.ScheduleInfo.TickOutcome;
import org.jspecify.annotations.Nullable;

/**
 * A schedule's state in its topic, as {@code lib/schedules.lua} describes it.
 *
 * @param next the tick to decide next, epoch ms, or 0 for none (paused or disabled)
 * @param hash the hash of the definition the state follows
 * @param paused whether the schedule is paused
 * @param last the latest tick decided, or 0
 * @param outcome what became of it, or {@code null} before the first
 * @param missed how many ticks were missed in all
 * @param lastJob the tick of the latest job produced, or 0
 * @author delayqueue contributors
 */
record ScheduleState(long next, String hash, boolean paused, long last, @Nullable TickOutcome outcome, long missed,
		long lastJob) {

	/**
	 * Read a state as the scripts write it.
	 * @param raw the state's text
	 * @return the state
	 * @throws IllegalArgumentException if the text is no state
	 */
	static ScheduleState parse(String raw) {
		String[] parts = raw.split("\\|", -1);
		if (parts.length != 7) {
			throw new IllegalArgumentException("Malformed schedule state '" + raw + "'");
		}
		try {
			return new ScheduleState(Long.parseLong(parts[0]), parts[1], "1".equals(parts[2]), Long.parseLong(parts[3]),
					outcome(parts[4]), Long.parseLong(parts[5]), Long.parseLong(parts[6]));
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException("Malformed schedule state '" + raw + "'", ex);
		}
	}

	/**
	 * Read an outcome as the scripts write it.
	 * @param code {@code p}, {@code s}, {@code m}, {@code t} or empty
	 * @return the outcome, or {@code null} for none
	 */
	static @Nullable TickOutcome outcome(String code) {
		return switch (code) {
			case "p" -> TickOutcome.PRODUCED;
			case "s" -> TickOutcome.SKIPPED;
			case "m" -> TickOutcome.MISSED;
			case "t" -> TickOutcome.TRIGGERED;
			default -> null;
		};
	}

}
