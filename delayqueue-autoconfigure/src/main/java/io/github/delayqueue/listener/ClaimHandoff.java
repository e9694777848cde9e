package io.github.delayqueue.listener;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntSupplier;

import org.jspecify.annotations.Nullable;

/**
 * Where a container's claim loop and its {@link ReadyJobWaiter waiters} meet: the loop
 * says when it is idle (a worker is free and nothing was ready), which lets the waiters
 * block; a waiter leaves the id its blocking move brought, which ends the idle spell. It
 * takes no more ids than the container has free workers for: the free permits, plus the
 * one the loop holds while it is idle. Several waiters can bring ids at once; those it
 * refuses go back to the ready list, where other instances can take them, instead of
 * waiting here for a worker.
 *
 * @author delayqueue contributors
 */
final class ClaimHandoff implements ReadyJobWaiter.Handoff {

	private final ReentrantLock lock = new ReentrantLock();

	private final Condition changed = this.lock.newCondition();

	private final Deque<ReadyId> ready = new ArrayDeque<>();

	private final IntSupplier freePermits;

	private boolean open;

	private boolean idle;

	// Set by lookAgain(): the loop's idle spell ends with no id.
	private boolean lookAgain;

	/**
	 * Create a hand-off.
	 * @param freePermits how many more jobs the container may claim now, besides the one
	 * its loop holds a permit for while idle
	 */
	ClaimHandoff(IntSupplier freePermits) {
		this.freePermits = freePermits;
	}

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
	 * End the loop's idle spell (see {@link #awaitReady}) now, or its next one at once:
	 * jobs that no waiter brings may be claimable (a group's permit came back).
	 */
	void lookAgain() {
		this.lock.lock();
		try {
			this.lookAgain = true;
			this.changed.signalAll();
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Be idle until a waiter hands over an id, the hand-off closes, {@link #lookAgain()}
	 * is called, or a while passes.
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
			while (this.open && this.ready.isEmpty() && !this.lookAgain && wait > 0) {
				wait = this.changed.awaitNanos(wait);
			}
			this.idle = false;
			this.lookAgain = false;
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
			// Ids handed over and not yet taken end the idle spell for the waiters: the
			// loop is about to wake.
			while (this.open && (!this.idle || !this.ready.isEmpty())) {
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
	public boolean offer(String queue, String id) {
		this.lock.lock();
		try {
			// The first id handed over while idle takes the permit the loop holds; the
			// loop ends the idle spell once it wakes.
			int room = Math.max(0, this.freePermits.getAsInt()) + (this.idle ? 1 : 0);
			if (!this.open || this.ready.size() >= room) {
				return false;
			}
			this.ready.addLast(new ReadyId(queue, id));
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
	 * End every waiter's {@link #pause(Duration)} now, so that it looks at its queues
	 * again: one of them may be claimed from sooner than it was told.
	 */
	void wake() {
		this.lock.lock();
		try {
			this.changed.signalAll();
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * An id a waiter moved into its queue's claiming list.
	 *
	 * @param queue the queue
	 * @param id the job id
	 */
	record ReadyId(String queue, String id) {

	}

}
