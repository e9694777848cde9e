package io.github.delayqueue.listener;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.delayqueue.internal.store.JobClaims;
import io.github.delayqueue.internal.store.ReconnectBackoff;
import io.github.delayqueue.internal.store.RedisOutageLog;
import io.github.delayqueue.internal.support.DelayQueueThreads;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * One run of a {@link DelayedJobListenerContainer}, from a start to the end of the stop
 * that follows it: its claim loop, its waiters, its workers and the state they share. A
 * restart makes a new run, whose claim loop begins only once the previous run has stopped
 * and its claim loop has ended, so two loops never overlap, even when an old one was left
 * behind stuck in a Redis call.
 * <p>
 * Its parts: {@link ReadyJobClaimer} sends the claims, {@link ReadyWaiters} wait for
 * ready jobs while it is idle, {@link ClaimHandoff} passes the ids they bring, and
 * {@link TopicPauses} keeps paused queues' jobs from starting.
 *
 * @author delayqueue contributors
 */
final class ContainerRun {

	private static final Log logger = LogFactory.getLog(ContainerRun.class);

	private static final Duration THREAD_STOP_TIMEOUT = Duration.ofSeconds(3);

	private static final Duration INTERRUPT_GRACE = Duration.ofSeconds(2);

	private final DelayedJobListenerContainer container;

	// Dropped once it has ended, so that runs do not hold on to a chain of their
	// predecessors.
	private volatile @Nullable ContainerRun predecessor;

	/**
	 * Permits for claimed jobs not yet finished: the concurrency, plus those claimed
	 * ahead while handlers are quick (see {@link #adjustClaimAhead()}).
	 */
	private final ClaimPermits permits;

	private final ClaimHandoff handoff;

	private final TopicPauses pauses;

	private final ReadyWaiters waiters;

	private final ReadyJobClaimer claimer;

	private final TopicLimitGate limits;

	// Whether a topic has a global concurrency: jobs are then never claimed ahead.
	private final boolean globallyBounded;

	private final ThreadPoolExecutor workers;

	private final AsyncCompletions completions;

	private final Thread poller;

	private final CountDownLatch stopped = new CountDownLatch(1);

	private volatile boolean active = true;

	// Set when partitions of the topics were retired: the claim loop reads the queues
	// again at its next turn.
	private volatile boolean queuesChanged;

	/**
	 * Set once a stop gives up waiting and interrupts the handlers still running, so that
	 * their executions know the failure came from us and hand their jobs back.
	 */
	private volatile boolean interruptingHandlers;

	ContainerRun(DelayedJobListenerContainer container, @Nullable ContainerRun predecessor) {
		this.container = container;
		this.predecessor = predecessor;
		JobClaims claims = container.factory().claims();
		int concurrency = container.getConcurrency();
		this.permits = new ClaimPermits(concurrency);
		this.handoff = new ClaimHandoff(this.permits::availablePermits);
		this.pauses = new TopicPauses(System::nanoTime, claims::isPaused);
		String prefix = "delayqueue-" + container.getListenerId();
		DelayQueueThreads threads = container.factory().threads();
		this.waiters = new ReadyWaiters(ReadyWaiters.bound(concurrency, container.getTopics().size()),
				container.factory().getPollTimeout(), threads, prefix, claims, this.handoff, this.pauses);
		// A pool even of virtual threads: it keeps the bound on handlers at once, and a
		// queue of claimed jobs that a stop can hand back.
		this.workers = threads.pool(prefix + "-worker-", concurrency, Duration.ZERO, false);
		this.completions = new AsyncCompletions(this.workers);
		// The one thread that keeps the JVM running: an application whose only work is
		// its listeners must stay up while nothing is ready, as it does once a handler
		// ran. Closing the context (the shutdown hook does) ends it.
		this.poller = threads.keepingAlive(prefix + "-poller", this::claimLoop);
		this.limits = new TopicLimitGate(claims.limiter(), container.factory().policies()::forTopic, this.pauses,
				this.handoff::wake, this.handoff::lookAgain);
		this.globallyBounded = this.limits.anyGloballyBounded(container.getTopics());
		this.claimer = new ReadyJobClaimer(container, this.handoff, this.pauses, this.limits,
				() -> this.interruptingHandlers);
		this.waiters.watch(this.claimer.queues());
	}

