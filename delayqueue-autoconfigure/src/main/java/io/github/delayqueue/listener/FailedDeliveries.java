package io.github.delayqueue.listener;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import io.github.delayqueue.core.DeadJob;
import io.github.delayqueue.core.DelayedJobErrorHandler;
import io.github.delayqueue.core.FailureAction;
import io.github.delayqueue.core.JobFailure;
import io.github.delayqueue.core.RateLimitedException;
import io.github.delayqueue.internal.store.JobClaims;
import io.github.delayqueue.internal.store.JobClaims.ClaimedJob;
import io.github.delayqueue.internal.store.JobRecord;
import io.github.delayqueue.internal.support.DueTimeListener;
import io.github.delayqueue.internal.support.JobEventListener;
import io.github.delayqueue.internal.support.TopicPolicy;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Settles the deliveries of one listener whose handler failed: postpones those that
 * report a partner's rate limit ({@link PostponedDeliveries}), asks its
 * {@link DelayedJobErrorHandler}, if it has one, or else decides as the topic's retry
 * configuration does ({@link FailureDecision}), then retries, buries or acknowledges the
 * job, and tells the {@link DeadJobNotifier} of each job it buried.
 *
 * @author delayqueue contributors
 */
final class FailedDeliveries {

	// The executions' category, which applications already set levels for.
	private static final Log logger = LogFactory.getLog(JobExecution.class);

	/**
	 * What became of the job, as the process observation reports it.
	 */
	static final String RETRY = "retry";

	static final String DEAD = "dead";

	static final String ACKNOWLEDGED = "acknowledged";

	private final JobClaims claims;

	private final JobEventListener events;

	private final DueTimeListener dueTimeListener;

	private final BatchingAcknowledger acknowledger;

	private final @Nullable DelayedJobErrorHandler errorHandler;

	private final DeadJobNotifier deadJobs;

	private final PostponedDeliveries postponed;

	FailedDeliveries(JobClaims claims, JobEventListener events, DueTimeListener dueTimeListener,
			BatchingAcknowledger acknowledger, @Nullable DelayedJobErrorHandler errorHandler,
			DeadJobNotifier deadJobs) {
		this.claims = claims;
		this.events = events;
		this.dueTimeListener = dueTimeListener;
		this.acknowledger = acknowledger;
		this.errorHandler = errorHandler;
		this.deadJobs = deadJobs;
		this.postponed = new PostponedDeliveries(claims, events, dueTimeListener);
	}

	/**
	 * Settle a failed delivery.
	 * @param job the delivery
	 * @param record its data
	 * @param policy its topic's policy
	 * @param ttr the delivery's time to run, for the message when it is fenced
	 * @param failure what the handler failed with
	 * @param runTime how long the handler ran
	 * @param deadline the delivery's deadline by the Redis clock, see
	 * {@link JobClaims#retry(ClaimedJob, Duration, String, long)}
	 * @param redisNow the Redis clock now, as far as this instance can tell
	 * @return the outcome for the observation, or {@code null} if the delivery had
	 * expired
	 */
	@Nullable String settle(ClaimedJob job, JobRecord record, TopicPolicy policy, Duration ttr, Throwable failure,
			Duration runTime, long deadline, long redisNow) {
		RateLimitedException rateLimited = PostponedDeliveries.rateLimited(failure);
		if (rateLimited != null) {
			return this.postponed.postpone(job, policy, rateLimited, failure, deadline);
		}
		this.events.jobFailed(job.topic(), runTime, failure);
		FailureDecision configured = FailureDecision.decide(policy, record.maxAttempts(), job.attempt(), failure);
		FailureAction action = ask(job, record, configured.maxAttempts(), failure);
		String what = "Job '" + job.id() + "' of topic '" + job.topic() + "' failed on attempt " + job.attempt()
				+ " of " + configured.maxAttempts();
		switch (action.kind()) {
			case RETRY -> {
				Duration delay = (action.retryDelay() != null) ? action.retryDelay()
						: Duration.ofMillis(Math.max(0, action.retryAt().toEpochMilli() - redisNow));
				return retry(job, delay, FailureDecision.describe(failure), deadline,
						what + " (its error handler" + " asked for another attempt)", failure);
			}
			case DEAD -> {
				logger.warn(what + " and is now dead (its error handler decided so)", failure);
				return bury(job, FailureDecision.describe(failure), deadline, DeadJob.Cause.ERROR_HANDLER, failure,
						record);
			}
			case ACKNOWLEDGE -> {
				logger.info(what + "; its error handler acknowledged it: " + failure);
				this.acknowledger.acknowledge(job, runTime, ttr, deadline);
				return ACKNOWLEDGED;
			}
			default -> {
				if (configured.retry()) {
					return retry(job, configured.delay(), configured.reason(), deadline, what, failure);
				}
				logger.warn(what + " and is now dead"
						+ (configured.nonRetryable() ? " (the failure is not retryable)" : " (no attempts left)"),
						failure);
				return bury(job, configured.reason(), deadline,
						configured.nonRetryable() ? DeadJob.Cause.NON_RETRYABLE : DeadJob.Cause.ATTEMPTS_EXHAUSTED,
						failure, record);
			}
		}
	}

	private FailureAction ask(ClaimedJob job, JobRecord record, int maxAttempts, Throwable failure) {
		if (this.errorHandler == null) {
			return FailureAction.asConfigured();
		}
		try {
			FailureAction action = this.errorHandler.handle(new JobFailure(job.id(), job.topic(), job.attempt(),
					maxAttempts, record.dueAt(), record.headers(), record.payloadJson(), failure));
			if (action != null) {
				return action;
			}
			logger.warn("Error handler " + this.errorHandler + " returned no action for job '" + job.id()
					+ "' of topic '" + job.topic() + "'; deciding as configured");
		}
		catch (RuntimeException ex) {
			logger.warn("Error handler " + this.errorHandler + " failed for job '" + job.id() + "' of topic '"
					+ job.topic() + "'; deciding as configured", ex);
		}
		return FailureAction.asConfigured();
	}

	private @Nullable String retry(ClaimedJob job, Duration delay, String reason, long deadline, String what,
			Throwable failure) {
		long due = this.claims.retry(job, delay, reason, deadline);
		if (due >= 0) {
			this.events.jobRetried(job.topic());
			this.dueTimeListener.jobScheduledInQueue(job.queue(), due);
			logger.warn(what + "; next attempt due at " + Instant.ofEpochMilli(due) + " (in " + delay + ")", failure);
			return RETRY;
		}
		logger.info(what + " after its time to run elapsed; it was delivered again, so this failure is ignored: "
				+ failure);
		return null;
	}

	/**
	 * Make a delivery's job dead and tell the dead-job listeners.
	 * @param job the delivery
	 * @param reason its last error
	 * @param deadline the delivery's deadline, or -1 if unknown
	 * @param cause why it dies
	 * @param failure what its handler failed with, or {@code null}
	 * @param record its data, or {@code null} if unreadable
	 * @return {@link #DEAD}, or {@code null} if the delivery had expired
	 */
	@Nullable String bury(ClaimedJob job, String reason, long deadline, DeadJob.Cause cause, @Nullable Throwable failure,
			@Nullable JobRecord record) {
		if (!this.claims.bury(job, reason, deadline)) {
			return null;
		}
		this.events.jobsDead(job.topic(), 1);
		this.deadJobs.jobDied(new DeadJob(job.id(), job.topic(), job.attempt(), cause, reason, failure,
				(record != null) ? record.headers() : Map.of(), (record != null) ? record.payloadJson() : null));
		return DEAD;
	}

}
