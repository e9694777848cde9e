package io.github.delayqueue.listener;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.delayqueue.core.JobClaims;
import io.github.delayqueue.core.JobClaims.Claim;
import io.github.delayqueue.core.JobClaims.ClaimedJob;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.scheduling.concurrent.CustomizableThreadFactory;

/**
 * Runs one listener: claims jobs of its topics, in priority order, only while a worker is
 * free, and runs them on a pool of {@code concurrency} workers. When nothing is ready it
 * waits on blocking moves, one per topic (see {@link ReadyJobWaiter}), instead of
 * polling. Stopping stops claiming, hands back claimed jobs that have not started, and
 * waits up to the shutdown timeout for running handlers.
 *
 * @author delayqueue contributors
 */
public class DelayedJobListenerContainer {

	private static final Log logger = LogFactory.getLog(DelayedJobListenerContainer.class);

	private static final Duration THREAD_STOP_TIMEOUT = Duration.ofSeconds(3);

	private static final Duration INTERRUPT_GRACE = Duration.ofSeconds(2);

	private final DelayedJobListenerEndpoint endpoint;

	private final DelayedJobListenerContainerFactory factory;

	private final int concurrency;

	/**
	 * Permits for claimed jobs not yet finished: {@code concurrency}, plus those claimed
	 * ahead while handlers are quick (see {@link #adjustPrefetch()}).
	 */
	private final ClaimPermits freeWorkers;

	private final RunTimeAverage runTimes = new RunTimeAverage();

	private int claimLimit;

	private final AtomicInteger activeJobs = new AtomicInteger();

	private final ClaimHandoff handoff = new ClaimHandoff();

	private final BatchingAcknowledger acknowledger;

	private final Object lifecycleMonitor = new Object();

	private volatile boolean running;

	/**
	 * Set once a stop gives up waiting and interrupts the handlers still running, so that
	 * their executions know the failure came from us and hand their jobs back.
	 */
	private volatile boolean interruptingHandlers;

	private @Nullable ThreadPoolExecutor workers;

	private final List<Thread> threads = new ArrayList<>();

	private final List<ReadyJobWaiter> waiters = new ArrayList<>();

	DelayedJobListenerContainer(DelayedJobListenerEndpoint endpoint, DelayedJobListenerContainerFactory factory,
			int concurrency) {
		this.endpoint = endpoint;
		this.factory = factory;
		this.concurrency = concurrency;
		this.freeWorkers = new ClaimPermits(concurrency);
		this.claimLimit = concurrency;
		this.acknowledger = new BatchingAcknowledger(factory.claims(), factory.events());
	}

	/**
	 * Return the listener's id.
	 * @return the id
	 */
	public String getListenerId() {
		return this.endpoint.id();
	}

	/**
	 * Return the topics, highest priority first.
	 * @return the topics
	 */
	public List<String> getTopics() {
		return this.endpoint.topics();
	}

	/**
	 * Return how many jobs run at once at most.
	 * @return the concurrency
	 */
	public int getConcurrency() {
		return this.concurrency;
	}

	/**
	 * Return how many jobs are running now.
	 * @return the number of handlers running
	 */
	public int getActiveJobs() {
		return this.activeJobs.get();
	}

	/**
	 * Return whether the listener should start with the application.
	 * @return {@code true} to start automatically
	 */
	public boolean isAutoStartup() {
		return this.endpoint.autoStartup();
	}

	/**
	 * Return whether the listener is running.
	 * @return {@code true} while running
	 */
	public boolean isRunning() {
		return this.running;
	}

	/**
	 * Start claiming and running jobs.
	 */
	public void start() {
		synchronized (this.lifecycleMonitor) {
			if (this.running) {
				return;
			}
			this.running = true;
			this.interruptingHandlers = false;
			this.handoff.open();
			this.endpoint.topics().forEach(this.factory::registerTopic);
			String prefix = "delayqueue-" + this.endpoint.id();
			this.workers = new ThreadPoolExecutor(this.concurrency, this.concurrency, 0, TimeUnit.SECONDS,
					new LinkedBlockingQueue<>(), new CustomizableThreadFactory(prefix + "-worker-"));
			this.threads.clear();
			this.waiters.clear();
			Thread poller = thread(prefix + "-poller", this::claimLoop);
			// The one non-daemon thread: an application whose only work is its listeners
			// must stay up while nothing is ready, as it does once a handler ran. Closing
			// the context (the shutdown hook does) ends it.
			poller.setDaemon(false);
			this.threads.add(poller);
			for (String topic : this.endpoint.topics()) {
				ReadyJobWaiter waiter = new ReadyJobWaiter(topic, this.factory.claims(),
						this.factory.connectionFactory(), this.factory.getPollTimeout(), this.handoff);
				this.waiters.add(waiter);
				this.threads.add(thread(prefix + "-waiter-" + topic, waiter));
			}
			this.threads.forEach(Thread::start);
		}
	}

