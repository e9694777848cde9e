package io.github.delayqueue.listener;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

import io.github.delayqueue.core.DeadJob;
import io.github.delayqueue.core.DelayedJob;
import io.github.delayqueue.internal.store.JobClaims;
import io.github.delayqueue.internal.store.JobClaims.ClaimedJob;
import io.github.delayqueue.internal.store.JobRecord;
import io.github.delayqueue.internal.store.JobRecordCodec;
import io.github.delayqueue.internal.support.JobEventListener;
import io.github.delayqueue.internal.support.TopicPolicy;
import io.github.delayqueue.listener.HandlerObservations.HandlerObservation;
import io.micrometer.observation.Observation;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Runs one claimed delivery and settles it: acknowledged when the handler returns (in a
 * batch, see {@link BatchingAcknowledger}), or when the future of an asynchronous handler
 * completes (see {@link AsyncCompletions}); handed to {@link FailedDeliveries} when it
 * fails. A settlement that Redis refuses because the delivery expired meanwhile changes
 * nothing: the job was already delivered again. One that a client sent again after its
 * reply was lost, and that Redis had run, reports what that run did.
 * <p>
 * It is also the lease of the {@link DelayedJob} its handler gets: an extension moves the
 * delivery's deadline, which every settlement then carries.
 *
 * @author delayqueue contributors
 */
final class JobExecution implements DelayedJob.Lease {

	private static final Log logger = LogFactory.getLog(JobExecution.class);

	private static final String SUCCESS = "success";

	private final ClaimedJob job;

	private final long claimedAtRedisMillis;

	private final long claimedAtNanos;

	private final ListenerMethodAdapter method;

	private final TopicPolicy policy;

	private final JobClaims claims;

	private final JobRecordCodec codec;

	private final JobEventListener events;

	private final BatchingAcknowledger acknowledger;

	private final FailedDeliveries failures;

	private final BooleanSupplier interruptedByShutdown;

	private final HandlerObservations observations;

	// Gives back the delivery's global concurrency permit, if it holds one; taken once.
	private final AtomicReference<@Nullable Runnable> permit = new AtomicReference<>();

	private volatile @Nullable String permitMember;

	private volatile @Nullable String permitGroup;

	/**
	 * The delivery's time-to-run deadline in epoch ms by the Redis clock: the claim's,
	 * then the latest extension's. A settlement carries it, which tells one sent again
	 * after a lost reply from a fenced one.
	 */
	private volatile long deadline = -1;

	// Set by a rate limit's admission: the latest System.nanoTime() its handler may
	// start.
	private long startBy;

	private boolean mustStartBy;

	// What an asynchronous handler's settlement needs, set before its future is watched.
	private @Nullable JobRecord record;

	private Duration ttr = Duration.ZERO;

	private long startedAtNanos;

	private HandlerObservation observation = HandlerObservation.NOOP;

	JobExecution(ClaimedJob job, long claimedAtRedisMillis, long claimedAtNanos, ListenerMethodAdapter method,
			TopicPolicy policy, JobClaims claims, JobRecordCodec codec, JobEventListener events,
			BatchingAcknowledger acknowledger, FailedDeliveries failures, BooleanSupplier interruptedByShutdown,
			HandlerObservations observations) {
		this.job = job;
		this.claimedAtRedisMillis = claimedAtRedisMillis;
		this.claimedAtNanos = claimedAtNanos;
		this.method = method;
		this.policy = policy;
		this.claims = claims;
		this.codec = codec;
		this.events = events;
		this.acknowledger = acknowledger;
		this.failures = failures;
		this.interruptedByShutdown = interruptedByShutdown;
		this.observations = observations;
	}

	ClaimedJob job() {
		return this.job;
	}

	/**
	 * A rate limit admitted the delivery counting its start as no later than this, see
	 * {@code TopicLimitGate#startWindow}. Set before the job goes to a worker.
	 * @param nanos the latest {@link System#nanoTime()} to start at
	 */
	void mustStartBy(long nanos) {
		this.startBy = nanos;
		this.mustStartBy = true;
	}

