package io.github.delayqueue.internal.support;

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
 * @param groupConcurrency most handlers of each group of the topic running at once across
 * every instance, or 0 for no bound
 * @param groupRateLimit most handler starts of each group in any window of one
 * {@code groupRatePeriod}, across every instance, or 0 for no rate limit
 * @param groupRatePeriod each group's rate limit window
 * @author delayqueue contributors
 */
public record TopicLimits(int rateLimit, Duration ratePeriod, int globalConcurrency, boolean pauseTopicOn429,
		int groupConcurrency, int groupRateLimit, Duration groupRatePeriod) {

	/**
	 * No limits: the topic's jobs are claimed as fast as the listeners' concurrency
	 * allows.
	 */
	public static final TopicLimits NONE = new TopicLimits(0, Duration.ofSeconds(1), 0, false);

	/**
	 * Limits of a topic whose groups have no bounds of their own.
	 * @param rateLimit most handler starts in any window of one {@code ratePeriod}, or 0
	 * for no rate limit
	 * @param ratePeriod the rate limit's window
	 * @param globalConcurrency most handlers of the topic running at once, or 0 for no
	 * bound
	 * @param pauseTopicOn429 whether a partner's 429 holds the whole topic back
	 */
	public TopicLimits(int rateLimit, Duration ratePeriod, int globalConcurrency, boolean pauseTopicOn429) {
		this(rateLimit, ratePeriod, globalConcurrency, pauseTopicOn429, 0, 0, Duration.ofSeconds(1));
	}

	/**
	 * Tell whether claims of the topic must be admitted under its limits, which costs a
	 * script call per claim that took jobs and one per settled delivery with a global
	 * concurrency.
	 * @return {@code true} if any limit is set
	 */
	public boolean any() {
		return this.rateLimit > 0 || this.globalConcurrency > 0 || this.pauseTopicOn429 || groupsBounded();
	}

	/**
	 * Tell whether each group of the topic has bounds of its own.
	 * @return {@code true} if a group concurrency or rate limit is set
	 */
	public boolean groupsBounded() {
		return this.groupConcurrency > 0 || this.groupRateLimit > 0;
	}

	/**
	 * Tell whether a delivery holds a permit while it runs (a global or group
	 * concurrency), so that its jobs must not be claimed ahead of the free workers.
	 * @return {@code true} if a concurrency across instances is set
	 */
	public boolean concurrencyBounded() {
		return this.globalConcurrency > 0 || this.groupConcurrency > 0;
	}

}
