package io.github.delayqueue.listener;

import java.time.Duration;

/**
 * A moving average of a container's recent handler run times, which tells how many jobs a
 * worker gets through in a short window. Updates from several workers may race and lose
 * one another; an average of the recent past is all that is asked of it.
 *
 * @author delayqueue contributors
 */
final class RunTimeAverage {

	/**
	 * How much work per worker a container claims ahead of its free workers.
	 */
	static final Duration CLAIM_AHEAD_WINDOW = Duration.ofMillis(20);

	/**
	 * The most jobs per worker claimed ahead, however quick the handlers: enough to hide
	 * a claim round trip behind the work, few enough to leave jobs for other instances.
	 */
	static final int MAX_CLAIM_AHEAD = 16;

	private static final int WEIGHT = 16;

	// Starts slow: a container claims ahead only once its handlers have proven quick.
	private volatile long averageNanos = CLAIM_AHEAD_WINDOW.toNanos() * 2;

	/**
	 * Add one run.
	 * @param nanos how long it took
	 */
	void add(long nanos) {
		long average = this.averageNanos;
		this.averageNanos = average + (nanos - average) / WEIGHT;
	}

	/**
	 * Return how many jobs one worker runs within {@link #CLAIM_AHEAD_WINDOW} at the
	 * recent pace, at most {@link #MAX_CLAIM_AHEAD}.
	 * @return jobs per worker to claim ahead, 0 for slow handlers
	 */
	int jobsPerClaimAheadWindow() {
		long average = Math.max(1, this.averageNanos);
		return (int) Math.min(MAX_CLAIM_AHEAD, CLAIM_AHEAD_WINDOW.toNanos() / average);
	}

}
