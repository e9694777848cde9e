package io.github.delayqueue.listener;

import java.time.Duration;
import java.time.Instant;

import io.github.delayqueue.core.RateLimitedException;
import io.github.delayqueue.internal.store.JobClaims;
import io.github.delayqueue.internal.store.JobClaims.ClaimedJob;
import io.github.delayqueue.internal.support.DueTimeListener;
import io.github.delayqueue.internal.support.JobEventListener;
import io.github.delayqueue.internal.support.TopicPolicy;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Settles the deliveries whose handler reported a partner's rate limit
 * ({@link RateLimitedException}): the job did not fail, so it runs again after the wait
 * the partner asked for with its attempt given back, and with
 * {@code rate-limit.pause-topic-on-429} its whole topic holds back as long on every
 * instance. Neither the error handler nor the retry configuration is asked.
 *
 * @author delayqueue contributors
 */
final class PostponedDeliveries {

	// The executions' category, which applications already set levels for.
	private static final Log logger = LogFactory.getLog(JobExecution.class);

	private final JobClaims claims;

	private final JobEventListener events;

	private final DueTimeListener dueTimeListener;

	PostponedDeliveries(JobClaims claims, JobEventListener events, DueTimeListener dueTimeListener) {
		this.claims = claims;
		this.events = events;
		this.dueTimeListener = dueTimeListener;
	}

	/**
	 * Return the rate limit a handler reported: its own exception, or one it wrapped.
	 * @param failure what the handler failed with
	 * @return the report, or {@code null} if it failed otherwise
	 */
	static @Nullable RateLimitedException rateLimited(Throwable failure) {
		Throwable cause = failure;
		// A few causes deep: a cause chain may loop.
		for (int depth = 0; cause != null && depth < 8; depth++) {
			if (cause instanceof RateLimitedException rateLimited) {
				return rateLimited;
			}
			cause = cause.getCause();
		}
		return null;
	}

	/**
	 * Have a rate-limited delivery's job run again after the wait, uncounted.
	 * @param job the delivery
	 * @param policy its topic's policy
	 * @param rateLimited what the handler reported
	 * @param failure what the handler threw, kept as the last error
	 * @param deadline the delivery's deadline by the Redis clock, or -1 if unknown
	 * @return {@link FailedDeliveries#RETRY}, or {@code null} if the delivery had expired
	 */
	@Nullable String postpone(ClaimedJob job, TopicPolicy policy, RateLimitedException rateLimited, Throwable failure,
			long deadline) {
		String topic = job.topic();
		Duration wait = rateLimited.getRetryAfter();
		boolean holdTopic = policy.limits().pauseTopicOn429();
		if (holdTopic) {
			try {
				this.claims.limiter().hold(topic, wait);
			}
			catch (RuntimeException ex) {
				logger.warn("Could not hold topic '" + topic + "' back for " + wait + "; its other jobs still run", ex);
			}
		}
		long due = this.claims.postpone(job, wait, FailureDecision.describe(failure), deadline);
		if (due < 0) {
			logger.info("Job '" + job.id() + "' of topic '" + topic + "' was rate limited after its time to run"
					+ " elapsed; it was delivered again, so this is ignored: " + failure);
			return null;
		}
		this.events.jobRetried(topic);
		this.dueTimeListener.jobScheduledInQueue(job.queue(), due);
		logger.info("Job '" + job.id() + "' of topic '" + topic + "' was rate limited; it runs again at "
				+ Instant.ofEpochMilli(due) + " (in " + wait + "), no attempt spent"
				+ (holdTopic ? ", and the topic holds back until then" : "") + ": " + rateLimited.getMessage());
		return FailedDeliveries.RETRY;
	}

}
