package io.github.delayqueue.listener;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import org.jspecify.annotations.Nullable;

/**
 * Where a container's claim loop and its {@link ReadyJobWaiter waiters} meet: the loop
 * says when it is idle (a worker is free and nothing was ready), which lets the waiters
 * block; a waiter leaves the id its blocking move brought, which ends the idle spell.
 *
 * @author delayqueue contributors
 */
final class ClaimHandoff implements ReadyJobWaiter.Handoff {

	private final ReentrantLock lock = new ReentrantLock();

	private final Condition changed = this.lock.newCondition();

	private final Deque<ReadyId> ready = new ArrayDeque<>();

	private boolean open;

	private boolean idle;

	/**
	 * Start taking hand-overs.
	 */
	void open() {
		this.lock.lock();
		try {
			this.open = true;
			this.idle = false;
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Stop taking hand-overs and wake everybody waiting.
	 * @return the ids handed over and not taken, which the caller must hand back
	 */
	List<ReadyId> close() {
		this.lock.lock();
		try {
			this.open = false;
			this.changed.signalAll();
			List<ReadyId> left = new ArrayList<>(this.ready);
			this.ready.clear();
			return left;
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Be idle until a waiter hands over an id, the hand-off closes, or a while passes.
	 * @param maxWait how long to wait at most
	 * @return the id handed over, or {@code null}
	 * @throws InterruptedException if the thread is interrupted
	 */
	@Nullable ReadyId awaitReady(Duration maxWait) throws InterruptedException {
		this.lock.lock();
		try {
			this.idle = true;
			this.changed.signalAll();
			long wait = maxWait.toNanos();
			while (this.open && this.ready.isEmpty() && wait > 0) {
				wait = this.changed.awaitNanos(wait);
			}
			this.idle = false;
			return this.open ? this.ready.pollFirst() : null;
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Take an id handed over earlier, if any.
	 * @return the id, or {@code null}
	 */
	@Nullable ReadyId poll() {
		this.lock.lock();
		try {
			return this.ready.pollFirst();
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public boolean awaitIdle() {
		this.lock.lock();
		try {
			while (this.open && !this.idle) {
				this.changed.await();
			}
			return this.open;
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
			if (!this.open) {
				return false;
			}
			this.ready.addLast(new ReadyId(topic, id));
			this.idle = false;
			this.changed.signalAll();
			return true;
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public boolean isRunning() {
		this.lock.lock();
		try {
			return this.open;
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public void pause(Duration duration) {
		this.lock.lock();
		try {
			if (this.open) {
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

	/**
	 * An id a waiter moved into its topic's claiming list.
	 *
	 * @param topic the topic
	 * @param id the job id
	 */
	record ReadyId(String topic, String id) {

	}

}
