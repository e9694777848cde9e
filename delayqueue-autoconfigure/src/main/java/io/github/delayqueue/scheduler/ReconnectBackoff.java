package io.github.delayqueue.scheduler;

import java.util.concurrent.TimeUnit;

/**
 * How long to wait before trying Redis again after failures in a row: 100 ms after the
 * first, doubling up to 3.2 seconds, so that a short blip costs little delay and a long
 * outage few attempts.
 *
 * @author delayqueue contributors
 */
final class ReconnectBackoff {

	private ReconnectBackoff() {
	}

	/**
	 * Return the pause after a number of failures in a row.
	 * @param failures the failures, at least one
	 * @return the pause in nanoseconds
	 */
	static long nanosAfter(int failures) {
		return TimeUnit.MILLISECONDS.toNanos(50L << Math.min(failures, 6));
	}

}
