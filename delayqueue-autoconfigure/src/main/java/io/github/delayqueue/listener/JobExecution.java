package io.github.delayqueue.listener;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

import io.github.delayqueue.core.RateLimitedException;
import io.github.delayqueue.support.DueTimeListener;
import io.github.delayqueue.support.JobEventListener;
import io.github.delayqueue.support.TopicPolicy;
import io.github.delayqueue.listener.HandlerObservations.HandlerObservation;
import io.github.delayqueue.store.JobClaims.ClaimedJob;
import io.github.delayqueue.store.JobClaims;
import io.github.delayqueue.store.JobRecord;
import io.github.delayqueue.store.JobRecordCodec;
import io.micrometer.observation.Observation;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Runs one claimed delivery on a worker thread and settles it: acknowledged when the
 * handler returns (in a batch, see {@link BatchingAcknowledger}), retried or buried when
 * it throws. A settlement that Redis refuses because the delivery expired meanwhile
 * changes nothing: the job was already delivered again. One that a client sent again
 * after its reply was lost, and that Redis had run, reports what that run did.
 *
 * @author delayqueue contributors
 */
final class JobExecution implements Runnable {

	private static final Log logger = LogFactory.getLog(JobExecution.class);

	private final ClaimedJob job;

	private final long claimedAtRedisMillis;

	private final long claimedAtNanos;

	private final ListenerMethodAdapter method;

	private final TopicPolicy policy;

	private final JobClaims claims;

	private final JobRecordCodec codec;

	private final JobEventListener events;

	private final DueTimeListener dueTimeListener;

	private final BatchingAcknowledger acknowledger;

	private final BooleanSupplier interruptedByShutdown;

	private final HandlerObservations observations;

	// Gives back the delivery's global concurrency permit, if it holds one; taken once.
	private final AtomicReference<@Nullable Runnable> permit = new AtomicReference<>();

	JobExecution(ClaimedJob job, long claimedAtRedisMillis, long claimedAtNanos, ListenerMethodAdapter method,
			TopicPolicy policy, JobClaims claims, JobRecordCodec codec, JobEventListener events,
			DueTimeListener dueTimeListener, BatchingAcknowledger acknowledger, BooleanSupplier interruptedByShutdown,
			HandlerObservations observations) {
		this.observations = observations;
		this.interruptedByShutdown = interruptedByShutdown;
		this.dueTimeListener = dueTimeListener;
		this.acknowledger = acknowledger;
		this.job = job;
		this.claimedAtRedisMillis = claimedAtRedisMillis;
		this.claimedAtNanos = claimedAtNanos;
		this.method = method;
		this.policy = policy;
		this.claims = claims;
		this.codec = codec;
		this.events = events;
	}

	ClaimedJob job() {
		return this.job;
	}

	/**
	 * The delivery holds a global concurrency permit of its topic, to give back once it
	 * is settled or handed back.
	 * @param release gives the permit back
	 */
	void holdsPermit(Runnable release) {
		this.permit.set(release);
	}

	/**
	 * Give back the delivery's global concurrency permit, if it holds one and has not
	 * given it back yet. Should Redis be unreachable, the permit is free again when the
	 * delivery's time to run ends.
	 */
	void releasePermit() {
		Runnable release = this.permit.getAndSet(null);
		if (release != null) {
			try {
				release.run();
			}
			catch (RuntimeException ex) {
				logger.debug("Could not give back the permit of job '" + this.job.id() + "' of topic '"
						+ this.job.topic() + "'; it is free again when the delivery's time to run ends", ex);
			}
		}
	}

	@Override
	public void run() {
		String topic = this.job.topic();
		JobRecord record;
		try {
			record = this.codec.decode(this.job.record());
		}
		catch (IllegalArgumentException ex) {
			logger.warn("Job '" + this.job.id() + "' of topic '" + topic + "' has unreadable data; it is now dead", ex);
			// Its own time to run is unreadable too, so its deadline is unknown.
			bury(FailureDecision.describe(ex), -1);
			return;
		}
		Duration ttr = (record.ttr() != null) ? record.ttr() : this.policy.ttr();
		// As the claim set it: a settlement sent again after a lost reply is told apart
		// from a fenced one by it.
		long deadline = this.claimedAtRedisMillis + ttr.toMillis();
		long waitedNanos = System.nanoTime() - this.claimedAtNanos;
		if (waitedNanos > ttr.toNanos() / 2) {
			// Claimed ahead and kept waiting by slow handlers: starting now would risk
			// running past the time to run, so hand it back uncounted instead.
			handBack();
			return;
		}
		long sinceClaimMillis = waitedNanos / 1_000_000;
		long nowRedis = this.claimedAtRedisMillis + sinceClaimMillis;
		this.events.jobStarted(topic, Duration.ofMillis(Math.max(0, nowRedis - record.dueAt().toEpochMilli())));
		HandlerObservation observation = this.observations.start(this.job, record);
		long start = System.nanoTime();
		try (Observation.Scope scope = observation.openScope()) {
			this.method.invoke(topic, this.job.id(), this.job.attempt(), record);
		}
		catch (Throwable failure) {
			if (this.interruptedByShutdown.getAsBoolean() && !(failure instanceof VirtualMachineError)) {
				// Our own stop cut the handler off: not the job's fault, so it must not
				// spend an attempt. Hand it back for another consumer to run at once.
				logger.info("Job '" + this.job.id() + "' of topic '" + topic
						+ "' was interrupted by the listener's shutdown; handed back to READY uncounted");
				withoutInterrupt(this::handBack);
				observation.stop(null, failure);
				return;
			}
			String outcome = null;
			try {
				outcome = failed(record, Duration.ofNanos(System.nanoTime() - start), failure, deadline);
			}
			finally {
				observation.stop(outcome, failure);
			}
			if (failure instanceof VirtualMachineError error) {
				throw error;
			}
			return;
		}
		observation.stop(SUCCESS, null);
		Duration runTime = Duration.ofNanos(System.nanoTime() - start);
		if (this.interruptedByShutdown.getAsBoolean()) {
			// Completed despite our interrupt: acknowledge it with the interrupt set
			// aside, as the hand-back does.
			withoutInterrupt(() -> this.acknowledger.acknowledge(this.job, runTime, ttr, deadline));
			return;
		}
		this.acknowledger.acknowledge(this.job, runTime, ttr, deadline);
	}

