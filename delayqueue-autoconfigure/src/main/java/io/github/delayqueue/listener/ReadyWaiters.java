package io.github.delayqueue.listener;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.delayqueue.internal.store.JobClaims;
import io.github.delayqueue.internal.support.DelayQueueThreads;

/**
 * The waiters of one container run, each a thread with a Redis connection of its own that
 * blocks on one queue at a time (see {@link ReadyJobWaiter}). There is one per queue, so
 * that a job of any queue is taken at once, but never more than {@link #bound(int, int)}:
 * a listener with more queues than that (a topic of many partitions) has its waiters take
 * the queues in turn (see {@link QueueRotation}), and waiters that the queues no longer
 * need (partitions that left their topic) end after their current wait.
 *
 * @author delayqueue contributors
 */
final class ReadyWaiters {

	/**
	 * The fewest waiters a listener may have, whatever its concurrency and topics: enough
	 * for a topic of tens of partitions to keep a waiter on each.
	 */
	static final int MIN_BOUND = 16;

	private final QueueRotation rotation;

	private final DelayQueueThreads threads;

	private final String threadPrefix;

	private final JobClaims claims;

	private final ClaimHandoff handoff;

	private final TopicPauses pauses;

	private final List<Waiter> waiters = new CopyOnWriteArrayList<>();

	private int created;

	private boolean started;

	private boolean stopped;

	ReadyWaiters(int bound, Duration pollTimeout, DelayQueueThreads threads, String threadPrefix, JobClaims claims,
			ClaimHandoff handoff, TopicPauses pauses) {
		this.rotation = new QueueRotation(bound, pollTimeout);
		this.threads = threads;
		this.threadPrefix = threadPrefix;
		this.claims = claims;
		this.handoff = handoff;
		this.pauses = pauses;
	}

	/**
	 * Return the most waiters a listener has: one per queue, up to the larger of its
	 * concurrency, its number of topics and {@link #MIN_BOUND}, so that every topic keeps
	 * a waiter of its own and a topic partitioned no more than its concurrency has one on
	 * every partition.
	 * @param concurrency the listener's concurrency
	 * @param topics the listener's number of topics
	 * @return the bound
	 */
	static int bound(int concurrency, int topics) {
		return Math.max(MIN_BOUND, Math.max(concurrency, topics));
	}

	/**
	 * Watch these queues from now on, starting waiters as they need, once started.
	 * @param queues the queues, in the listener's priority order
	 */
	synchronized void watch(List<String> queues) {
		if (this.stopped) {
			return;
		}
		this.rotation.setQueues(queues);
		// Waiters that left the rotation have ended or are about to.
		this.waiters.removeIf((waiter) -> this.started && !waiter.thread().isAlive());
		while (this.rotation.join()) {
			ReadyJobWaiter waiter = new ReadyJobWaiter(this.rotation, this.claims, this.handoff, this.pauses);
			Thread thread = this.threads.blockingOnRedis(this.threadPrefix + "-waiter-" + (++this.created), waiter);
			this.waiters.add(new Waiter(waiter, thread));
			if (this.started) {
				thread.start();
			}
		}
	}

	/**
	 * Start the waiters created so far.
	 */
	synchronized void start() {
		this.started = true;
		this.waiters.forEach((waiter) -> waiter.thread().start());
	}

	/**
	 * End every wait now and let no waiter start again.
	 * @return the waiters' threads, for the caller to wait for
	 */
	synchronized List<Thread> stop() {
		this.stopped = true;
		this.waiters.forEach((waiter) -> waiter.waiter().stop());
		return this.waiters.stream().map(Waiter::thread).toList();
	}

	private record Waiter(ReadyJobWaiter waiter, Thread thread) {

	}

}
