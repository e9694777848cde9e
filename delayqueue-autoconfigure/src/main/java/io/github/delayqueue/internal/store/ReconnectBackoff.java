package io.github.delayqueue.internal.store;

import java.time.Duration;

/**
 * How long the starter's background loops (listeners, the scheduler, the wake-up
 * subscription) wait before trying Redis again after failures in a row: doubling from 100
 * ms up to 2 s, quick to notice a restart, gentle while Redis stays away.
 *
 * @author delayqueue contributors
 */
public final class ReconnectBackoff {

	private static final long MAX_MILLIS = 2000;

	private ReconnectBackoff() {
	}

	/**
	 * Return the wait after a number of failures in a row.
	 * @param failures the failures, 1 for the first
	 * @return the wait
	 */
	public static Duration delay(int failures) {
		return Duration.ofMillis(Math.min(MAX_MILLIS, 50L << Math.min(Math.max(failures, 0), 6)));
	}

}
