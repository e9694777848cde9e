package io.github.delayqueue.internal.scheduler;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * When each topic is next to be swept, on the {@link System#nanoTime()} scale, and the
 * sleep of the scheduler thread until the earliest of those times. Any thread may ask for
 * an earlier sweep; a request that arrives while its topic is being swept is kept and
 * applied when the sweep ends, so that no wake-up is lost to a race.
 *
 * @author delayqueue contributors
 */
final class TopicWakeUps {

	private final ReentrantLock lock = new ReentrantLock();

	private final Condition changed = this.lock.newCondition();

	private final Map<String, Long> wakeAt = new HashMap<>();

	private final Map<String, Long> requestedDuringSweep = new HashMap<>();

	private final LongSupplier nanoClock;

	private boolean stopped;

	/**
	 * Create the wake-ups of a scheduler.
	 * @param nanoClock the current time, on the {@link System#nanoTime()} scale
	 */
	TopicWakeUps(LongSupplier nanoClock) {
		this.nanoClock = nanoClock;
	}

	/**
	 * Ask for a topic to be swept at a time, or earlier if it already was to be.
	 * @param topic the topic
	 * @param at the time
	 */
	void request(String topic, long at) {
		this.lock.lock();
		try {
			this.requestedDuringSweep.merge(topic, at, TopicWakeUps::earlier);
			Long current = this.wakeAt.get(topic);
			if (current == null || at - current < 0) {
				this.wakeAt.put(topic, at);
				this.changed.signalAll();
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Ask for every topic to be swept at a time.
	 * @param at the time
	 */
	void requestAll(long at) {
		this.lock.lock();
		try {
			this.wakeAt.replaceAll((topic, current) -> earlier(current, at));
			this.changed.signalAll();
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Start tracking a topic, swept at a time, unless it is tracked already.
	 * @param topic the topic
	 * @param at the time
	 */
	void track(String topic, long at) {
		this.lock.lock();
		try {
			this.wakeAt.putIfAbsent(topic, at);
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Stop tracking a topic, until it is requested or tracked again.
	 * @param topic the topic
	 */
	void forget(String topic) {
		this.lock.lock();
		try {
			this.wakeAt.remove(topic);
			this.requestedDuringSweep.remove(topic);
		}
		finally {
			this.lock.unlock();
		}
	}

	Set<String> topics() {
		this.lock.lock();
		try {
			return Set.copyOf(this.wakeAt.keySet());
		}
		finally {
			this.lock.unlock();
		}
	}

	List<String> due(long now) {
		this.lock.lock();
		try {
			List<String> due = new ArrayList<>();
			this.wakeAt.forEach((topic, at) -> {
				if (now - at >= 0) {
					due.add(topic);
				}
			});
			return due;
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * A sweep of a topic is about to read Redis: requests made until now are covered.
	 * @param topic the topic
	 */
	void sweepStarting(String topic) {
		this.lock.lock();
		try {
			this.requestedDuringSweep.remove(topic);
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * A sweep of a topic ended and found when the topic needs the next one.
	 * @param topic the topic
	 * @param next when to sweep it next
	 */
	void sweepFinished(String topic, long next) {
		this.lock.lock();
		try {
			Long requested = this.requestedDuringSweep.remove(topic);
			this.wakeAt.put(topic, (requested != null) ? earlier(requested, next) : next);
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Sleep until the earliest wake-up time, another deadline, a new request or a stop.
	 * @param deadline the latest time to wake up
	 * @throws InterruptedException if the thread is interrupted
	 */
	void awaitNext(long deadline) throws InterruptedException {
		this.lock.lock();
		try {
			long until = deadline;
			for (long at : this.wakeAt.values()) {
				until = earlier(until, at);
			}
			long wait = until - this.nanoClock.getAsLong();
			if (wait > 0 && !this.stopped) {
				this.changed.awaitNanos(wait);
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Sleep for a while, returning early on a stop.
	 * @param nanos how long
	 * @throws InterruptedException if the thread is interrupted
	 */
	void pause(long nanos) throws InterruptedException {
		this.lock.lock();
		try {
			if (!this.stopped) {
				this.changed.awaitNanos(nanos);
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	void stop() {
		this.lock.lock();
		try {
			this.stopped = true;
			this.changed.signalAll();
		}
		finally {
			this.lock.unlock();
		}
	}

	void restart() {
		this.lock.lock();
		try {
			this.stopped = false;
		}
		finally {
			this.lock.unlock();
		}
	}

	private static long earlier(long a, long b) {
		return (a - b < 0) ? a : b;
	}

}
