package io.github.delayqueue.internal.schedule;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The ticks a script call is given to decide a schedule on the Redis clock, which this
 * instance knows only roughly: every tick from a while before the estimated Redis time to
 * the first one well after it, plus, of the ticks before that, a count and the latest
 * few. The script checks that the ticks given reach past its own clock (a call built on
 * an estimate that was off is refused and built again), so it never needs a tick it was
 * not given.
 *
 * @param first the first tick after the one the window starts from
 * @param older how many ticks before the listed ones are counted but not listed
 * @param cutoff the instant before which ticks are counted rather than all listed; the
 * script refuses a window whose cutoff is later than its clock
 * @param ticks the listed ticks, ascending, the last one later than the estimated Redis
 * time by at least the guard
 * @author delayqueue contributors
 */
record TickWindow(long first, long older, long cutoff, List<Long> ticks) {

	/**
	 * How far the estimate of the Redis time may be off before a call is refused and
	 * built again.
	 */
	static final long GUARD_MILLIS = 2000;

	/**
	 * The most ticks counted after a long downtime; beyond it the count stops.
	 */
	static final long MAX_COUNTED = 100_000;

	/**
	 * Build the window of ticks after a schedule's next tick.
	 * @param ticks the schedule's ticks
	 * @param after the tick the window starts after
	 * @param nowEstimate the estimated Redis time
	 * @param keep how many of the ticks before the cutoff are listed, the latest ones, at
	 * least 1
	 * @return the window
	 */
	static TickWindow after(TickSeries ticks, long after, long nowEstimate, int keep) {
		long first = ticks.next(after);
		long cutoff = Math.max(after, nowEstimate - GUARD_MILLIS);
		long counted = (first <= cutoff) ? ticks.count(after, cutoff, MAX_COUNTED) : 0;
		List<Long> listed = new ArrayList<>(latest(ticks, after, cutoff, (int) Math.min(keep, counted)));
		listed.addAll(upTo(ticks, cutoff, nowEstimate + GUARD_MILLIS));
		return new TickWindow(first, counted - Math.min(keep, counted), cutoff, listed);
	}

	/**
	 * Build the window of ticks around now, from which a schedule that starts, changes or
	 * resumes takes its first tick after the Redis time.
	 * @param ticks the schedule's ticks
	 * @param nowEstimate the estimated Redis time
	 * @return the window
	 */
	static TickWindow around(TickSeries ticks, long nowEstimate) {
		long cutoff = nowEstimate - GUARD_MILLIS;
		List<Long> listed = upTo(ticks, cutoff, nowEstimate + GUARD_MILLIS);
		return new TickWindow(listed.get(0), 0, cutoff, listed);
	}

	// The ticks after 'from' up to 'horizon', then the first one after it.
	private static List<Long> upTo(TickSeries ticks, long from, long horizon) {
		List<Long> listed = new ArrayList<>();
		long tick = ticks.next(from);
		while (tick <= horizon) {
			listed.add(tick);
			tick = ticks.next(tick);
		}
		listed.add(tick);
		return listed;
	}

	// The latest 'count' ticks after 'after' up to 'cutoff', ascending: looked for in a
	// span before the cutoff that grows until it holds enough, so that a long downtime
	// costs no walk over every tick of it.
	private static List<Long> latest(TickSeries ticks, long after, long cutoff, int count) {
		if (count == 0) {
			return List.of();
		}
		long span = 60_000;
		while (true) {
			long from = Math.max(after, cutoff - span);
			Deque<Long> found = new ArrayDeque<>(count + 1);
			for (long tick = ticks.next(from); tick <= cutoff; tick = ticks.next(tick)) {
				found.addLast(tick);
				if (found.size() > count) {
					found.removeFirst();
				}
			}
			if (found.size() == count || from == after) {
				return new ArrayList<>(found);
			}
			span *= 4;
		}
	}

}
