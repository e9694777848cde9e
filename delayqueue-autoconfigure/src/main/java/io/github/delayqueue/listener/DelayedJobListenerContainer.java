package io.github.delayqueue.listener;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

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
public class DelayedJobListenerContainer implements ReadyJobWaiter.Handoff {

	private static final Log logger = LogFactory.getLog(DelayedJobListenerContainer.class);

	private final DelayedJobListenerEndpoint endpoint;

	private final DelayedJobListenerContainerFactory factory;

	private final int concurrency;

	private final Semaphore freeWorkers;

	private final AtomicInteger activeJobs = new AtomicInteger();

	private final ReentrantLock lock = new ReentrantLock();

	private final Condition changed = this.lock.newCondition();

	private final Deque<String[]> handoffs = new ArrayDeque<>();

	private boolean idle;

	private volatile boolean running;

	private @Nullable ThreadPoolExecutor workers;

	private final List<Thread> threads = new ArrayList<>();

	private final List<ReadyJobWaiter> waiters = new ArrayList<>();

	DelayedJobListenerContainer(DelayedJobListenerEndpoint endpoint, DelayedJobListenerContainerFactory factory,
			int concurrency) {
		this.endpoint = endpoint;
		this.factory = factory;
		this.concurrency = concurrency;
		this.freeWorkers = new Semaphore(concurrency);
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
	@Override
	public boolean isRunning() {
		return this.running;
	}

	/**
	 * Start claiming and running jobs.
	 */
	public void start() {
		this.lock.lock();
		try {
			if (this.running) {
				return;
			}
			this.running = true;
			this.idle = false;
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
						this.factory.connectionFactory(), this.factory.pollTimeout(), this);
				this.waiters.add(waiter);
				this.threads.add(thread(prefix + "-waiter-" + topic, waiter));
			}
			this.threads.forEach(Thread::start);
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Stop: claim nothing more, hand back claimed jobs that have not started so that they
	 * are delivered again at once, and wait up to the shutdown timeout for running
	 * handlers.
	 */
	public void stop() {
		ThreadPoolExecutor pool;
		this.lock.lock();
		try {
			if (!this.running) {
				return;
			}
			this.running = false;
			this.changed.signalAll();
			pool = this.workers;
		}
		finally {
			this.lock.unlock();
		}
		this.waiters.forEach(ReadyJobWaiter::wakeUp);
		join(this.threads, this.factory.pollTimeout().plusSeconds(5));
		unclaimHandoffs();
		if (pool != null) {
			List<Runnable> notStarted = new ArrayList<>();
			pool.getQueue().drainTo(notStarted);
			notStarted.forEach(this::handBack);
			pool.shutdown();
			try {
				if (!pool.awaitTermination(this.factory.shutdownTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
					logger.warn("Listener '" + this.endpoint.id() + "' stopped with " + this.activeJobs.get()
							+ " job(s) still running; they will be delivered again when their time to run elapses");
					pool.shutdownNow().forEach(this::handBack);
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

	private void claimLoop() {
		int failures = 0;
		while (this.running) {
			int held = 0;
			try {
				if (!this.freeWorkers.tryAcquire(200, TimeUnit.MILLISECONDS)) {
					continue;
				}
				held = 1;
				while (held < this.concurrency && this.freeWorkers.tryAcquire()) {
					held++;
				}
				List<JobExecution> jobs = claimReady(held);
				if (jobs.isEmpty()) {
					this.freeWorkers.release(held - 1);
					held = 1;
					String[] handoff = awaitHandoff();
					if (!this.running) {
						break;
					}
					jobs = (handoff != null)
							? executions(this.factory.claims().claim(handoff[0], handoff[1], 0, ttr(handoff[0])))
							: claimReady(1);
				}
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
				pause(Duration.ofMillis(Math.min(2000, 50L << Math.min(failures, 6))));
			}
			finally {
				if (held > 0) {
					this.freeWorkers.release(held);
				}
			}
		}
	}

	private List<JobExecution> claimReady(int wanted) {
		List<JobExecution> jobs = new ArrayList<>(wanted);
		String[] handoff;
		while (jobs.size() < wanted && (handoff = pollHandoff()) != null) {
			jobs.addAll(executions(this.factory.claims().claim(handoff[0], handoff[1], 0, ttr(handoff[0]))));
		}
		for (String topic : this.endpoint.topics()) {
			if (jobs.size() >= wanted) {
				break;
			}
			jobs.addAll(executions(this.factory.claims().claim(topic, null, wanted - jobs.size(), ttr(topic))));
		}
		return jobs;
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
					this.factory.events(), this.factory.dueTimeListener()));
		}
		return executions;
	}

	private Duration ttr(String topic) {
		return this.factory.policies().forTopic(topic).ttr();
	}

	private void dispatch(JobExecution job) {
		ThreadPoolExecutor pool = this.workers;
		if (pool == null) {
			handBack(job);
			this.freeWorkers.release();
			return;
		}
		pool.execute(new Task(job));
	}

	private void handBack(Runnable task) {
		if (task instanceof Task runnable) {
			handBack(runnable.execution);
			this.freeWorkers.release();
		}
	}

	private void handBack(JobExecution job) {
		try {
			this.factory.claims().release(job.job());
		}
		catch (RuntimeException ex) {
			logger.warn("Could not hand back job '" + job.job().id() + "'; it will be delivered again when its time"
					+ " to run elapses", ex);
		}
	}

	private @Nullable String[] awaitHandoff() throws InterruptedException {
		this.lock.lock();
		try {
			this.idle = true;
			this.changed.signalAll();
			// Blocking waits are the way jobs arrive, but only a hint: should they fail
			// for a
			// while, look for ready jobs anyway now and then.
			long wait = this.factory.pollTimeout().toNanos() * 5;
			while (this.running && this.handoffs.isEmpty() && wait > 0) {
				wait = this.changed.awaitNanos(wait);
			}
			this.idle = false;
			return this.running ? this.handoffs.pollFirst() : null;
		}
		finally {
			this.lock.unlock();
		}
	}

	private @Nullable String[] pollHandoff() {
		this.lock.lock();
		try {
			return this.handoffs.pollFirst();
		}
		finally {
			this.lock.unlock();
		}
	}

	private void unclaimHandoffs() {
		List<String[]> left;
		this.lock.lock();
		try {
			left = new ArrayList<>(this.handoffs);
			this.handoffs.clear();
		}
		finally {
			this.lock.unlock();
		}
		for (String[] handoff : left) {
			try {
				this.factory.claims().unclaim(handoff[0], List.of(handoff[1]));
			}
			catch (RuntimeException ex) {
				logger.debug("Could not hand back id '" + handoff[1] + "'; the reaper will", ex);
			}
		}
	}

	@Override
	public boolean awaitIdle() {
		this.lock.lock();
		try {
			while (this.running && !this.idle) {
				this.changed.await();
			}
			return this.running;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public boolean offer(String topic, String id) {
		this.lock.lock();
		try {
			if (!this.running) {
				return false;
			}
			this.handoffs.addLast(new String[] { topic, id });
			this.idle = false;
			this.changed.signalAll();
			return true;
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public void pause(Duration duration) {
		this.lock.lock();
		try {
			if (this.running) {
				this.changed.await(duration.toMillis(), TimeUnit.MILLISECONDS);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		finally {
			this.lock.unlock();
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
			try {
				this.execution.run();
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
