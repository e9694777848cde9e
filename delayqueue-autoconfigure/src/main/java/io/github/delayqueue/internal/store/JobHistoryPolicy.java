package io.github.delayqueue.internal.store;

import java.time.Duration;

/**
 * What a topic keeps of its jobs' past: finished jobs for a while, and each job's
 * timeline.
 *
 * @param completedRetention how long a completed or cancelled job stays findable;
 * {@link Duration#ZERO} keeps none
 * @param completedMaxCount the most completed jobs, and the most cancelled ones, kept per
 * queue; the oldest go first
 * @param timeline whether each step of each job is recorded in its timeline
 * @param timelineMaxEvents the most steps a job's timeline keeps; the oldest go first
 * @author delayqueue contributors
 */
public record JobHistoryPolicy(Duration completedRetention, int completedMaxCount, boolean timeline,
		int timelineMaxEvents) {

	/**
	 * The most steps a job's timeline keeps unless set otherwise.
	 */
	public static final int DEFAULT_TIMELINE_MAX_EVENTS = 50;

	/**
	 * How long the timeline of a finished job lasts when its topic keeps no finished job.
	 */
	public static final Duration FINISHED_TIMELINE_TTL = Duration.ofHours(1);

	/**
	 * Keeps nothing: the default.
	 */
	public static final JobHistoryPolicy OFF = new JobHistoryPolicy(Duration.ZERO, 0);

	/**
	 * Create a policy that records no timeline.
	 * @param completedRetention how long a completed or cancelled job stays findable
	 * @param completedMaxCount the most completed jobs, and the most cancelled ones, kept
	 * per queue
	 */
	public JobHistoryPolicy(Duration completedRetention, int completedMaxCount) {
		this(completedRetention, completedMaxCount, false, DEFAULT_TIMELINE_MAX_EVENTS);
	}

	/**
	 * Return this policy with each job's timeline recorded.
	 * @param maxEvents the most steps a job's timeline keeps
	 * @return the policy
	 */
	public JobHistoryPolicy withTimeline(int maxEvents) {
		return new JobHistoryPolicy(this.completedRetention, this.completedMaxCount, true, maxEvents);
	}

	/**
	 * Whether finished jobs are kept at all.
	 * @return {@code true} if a retention and a count above zero are set
	 */
	public boolean keepsFinished() {
		return this.completedRetention.toMillis() > 0 && this.completedMaxCount > 0;
	}

	/**
	 * How long a job's timeline lasts after the job completed or was cancelled: as long
	 * as the topic keeps finished jobs, or {@link #FINISHED_TIMELINE_TTL} when it keeps
	 * none.
	 * @return the time
	 */
	public Duration finishedTimelineTtl() {
		return keepsFinished() ? this.completedRetention : FINISHED_TIMELINE_TTL;
	}

	/**
	 * Return the timeline argument of the scripts that move a queue's jobs:
	 * {@code cap|keep ms|instance|key prefix}, or empty when the topic records no
	 * timeline (see {@code timeline} in {@code lib/timeline.lua}).
	 * @param keys the keys of the queue
	 * @param instance names the instance that moves the jobs, empty for none; a {@code |}
	 * in it is replaced
	 * @return the argument
	 */
	public String timelineArgument(TopicKeys keys, String instance) {
		if (!this.timeline) {
			return "";
		}
		return this.timelineMaxEvents + "|" + finishedTimelineTtl().toMillis() + "|" + instance.replace('|', '/') + "|"
				+ keys.timelinePrefix();
	}

}
