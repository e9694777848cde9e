package io.github.delayqueue.support;

import java.time.Duration;

/**
 * The limits of one topic across every instance, beside each listener's own concurrency.
 *
 * @param rateLimit most handler starts in any window of one {@code ratePeriod}, across
 * every instance, or 0 for no rate limit
 * @param ratePeriod the rate limit's window
 * @param globalConcurrency most handlers of the topic running at once across every
 * instance, or 0 for no bound
 * @param pauseTopicOn429 whether a handler that reports being rate limited (a partner's
 * 429) holds the whole topic back for the wait it reports, on every instance, rather than
 * its job alone
 * @author delayqueue contributors
 */
public record TopicLimits(int rateLimit, Duration ratePeriod, int globalConcurrency, boolean pauseTopicOn429) {

	/**
	 * No limits: the topic's jobs are claimed as fast as the listeners' concurrency
	 * allows.
	 */
	public static final TopicLimits NONE = new TopicLimits(0, Duration.ofSeconds(1), 0, false);

	/**
	 * Tell whether claims of the topic must be admitted under its limits, which costs a
	 * script call per claim that took jobs and one per settled delivery with a global
	 * concurrency.
	 * @return {@code true} if any limit is set
	 */
	public boolean any() {
		return this.rateLimit > 0 || this.globalConcurrency > 0 || this.pauseTopicOn429;
	}

}
