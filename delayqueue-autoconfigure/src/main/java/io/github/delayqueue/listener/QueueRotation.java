package io.github.delayqueue.listener;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;

/**
 * Which queue each of a container's waiters blocks on next. A blocking move watches one
 * queue, so with no more queues than waiters every queue has a waiter of its own all the
 * time. With more (a topic of many partitions), the waiters take the queues in turn, the
 * one left unwatched longest first, each for a share of the poll timeout small enough
 * that every queue is watched once per poll timeout: as many blocking commands per poll
 * timeout as a waiter per queue would send, on a bounded number of connections, at the
 * price of a job in an unwatched queue waiting for its turn.
 *
 * @author delayqueue contributors
 */
final class QueueRotation {

	/**
	 * The shortest wait on one queue, so that an idle listener with many queues sends no
	 * more than a few blocking commands per second and waiter.
	 */
	static final Duration MIN_SLICE = Duration.ofSeconds(1);

	private final int bound;

	private final Duration pollTimeout;

	private List<String> queues = List.of();

	private final Set<String> watched = new HashSet<>();

	private final Map<String, Long> lastTaken = new HashMap<>();

	private long turns;

	private int waiters;

	/**
	 * Create a rotation.
	 * @param bound the most waiters, however many queues there are
	 * @param pollTimeout how long a wait lasts while every queue has a waiter
	 */
	QueueRotation(int bound, Duration pollTimeout) {
		this.bound = bound;
		this.pollTimeout = pollTimeout;
	}

	/**
	 * Set the queues to watch. Waiters beyond what they need leave at their next turn.
	 * @param queues the queues, in the listener's priority order
	 */
	synchronized void setQueues(List<String> queues) {
		this.queues = List.copyOf(queues);
		this.lastTaken.keySet().retainAll(this.queues);
	}

	/**
	 * Let one more waiter take turns, if the queues need it.
	 * @return {@code true} if a new waiter is to start
	 */
	synchronized boolean join() {
		if (this.waiters < wanted()) {
			this.waiters++;
			return true;
		}
		return false;
	}

	/**
	 * End a waiter's turn on a queue and give it the next one.
	 * @param finished the queue it watched, or {@code null} on its first turn
	 * @param skipped queues to take only when no other is left, such as paused ones
	 * @return the queue to watch, or {@code null} if the waiter is no longer needed, in
	 * which case it has left the rotation
	 */
	synchronized @Nullable String next(@Nullable String finished, Predicate<String> skipped) {
		if (finished != null) {
			this.watched.remove(finished);
		}
		if (this.waiters > wanted()) {
			this.waiters--;
			return null;
		}
		String best = null;
		boolean bestSkipped = true;
		long bestTaken = Long.MAX_VALUE;
		for (String queue : this.queues) {
			if (this.watched.contains(queue)) {
				continue;
			}
			boolean skip = skipped.test(queue);
			long taken = this.lastTaken.getOrDefault(queue, Long.MIN_VALUE);
			if (best == null || (bestSkipped && !skip) || (bestSkipped == skip && taken < bestTaken)) {
				best = queue;
				bestSkipped = skip;
				bestTaken = taken;
			}
		}
		if (best == null) {
			// Every queue is watched by the others.
			this.waiters--;
			return null;
		}
		this.watched.add(best);
		this.lastTaken.put(best, ++this.turns);
		return best;
	}

	/**
	 * A waiter stopped: it no longer watches its queue.
	 * @param queue the queue it watched, or {@code null}
	 */
	synchronized void leave(@Nullable String queue) {
		if (queue != null) {
			this.watched.remove(queue);
		}
		this.waiters--;
	}

	/**
	 * Return how long one wait lasts: the poll timeout while every queue has a waiter,
	 * otherwise its share, so that each queue gets its turn within a poll timeout, but
	 * never less than {@link #MIN_SLICE}.
	 * @return the wait's timeout
	 */
	synchronized Duration slice() {
		int size = this.queues.size();
		if (size <= this.waiters || size == 0) {
			return this.pollTimeout;
		}
		Duration share = this.pollTimeout.multipliedBy(Math.max(1, this.waiters)).dividedBy(size);
		Duration floor = (this.pollTimeout.compareTo(MIN_SLICE) < 0) ? this.pollTimeout : MIN_SLICE;
		return (share.compareTo(floor) < 0) ? floor : share;
	}

	private int wanted() {
		return Math.min(this.queues.size(), this.bound);
	}

}
