package io.github.delayqueue.internal.schedule;

/**
 * The instants a schedule ticks at, in epoch milliseconds.
 *
 * @author delayqueue contributors
 */
interface TickSeries {

	/**
	 * Return the first tick strictly after an instant.
	 * @param afterMillis the instant
	 * @return the tick, or {@link Long#MAX_VALUE} when the series has no tick after it
	 */
	long next(long afterMillis);

	/**
	 * Count the ticks after one instant up to and including another, stopping at a limit.
	 * @param afterMillis the start, excluded
	 * @param upToMillis the end, included
	 * @param limit the most ticks counted
	 * @return the count, at most {@code limit}
	 */
	default long count(long afterMillis, long upToMillis, long limit) {
		long count = 0;
		for (long tick = next(afterMillis); tick <= upToMillis && count < limit; tick = next(tick)) {
			count++;
		}
		return count;
	}

}