	// What became of the job, as the process observation reports it.
	private static final String SUCCESS = "success";

	private static final String RETRY = "retry";

	private static final String DEAD = "dead";

	private @Nullable String failed(JobRecord record, Duration runTime, Throwable failure, long deadline) {
		String topic = this.job.topic();
		RateLimitedException rateLimited = rateLimited(failure);
		if (rateLimited != null) {
			return postpone(rateLimited, failure, deadline);
		}
		this.events.jobFailed(topic, runTime, failure);
		FailureDecision decision = FailureDecision.decide(this.policy, record.maxAttempts(), this.job.attempt(),
				failure);
		String what = "Job '" + this.job.id() + "' of topic '" + topic + "' failed on attempt " + decision.attempt()
				+ " of " + decision.maxAttempts();
		if (decision.retry()) {
			long due = this.claims.retry(this.job, decision.delay(), decision.reason(), deadline);
			if (due >= 0) {
				this.events.jobRetried(topic);
				this.dueTimeListener.jobScheduledInQueue(this.job.queue(), due);
				logger.warn(
						what + "; next attempt due at " + Instant.ofEpochMilli(due) + " (in " + decision.delay() + ")",
						failure);
				return RETRY;
			}
			logger.info(what + " after its time to run elapsed; it was delivered again, so this failure is"
					+ " ignored: " + failure);
			return null;
		}
		else {
			logger.warn(
					what + " and is now dead"
							+ (decision.nonRetryable() ? " (the failure is not retryable)" : " (no attempts left)"),
					failure);
			return bury(decision.reason(), deadline) ? DEAD : null;
		}
	}

	/**
	 * Have the job run again after the wait a partner asked for, its attempt given back,
	 * and with {@code rate-limit.pause-topic-on-429} hold its whole topic back as long,
	 * on every instance.
	 */
	private @Nullable String postpone(RateLimitedException rateLimited, Throwable failure, long deadline) {
		String topic = this.job.topic();
		Duration wait = rateLimited.getRetryAfter();
		if (this.policy.limits().pauseTopicOn429()) {
			try {
				this.claims.limiter().hold(topic, wait);
			}
			catch (RuntimeException ex) {
				logger.warn("Could not hold topic '" + topic + "' back for " + wait + "; its other jobs still run", ex);
			}
		}
		long due = this.claims.postpone(this.job, wait, FailureDecision.describe(failure), deadline);
		if (due < 0) {
			logger.info("Job '" + this.job.id() + "' of topic '" + topic + "' was rate limited after its time to run"
					+ " elapsed; it was delivered again, so this is ignored: " + failure);
			return null;
		}
		this.events.jobRetried(topic);
		this.dueTimeListener.jobScheduledInQueue(this.job.queue(), due);
		logger.info("Job '" + this.job.id() + "' of topic '" + topic + "' was rate limited; it runs again at "
				+ Instant.ofEpochMilli(due) + " (in " + wait + "), no attempt spent"
				+ (this.policy.limits().pauseTopicOn429() ? ", and the topic holds back until then" : "") + ": "
				+ rateLimited.getMessage());
		return RETRY;
	}

	// The handler's own, or one it wrapped; a few causes deep, as a cause chain may loop.
	private static @Nullable RateLimitedException rateLimited(Throwable failure) {
		Throwable cause = failure;
		for (int depth = 0; cause != null && depth < 8; depth++) {
			if (cause instanceof RateLimitedException rateLimited) {
				return rateLimited;
			}
			cause = cause.getCause();
		}
		return null;
	}

	/**
	 * Hand the delivery back to the front of the ready list, unstarted and uncounted.
	 */
	void handBack() {
		try {
			this.claims.release(this.job);
		}
		catch (RuntimeException ex) {
			logger.warn("Could not hand back job '" + this.job.id() + "' of topic '" + this.job.topic()
					+ "'; it will be delivered again when its time to run elapses", ex);
		}
		releasePermit();
	}

	/**
	 * Settle a delivery whose handler our shutdown interrupted. The interrupt is set
	 * aside meanwhile, since a client waiting on an interrupted thread gives up, and
	 * restored after.
	 */
	private static void withoutInterrupt(Runnable settlement) {
		boolean interrupted = Thread.interrupted();
		try {
			settlement.run();
		}
		finally {
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

	private boolean bury(String reason, long deadline) {
		if (this.claims.bury(this.job, reason, deadline)) {
			this.events.jobsDead(this.job.topic(), 1);
			return true;
		}
		return false;
	}

}
