package io.github.delayqueue.internal.schedule;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

import io.github.delayqueue.internal.scheduler.DelayedJobScheduler;
import io.github.delayqueue.internal.store.ReconnectBackoff;
import io.github.delayqueue.internal.store.RedisOutageLog;
import io.github.delayqueue.internal.support.DelayQueueThreads;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.SmartLifecycle;

/**
 * The thread that keeps this instance's part of the recurring schedules: it declares the
 * schedules of the configuration at start-up and every heartbeat, forgets schedules no
 * instance declares any more, and, where the scheduler runs, decides each tick when it
 * falls due. It sleeps until the earliest next tick by the Redis clock, like the
 * scheduler sleeps until the next due time, and is woken early when a schedule changes on
 * any instance.
 *
 * @author delayqueue contributors
 */
public final class ScheduleLoop implements SmartLifecycle {

	private static final Log logger = LogFactory.getLog(ScheduleLoop.class);

	private static final Duration DEFAULT_EXPIRY_INTERVAL = Duration.ofMinutes(5);

	// Past a tick's start by the estimate before deciding it: an estimate a little ahead
	// of Redis would otherwise carry no tick that Redis finds due, and the call would be
	// refused and made again.
	private static final long TICK_MARGIN_MICROS = 200;

	private final ScheduleDeclarations declarations;

	private final @Nullable TickProducer producer;

	private final @Nullable ScheduleCatalog catalog;

	private final RedisClock clock;

	private final LongSupplier serverMicros;

	private final ReentrantLock lock = new ReentrantLock();

	private final Condition wakeUp = this.lock.newCondition();

	private final AtomicBoolean reloadRequested = new AtomicBoolean(true);

	private boolean woken;

	private volatile boolean running;

	private @Nullable Thread thread;

	private DelayQueueThreads threads = DelayQueueThreads.platform();

	private long heartbeatNanos = ScheduleDeclarations.HEARTBEAT.toNanos();

	private long expiryNanos = DEFAULT_EXPIRY_INTERVAL.toNanos();

	ScheduleLoop(ScheduleDeclarations declarations, @Nullable TickProducer producer, @Nullable ScheduleCatalog catalog,
			RedisClock clock, LongSupplier serverMicros) {
		this.declarations = declarations;
		this.producer = producer;
		this.catalog = catalog;
		this.clock = clock;
		this.serverMicros = serverMicros;
	}

	void setHeartbeat(Duration heartbeat) {
		this.heartbeatNanos = heartbeat.toNanos();
	}

	void setExpiryInterval(Duration interval) {
		this.expiryNanos = interval.toNanos();
	}

	/**
	 * Read every schedule again and decide what fell due, soon: a schedule changed.
	 */
	void reload() {
		this.reloadRequested.set(true);
		wake();
	}

	private void wake() {
		this.lock.lock();
		try {
			this.woken = true;
			this.wakeUp.signalAll();
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Set where the loop's thread comes from, typically the starter's threads built by
	 * Spring Boot's task executor builder. A plain platform thread when not set.
	 * @param threads the threads
	 */
	public void setThreads(DelayQueueThreads threads) {
		this.threads = threads;
	}

	@Override
	public void start() {
		synchronized (this) {
			if (this.running) {
				return;
			}
			Thread previous = this.thread;
			this.running = true;
			Thread worker = this.threads.daemon("delayqueue-schedules", () -> run(previous));
			this.thread = worker;
			worker.start();
		}
	}

	@Override
	public void stop() {
		Thread worker;
		synchronized (this) {
			this.running = false;
			worker = this.thread;
		}
		wake();
		if (worker != null && worker != Thread.currentThread()) {
			try {
				worker.join(TimeUnit.SECONDS.toMillis(10));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return DelayedJobScheduler.PHASE;
	}

	private void run(@Nullable Thread previous) {
		try {
			if (previous != null) {
				previous.join();
			}
			loop();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private void loop() throws InterruptedException {
		long nextHeartbeat = System.nanoTime();
		long nextExpiry = nextHeartbeat + this.expiryNanos;
		int failures = 0;
		while (this.running) {
			try {
				long now = System.nanoTime();
				boolean changed = false;
				if (now - nextHeartbeat >= 0) {
					changed = this.declarations.declare();
					nextHeartbeat = now + this.heartbeatNanos;
					// Also the safety net against a change announcement that was lost.
					this.reloadRequested.set(true);
				}
				if (now - nextExpiry >= 0) {
					changed |= this.declarations.expire();
					nextExpiry = now + this.expiryNanos;
				}
				TickProducer.Next next = produce(changed);
				if (failures > 0) {
					logger.info("Redis is reachable again; recurring schedules go on");
					failures = 0;
				}
				if (next == TickProducer.Next.SLEEP) {
					sleep(Math.min(nextHeartbeat, nextExpiry));
				}
			}
			catch (RuntimeException ex) {
				failures++;
				RedisOutageLog.failed(logger, "Recurring schedules", "decide ticks", failures, ex);
				// The reload that failed was taken off the request; ask for it again so
				// that the schedules are read as soon as Redis answers, and a pass that
				// succeeds has talked to Redis before it says Redis is back.
				this.reloadRequested.set(true);
				pause(ReconnectBackoff.delay(failures).toNanos());
			}
		}
	}

	private TickProducer.Next produce(boolean changed) {
		if (this.producer == null || this.catalog == null) {
			return TickProducer.Next.SLEEP;
		}
		if (this.reloadRequested.getAndSet(false) || changed) {
			this.catalog.reload();
		}
		TickProducer.Next next = this.producer.produceDue();
		if (next == TickProducer.Next.RELOAD) {
			this.reloadRequested.set(true);
		}
		return next;
	}

	// Until the earliest next tick by the Redis clock, or a deadline on this instance's
	// clock, or a wake-up. Before sleeping until a tick the offset of the Redis clock is
	// measured to the microsecond, unless it was lately, so that the tick is decided at
	// its start rather than up to a few milliseconds after it.
	private void sleep(long deadlineNanos) throws InterruptedException {
		long wait = deadlineNanos - System.nanoTime();
		if (this.catalog != null) {
			long earliest = this.catalog.earliestNext();
			if (earliest != Long.MAX_VALUE) {
				long tickStart = earliest * 1000 + TICK_MARGIN_MICROS;
				if (this.clock.nanosUntil(tickStart) < wait && this.clock.needsMeasuring()) {
					this.clock.measure(this.serverMicros);
				}
				wait = Math.min(wait, this.clock.nanosUntil(tickStart));
			}
		}
		pause(wait);
	}

	private void pause(long nanos) throws InterruptedException {
		this.lock.lock();
		try {
			long remaining = nanos;
			while (remaining > 0 && !this.woken && this.running) {
				remaining = this.wakeUp.awaitNanos(remaining);
			}
			this.woken = false;
		}
		finally {
			this.lock.unlock();
		}
	}

}