	void start() {
		this.handoff.open();
		this.poller.start();
		this.waiters.start();
	}

	/**
	 * Stop: claim nothing more, hand back claimed jobs that have not started so that they
	 * are delivered again at once, and wait up to the shutdown timeout for running
	 * handlers; interrupt those still running then, and hand back the jobs of those that
	 * end by throwing.
	 */
	void stop() {
		try {
			this.active = false;
			List<ClaimHandoff.ReadyId> handedOver = this.handoff.close();
			List<Thread> threads = new ArrayList<>(this.waiters.stop());
			threads.add(0, this.poller);
			// Woken waiters return at once. A thread stuck on an unreachable
			// Redis is left behind: it claims nothing more, and hands back
			// whatever its call still brings. The next run's claim loop waits
			// for it.
			join(threads, THREAD_STOP_TIMEOUT);
			handedOver.addAll(this.handoff.close());
			handedOver.forEach(this::unclaim);
			stopWorkers();
		}
		finally {
			this.stopped.countDown();
		}
	}

	private void stopWorkers() {
		List<Runnable> notStarted = new ArrayList<>();
		this.workers.getQueue().drainTo(notStarted);
		notStarted.forEach(this::handBack);
		this.workers.shutdown();
		try {
			Duration timeout = this.container.factory().shutdownTimeout();
			long deadline = System.nanoTime() + timeout.toNanos();
			int running = this.container.getActiveJobs();
			if (running > 0) {
				logger.info("Listener '" + this.container.getListenerId() + "' is stopping: waiting up to "
						+ print(timeout) + " for " + running + " running job(s)");
			}
			// Asynchronous handlers hold no worker: their futures are waited for too.
			if (!this.workers.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS)
					|| !this.completions.await(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())))) {
				logger.warn(
						"Listener '" + this.container.getListenerId() + "' still had " + this.container.getActiveJobs()
								+ " job(s) running when its shutdown timeout (" + print(timeout)
								+ ") elapsed; interrupting them (cancelling the futures of asynchronous ones): each"
								+ " one whose handler ends by throwing is handed back to READY uncounted, one whose"
								+ " handler completes anyway is acknowledged");
				this.interruptingHandlers = true;
				this.workers.shutdownNow().forEach(this::handBack);
				this.completions.cancelAll();
				// Give interrupted handlers a moment to hand their jobs back while the
				// Redis connection is still open.
				long grace = System.nanoTime() + INTERRUPT_GRACE.toNanos();
				this.workers.awaitTermination(INTERRUPT_GRACE.toMillis(), TimeUnit.MILLISECONDS);
				this.completions.await(Duration.ofNanos(Math.max(0, grace - System.nanoTime())));
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	// As the property is written: 30s, 500ms.
	private static String print(Duration duration) {
		return (duration.toMillis() % 1000 == 0) ? duration.toSeconds() + "s" : duration.toMillis() + "ms";
	}

	/**
	 * Wait until this run has stopped and its claim loop has ended.
	 * @return {@code false} if the waiting thread was interrupted
	 */
	private boolean awaitEnd() {
		try {
			this.stopped.await();
			this.poller.join();
			return true;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	private void claimLoop() {
		ContainerRun previous = this.predecessor;
		if (previous != null) {
			if (!previous.awaitEnd()) {
				return;
			}
			this.predecessor = null;
		}
		int failures = 0;
		boolean topicsRegistered = false;
		long nextQueueRefresh = System.nanoTime();
		// Set when the last idle wait ended with a look that found nothing: looking again
		// straight away would only repeat that claim call.
		boolean foundNothing = false;
		while (this.active) {
			int held = 0;
			try {
				if (!topicsRegistered) {
					// In Redis, not at start: a start must not fail while Redis is away.
					this.container.getTopics().forEach(this.container.factory()::registerTopic);
					topicsRegistered = true;
				}
				if (this.queuesChanged || System.nanoTime() - nextQueueRefresh >= 0) {
					// Cleared first, so that a change told during the read is read again.
					this.queuesChanged = false;
					refreshQueues();
					nextQueueRefresh = System.nanoTime() + this.container.factory().queueRefreshInterval().toNanos();
				}
				if (!this.permits.tryAcquire(200, TimeUnit.MILLISECONDS)) {
					continue;
				}
				held = 1;
				adjustClaimAhead();
				while (held < this.permits.limit() && this.permits.tryAcquire()) {
					held++;
				}
				List<JobExecution> jobs = this.claimer.hasUnanswered() ? this.claimer.claimUnanswered()
						: (foundNothing ? List.of() : this.claimer.claimReady(held));
				if (jobs.isEmpty()) {
					this.permits.release(held - 1);
					held = 1;
					jobs = awaitReady();
				}
				foundNothing = jobs.isEmpty();
				held -= dispatch(jobs, held);
				if (failures > 0) {
					logger.info("Listener '" + this.container.getListenerId() + "' claims jobs again");
					failures = 0;
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				break;
			}
			catch (RuntimeException ex) {
				failures++;
				// Once per outage, also when the application starts while Redis is down.
				RedisOutageLog.failed(logger, "Listener '" + this.container.getListenerId() + "'", "claim jobs",
						failures, ex);
				this.handoff.pause(ReconnectBackoff.delay(failures));
			}
			finally {
				if (held > 0) {
					this.permits.release(held);
				}
			}
		}
		// A stop came while a claim call was unanswered: what it claimed goes back.
		this.claimer.handBackUnanswered();
	}

	/**
	 * Claim ahead of the free workers about {@link RunTimeAverage#CLAIM_AHEAD_WINDOW} of
	 * work per worker, by the recent average run time: the next jobs are then already
	 * here when a worker frees, instead of one claim round trip away. For quick handlers
	 * that round trip, not the handler, bounds the drain rate; slow handlers get nothing
	 * ahead, so that claimed jobs never wait long with their time to run elapsing. A
	 * rate-limited topic's jobs are claimed ahead too, no more than its limit has room
	 * for (see {@link TopicLimitGate#claimable}), and start within that window of their
	 * admission. No job is claimed ahead when a topic has a global concurrency: a job
	 * waiting for a worker would hold a permit another instance could use.
	 */
	private void adjustClaimAhead() {
		this.permits.claimAhead(this.globallyBounded ? 0 : this.container.runTimes().jobsPerClaimAheadWindow());
	}

	/**
	 * Wait, holding one free worker, for a waiter to bring a ready job. Blocking waits
	 * are the way jobs arrive, but only a hint: should they fail for a while, look for
	 * ready jobs anyway now and then, and when a group's hold ends.
	 */
	private List<JobExecution> awaitReady() throws InterruptedException {
		Duration wait = this.container.factory().getPollTimeout().multipliedBy(5);
		// Jobs of held groups are claimable once the first hold ends, and no waiter
		// brings them: none is put forward while every group with jobs waiting is held.
		Duration groupHold = this.limits.untilFirstGroupHoldEnds();
		if (!groupHold.isZero() && groupHold.compareTo(wait) < 0) {
			wait = groupHold;
		}
		ClaimHandoff.ReadyId ready = this.handoff.awaitReady(wait);
		if (!this.active) {
			return List.of();
		}
		return (ready != null) ? this.claimer.claimMoved(ready) : this.claimer.claimReady(1);
	}

	/**
	 * Have the claim loop read the queues again at once, ending its idle wait: partitions
	 * of the topics were retired, and the waiters on them are to leave.
	 */
	void refreshQueuesNow() {
		this.queuesChanged = true;
		this.handoff.lookAgain();
	}

	// Queues another instance or a former number of partitions wrote to are waited on,
	// so that their jobs are claimed as soon as they are ready; those that left their
	// topic's partition set (drained and no longer written) are not.
	private void refreshQueues() {
		this.claimer.setQueues(this.container.factory().claims().queues(this.container.getTopics()));
		List<String> all = this.claimer.queues();
		this.waiters.watch(all);
		this.pauses.retain(all);
	}

	/**
	 * Hand the jobs to the workers, each with one of the permits held. Jobs that cannot
	 * be run, because this run stopped meanwhile or, for a claim call sent again, more
	 * came than permits are held, are handed back, uncounted.
	 * @return how many jobs the workers took, each with one permit
	 */
	private int dispatch(List<JobExecution> jobs, int held) {
		int dispatched = 0;
		for (JobExecution job : jobs) {
			if (this.active && dispatched < held) {
				try {
					this.workers.execute(new Task(job));
					dispatched++;
					continue;
				}
				catch (RejectedExecutionException ex) {
					// The stop shut the workers down between the check and now.
				}
			}
			job.handBack();
		}
		return dispatched;
	}

	private void handBack(Runnable queued) {
		if (DelayQueueThreads.undecorated(queued) instanceof Task runnable) {
			runnable.execution.handBack();
			this.permits.release();
		}
	}

	private void unclaim(ClaimHandoff.ReadyId ready) {
		try {
			this.container.factory().claims().unclaim(ready.queue(), List.of(ready.id()));
		}
		catch (RuntimeException ex) {
			logger.debug("Could not hand back id '" + ready.id() + "'; the scheduler's orphan check will", ex);
		}
	}

	private static void join(List<Thread> threads, Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		for (Thread thread : threads) {
			try {
				thread.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
		}
	}

	private final class Task implements Runnable {

		private final JobExecution execution;

		Task(JobExecution execution) {
			this.execution = execution;
		}

		@Override
		public void run() {
			if (!ContainerRun.this.pauses.allowsStart(this.execution.job().queue())) {
				// Paused since it was claimed: it goes back, uncounted, as at a stop.
				this.execution.handBack();
				ContainerRun.this.permits.release();
				return;
			}
			if (this.execution.tooLateToStart(System.nanoTime())) {
				// Its rate limit counted it as started by now: a later start could
				// put more than the limit in a window. It goes back, uncounted.
				logger.debug("Job '" + this.execution.job().id() + "' waited for a worker past the start its rate"
						+ " limit counted; handed back");
				this.execution.handBack();
				ContainerRun.this.permits.release();
				return;
			}
			AtomicInteger activeJobs = ContainerRun.this.container.activeJobCounter();
			activeJobs.incrementAndGet();
			long start = System.nanoTime();
			CompletableFuture<Void> settled = null;
			try {
				settled = this.execution.run(ContainerRun.this.completions);
				if (settled == null) {
					ContainerRun.this.container.runTimes().add(System.nanoTime() - start);
				}
			}
			catch (RuntimeException ex) {
				logger.error("Settling job '" + this.execution.job().id() + "' failed; it will be delivered again"
						+ " when its time to run elapses", ex);
			}
			finally {
				if (settled == null) {
					finish(activeJobs);
				}
				else {
					// An asynchronous handler holds its permit until its future is
					// settled.
					settled.whenComplete((done, failure) -> {
						ContainerRun.this.container.runTimes().add(System.nanoTime() - start);
						finish(activeJobs);
					});
				}
			}
		}

		private void finish(AtomicInteger activeJobs) {
			activeJobs.decrementAndGet();
			this.execution.releasePermit();
			ContainerRun.this.permits.release();
		}

	}

}
