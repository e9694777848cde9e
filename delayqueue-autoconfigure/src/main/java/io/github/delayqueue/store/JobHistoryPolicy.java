package io.github.delayqueue.store;

import java.time.Duration;

/**
 * What a topic keeps of its jobs' past: finished jobs for a while, and (later) each job's
 * timeline.
 *
 * @param completedRetention how long a completed or cancelled job stays findable;
 * {@link Duration#ZERO} keeps none
 * @param completedMaxCount the most completed jobs, and the most cancelled ones, kept per
 * queue; the oldest go first
 * @author delayqueue contributors
 */
public record JobHistoryPolicy(Duration completedRetention, int completedMaxCount) {

	/**
	 * Keeps nothing: the default.
	 */
	public static final JobHistoryPolicy OFF = new JobHistoryPolicy(Duration.ZERO, 0);

	/**
	 * Whether finished jobs are kept at all.
	 * @return {@code true} if a retention and a count above zero are set
	 */
	public boolean keepsFinished() {
		return this.completedRetention.toMillis() > 0 && this.completedMaxCount > 0;
	}

}