	/**
	 * Tell whether a rate limit admitted the delivery for an earlier start than now: it
	 * must not start, but go back to READY.
	 * @param now the current {@link System#nanoTime()}
	 * @return {@code true} if too late
	 */
	boolean tooLateToStart(long now) {
		return this.mustStartBy && now - this.startBy > 0;
	}

	/**
	 * The delivery holds a global concurrency permit of its topic, or of its group, to
	 * give back once it is settled or handed back, and to keep as long as an extended
	 * time to run.
	 * @param member the name the permit is held under
	 * @param group the group whose permit it holds too, or {@code null}
	 * @param release gives the permit back
	 */
	void holdsPermit(String member, @Nullable String group, Runnable release) {
		this.permitMember = member;
		this.permitGroup = group;
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

	/**
	 * Run the handler and, unless it is asynchronous, settle the delivery.
	 * @param completions watches the futures of asynchronous handlers
	 * @return {@code null} once the delivery is settled or handed back; for an
	 * asynchronous handler, a future that completes once its completion settled the
	 * delivery, or its time to run elapsed first
	 */
	@Nullable CompletableFuture<Void> run(AsyncCompletions completions) {
		String topic = this.job.topic();
		JobRecord record;
		try {
			record = this.codec.decode(this.job.record());
		}
		catch (IllegalArgumentException ex) {
			logger.warn("Job '" + this.job.id() + "' of topic '" + topic + "' has unreadable data; it is now dead", ex);
			// Its own time to run is unreadable too, so its deadline is unknown.
			this.failures.bury(this.job, FailureDecision.describe(ex), -1, DeadJob.Cause.UNREADABLE, ex, null);
			return null;
		}
		Duration ttr = (record.ttr() != null) ? record.ttr() : this.policy.ttr();
		// As the claim set it: a settlement sent again after a lost reply is told apart
		// from a fenced one by it.
		this.deadline = this.claimedAtRedisMillis + ttr.toMillis();
		long waitedNanos = System.nanoTime() - this.claimedAtNanos;
		if (waitedNanos > ttr.toNanos() / 2) {
			// Claimed ahead and kept waiting by slow handlers: starting now would risk
			// running past the time to run, so hand it back uncounted instead.
			handBack();
			return null;
		}
		this.events.jobStarted(topic,
				Duration.ofMillis(Math.max(0, redisNow(waitedNanos) - record.dueAt().toEpochMilli())));
		HandlerObservation observation = this.observations.start(this.job, record);
		long start = System.nanoTime();
		CompletableFuture<?> completion;
		try (Observation.Scope scope = observation.openScope()) {
			completion = this.method.invoke(topic, this.job.id(), this.job.attempt(), record, this);
		}
		catch (Throwable failure) {
			failed(record, ttr, observation, start, failure);
			return null;
		}
		if (completion != null) {
			this.record = record;
			this.ttr = ttr;
			this.observation = observation;
			this.startedAtNanos = start;
			return completions.watch(this, completion);
		}
		succeeded(ttr, observation, start);
		return null;
	}

	/**
	 * Settle the delivery of an asynchronous handler whose future completed.
	 * @param failure what it failed with, or {@code null} if it succeeded
	 */
	void completed(@Nullable Throwable failure) {
		JobRecord record = this.record;
		if (record == null) {
			throw new IllegalStateException("Job '" + this.job.id() + "' did not start asynchronously");
		}
		if (failure == null) {
			succeeded(this.ttr, this.observation, this.startedAtNanos);
		}
		else {
			failed(record, this.ttr, this.observation, this.startedAtNanos, unwrap(failure));
		}
	}

	/**
	 * The time to run of an asynchronous handler's delivery elapsed before its future
	 * completed: the job is delivered again (or dies) as for any elapsed time to run, and
	 * whatever the future does later changes nothing.
	 */
	void expired() {
		logger.warn("Job '" + this.job.id() + "' of topic '" + this.job.topic() + "' did not complete within its time"
				+ " to run (" + this.ttr + ", extensions included); its future was cancelled and the job will be"
				+ " delivered again, or be dead if no attempt is left");
		this.observation.stop(null, new TimeoutException("Time to run elapsed"));
	}

	/**
	 * Return how long until the delivery's deadline, by this instance's clock.
	 * @return the nanoseconds, negative once it passed
	 */
	long nanosUntilDeadline() {
		long sinceClaim = System.nanoTime() - this.claimedAtNanos;
		return (this.deadline - this.claimedAtRedisMillis) * 1_000_000 - sinceClaim;
	}

	@Override
	public boolean extend(Duration ttr) {
		long extended = this.claims.extendTtr(this.job, ttr);
		if (extended < 0) {
			logger.info("Job '" + this.job.id() + "' of topic '" + this.job.topic() + "': extending its time to run was"
					+ " refused; the delivery expired or the job was delivered again");
			return false;
		}
		synchronized (this) {
			if (extended > this.deadline) {
				this.deadline = extended;
			}
		}
		String member = this.permitMember;
		if (member != null && this.permit.get() != null) {
			try {
				this.claims.limiter().extend(this.job.topic(), this.permitGroup, member, extended);
			}
			catch (RuntimeException ex) {
				logger.warn("Job '" + this.job.id() + "' of topic '" + this.job.topic() + "': its global concurrency"
						+ " permit could not be kept for the extended time to run; it is free again at the old one",
						ex);
			}
		}
		return true;
	}

	private void succeeded(Duration ttr, HandlerObservation observation, long start) {
		observation.stop(SUCCESS, null);
		Duration runTime = Duration.ofNanos(System.nanoTime() - start);
		long deadline = this.deadline;
		if (this.interruptedByShutdown.getAsBoolean()) {
			// Completed despite our interrupt: acknowledge it with the interrupt set
			// aside, as the hand-back does.
			withoutInterrupt(() -> this.acknowledger.acknowledge(this.job, runTime, ttr, deadline));
			return;
		}
		this.acknowledger.acknowledge(this.job, runTime, ttr, deadline);
	}

	private void failed(JobRecord record, Duration ttr, HandlerObservation observation, long start, Throwable failure) {
		if (this.interruptedByShutdown.getAsBoolean() && !(failure instanceof VirtualMachineError)) {
			// Our own stop cut the handler off: not the job's fault, so it must not
			// spend an attempt. Hand it back for another consumer to run at once.
			logger.info("Job '" + this.job.id() + "' of topic '" + this.job.topic()
					+ "' was interrupted by the listener's shutdown; handed back to READY uncounted");
			withoutInterrupt(this::handBack);
			observation.stop(null, failure);
			return;
		}
		String outcome = null;
		try {
			outcome = this.failures.settle(this.job, record, this.policy, ttr, failure,
					Duration.ofNanos(System.nanoTime() - start), this.deadline,
					redisNow(System.nanoTime() - this.claimedAtNanos));
		}
		finally {
			observation.stop(outcome, failure);
		}
		if (failure instanceof VirtualMachineError error) {
			throw error;
		}
	}

	// The Redis clock now, from the claim's reading of it and the time since.
	private long redisNow(long nanosSinceClaim) {
		return this.claimedAtRedisMillis + nanosSinceClaim / 1_000_000;
	}

	// What an asynchronous handler failed with, out of the wrappers futures add.
	private static Throwable unwrap(Throwable failure) {
		Throwable cause = failure;
		while ((cause instanceof CompletionException || cause instanceof ExecutionException)
				&& cause.getCause() != null) {
			cause = cause.getCause();
		}
		return cause;
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

	@Override
	public String toString() {
		return "JobExecution[" + this.job.id() + " of " + this.job.topic() + ", attempt " + this.job.attempt() + "]";
	}

}