	/**
	 * Stop: claim nothing more, hand back claimed jobs that have not started so that they
	 * are delivered again at once, and wait up to the shutdown timeout for running
	 * handlers.
	 */
	public void stop() {
		ThreadPoolExecutor pool;
		synchronized (this.lifecycleMonitor) {
			if (!this.running) {
				return;
			}
			this.running = false;
			pool = this.workers;
		}
		List<ClaimHandoff.ReadyId> handedOver = this.handoff.close();
		this.waiters.forEach(ReadyJobWaiter::wakeUp);
		// Woken waiters return at once; one stuck on an unreachable Redis is left behind:
		// it
		// claims nothing more, and hands back whatever its wait still brings.
		join(this.threads, THREAD_STOP_TIMEOUT);
		handedOver.addAll(this.handoff.close());
		handedOver.forEach(this::unclaim);
		if (pool != null) {
			List<Runnable> notStarted = new ArrayList<>();
			pool.getQueue().drainTo(notStarted);
			notStarted.forEach(this::handBack);
			pool.shutdown();
			try {
				if (!pool.awaitTermination(this.factory.shutdownTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
					logger.warn("Listener '" + this.endpoint.id() + "' still had " + this.activeJobs.get()
							+ " job(s) running when its shutdown timeout (" + this.factory.shutdownTimeout()
							+ ") elapsed; interrupting them: each one whose handler ends by throwing is handed back"
							+ " to READY uncounted, one whose handler completes anyway is acknowledged");
					this.interruptingHandlers = true;
					pool.shutdownNow().forEach(this::handBack);
					// Give interrupted handlers a moment to hand their jobs back while
					// the
					// Redis connection is still open.
					pool.awaitTermination(INTERRUPT_GRACE.toMillis(), TimeUnit.MILLISECONDS);
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

	private void claimLoop() {
		int failures = 0;
		// Set when the last idle wait ended with a look that found nothing: looking again
		// straight away would only repeat that claim call.
		boolean foundNothing = false;
		while (this.running) {
			int held = 0;
			try {
				if (!this.freeWorkers.tryAcquire(200, TimeUnit.MILLISECONDS)) {
					continue;
				}
				held = 1;
				adjustPrefetch();
				while (held < this.claimLimit && this.freeWorkers.tryAcquire()) {
					held++;
				}
				List<JobExecution> jobs = foundNothing ? List.of() : claimReady(held);
				if (jobs.isEmpty()) {
					this.freeWorkers.release(held - 1);
					held = 1;
					jobs = awaitReady();
				}
				foundNothing = jobs.isEmpty();
				for (JobExecution job : jobs) {
					dispatch(job);
					held--;
				}
				failures = 0;
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				break;
			}
			catch (RuntimeException ex) {
				failures++;
				if (failures == 1) {
					logger.warn("Listener '" + this.endpoint.id() + "' cannot claim jobs; retrying", ex);
				}
				this.handoff.pause(Duration.ofMillis(Math.min(2000, 50L << Math.min(failures, 6))));
			}
			finally {
				if (held > 0) {
					this.freeWorkers.release(held);
				}
			}
		}
	}

	/**
	 * Claim ahead of the free workers about {@link RunTimeAverage#CLAIM_AHEAD_WINDOW} of
	 * work per worker, by the recent average run time: the next jobs are then already
	 * here when a worker frees, instead of one claim round trip away. For quick handlers
	 * that round trip, not the handler, bounds the drain rate; slow handlers get nothing
	 * ahead, so that claimed jobs never wait long with their time to run elapsing.
	 */
	private void adjustPrefetch() {
		int limit = this.concurrency * (1 + this.runTimes.jobsPerClaimAheadWindow());
		if (limit > this.claimLimit) {
			this.freeWorkers.release(limit - this.claimLimit);
		}
		else if (limit < this.claimLimit) {
			this.freeWorkers.reduce(this.claimLimit - limit);
		}
		this.claimLimit = limit;
	}

	/**
	 * Wait, holding one free worker, for a waiter to bring a ready job. Blocking waits
	 * are the way jobs arrive, but only a hint: should they fail for a while, look for
	 * ready jobs anyway now and then.
	 */
	private List<JobExecution> awaitReady() throws InterruptedException {
		ClaimHandoff.ReadyId ready = this.handoff.awaitReady(this.factory.getPollTimeout().multipliedBy(5));
		if (!this.running) {
			return List.of();
		}
		return (ready != null) ? claim(ready) : claimReady(1);
	}

	private List<JobExecution> claimReady(int wanted) {
		List<JobExecution> jobs = new ArrayList<>(wanted);
		ClaimHandoff.ReadyId ready;
		while (jobs.size() < wanted && (ready = this.handoff.poll()) != null) {
			jobs.addAll(claim(ready));
		}
		for (String topic : this.endpoint.topics()) {
			if (jobs.size() >= wanted) {
				break;
			}
			jobs.addAll(executions(this.factory.claims().claim(topic, null, wanted - jobs.size(), ttr(topic))));
		}
		return jobs;
	}

	private List<JobExecution> claim(ClaimHandoff.ReadyId ready) {
		return executions(this.factory.claims().claim(ready.topic(), ready.id(), 0, ttr(ready.topic())));
	}

	private List<JobExecution> executions(Claim claim) {
		long claimedAt = System.nanoTime();
		if (!claim.jobs().isEmpty()) {
			String topic = claim.jobs().get(0).topic();
			this.factory.dueTimeListener().jobScheduled(topic, claim.redisNow() + ttr(topic).toMillis());
		}
		List<JobExecution> executions = new ArrayList<>(claim.jobs().size());
		for (ClaimedJob job : claim.jobs()) {
			if (job.attempt() < 0) {
				logger.warn("Dropped ready job id '" + job.id() + "' of topic '" + job.topic()
						+ "': its job data had vanished from Redis");
				continue;
			}
			executions.add(new JobExecution(job, claim.redisNow(), claimedAt, this.endpoint.method(),
					this.factory.policies().forTopic(job.topic()), this.factory.claims(), this.factory.codec(),
					this.factory.events(), this.factory.dueTimeListener(), this.acknowledger,
					() -> this.interruptingHandlers));
		}
		return executions;
	}

	private Duration ttr(String topic) {
		return this.factory.policies().forTopic(topic).ttr();
	}

	private void dispatch(JobExecution job) {
		ThreadPoolExecutor pool = this.workers;
		if (pool == null) {
			job.handBack();
			this.freeWorkers.release();
			return;
		}
		pool.execute(new Task(job));
	}

	private void handBack(Runnable task) {
		if (task instanceof Task runnable) {
			runnable.execution.handBack();
			this.freeWorkers.release();
		}
	}

	private void unclaim(ClaimHandoff.ReadyId ready) {
		try {
			this.factory.claims().unclaim(ready.topic(), List.of(ready.id()));
		}
		catch (RuntimeException ex) {
			logger.debug("Could not hand back id '" + ready.id() + "'; the scheduler's orphan check will", ex);
		}
	}

	private static Thread thread(String name, Runnable task) {
		Thread thread = new Thread(task, name);
		thread.setDaemon(true);
		return thread;
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

	@Override
	public String toString() {
		return "DelayedJobListenerContainer[" + this.endpoint.id() + " on " + this.endpoint.topics() + "]";
	}

	private final class Task implements Runnable {

		private final JobExecution execution;

		Task(JobExecution execution) {
			this.execution = execution;
		}

		@Override
		public void run() {
			DelayedJobListenerContainer.this.activeJobs.incrementAndGet();
			long start = System.nanoTime();
			try {
				this.execution.run();
				DelayedJobListenerContainer.this.runTimes.add(System.nanoTime() - start);
			}
			catch (RuntimeException ex) {
				logger.error("Settling job '" + this.execution.job().id() + "' failed; it will be delivered again"
						+ " when its time to run elapses", ex);
			}
			finally {
				DelayedJobListenerContainer.this.activeJobs.decrementAndGet();
				DelayedJobListenerContainer.this.freeWorkers.release();
			}
		}

	}

}
