package io.github.delayqueue.internal.scheduler;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import io.github.delayqueue.internal.store.ReconnectBackoff;
import io.github.delayqueue.internal.support.DelayQueueThreads;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;
import org.springframework.util.backoff.BackOffExecution;
import org.springframework.util.backoff.FixedBackOff;

/**
 * The container of a scheduler's subscription to the wake-up and claim channels. It
 * subscribes in the background, so that an application starts while Redis is unreachable
 * instead of failing to start again and again: subscribing is retried with a growing
 * pause until it succeeds or the container stops, and meanwhile the scheduler sweeps
 * every topic at least every {@code max-sleep}, as it does whenever messages may be
 * missed. Once subscribed, the client subscribes again by itself after a reconnect.
 * <p>
 * The container this extends retries a failed subscription by itself, on the thread that
 * made it and holding the lock that a stop needs; the retry then waits for the stop to
 * finish, and neither ever does. Here that recovery is off: the loop of this class
 * retries, and a stop returns within {@link #STOP_TIMEOUT_MILLIS} whatever an attempt
 * under way waits for.
 *
 * @author delayqueue contributors
 */
public class WakeUpListenerContainer extends RedisMessageListenerContainer {

	private static final Log logger = LogFactory.getLog(WakeUpListenerContainer.class);

	private static final Runnable NOTHING = () -> {
	};

	/**
	 * Longest a stop takes: an attempt stuck connecting or waiting for an answer cannot
	 * hold up the application's shutdown.
	 */
	static final long STOP_TIMEOUT_MILLIS = 5000;

	// How long a stop lets a subscription attempt under way end by itself before it
	// interrupts the attempt.
	private static final long ATTEMPT_GRACE_MILLIS = 2000;

	private final WakeUpSubscriber subscriber;

	private final DelayQueueThreads threads;

	private final ThreadPoolExecutor listenerExecutor;

	private final Object monitor = new Object();

	// Guarded by the monitor. Each start and stop begin a generation; the thread that
	// subscribes gives up as soon as its own is over.
	private boolean running;

	private long generation;

	private @Nullable Thread subscribing;

	private @Nullable Thread stopping;

	// Set while the container this extends handles a failed attempt on this thread.
	private final ThreadLocal<Boolean> failingAttempt = new ThreadLocal<>();

	/**
	 * Create a container that subscribes a scheduler's subscriber to its channels.
	 * @param connectionFactory connects to Redis
	 * @param subscriber hears the channels
	 */
	public WakeUpListenerContainer(RedisConnectionFactory connectionFactory, WakeUpSubscriber subscriber) {
		this(connectionFactory, subscriber, DelayQueueThreads.platform());
	}

	/**
	 * Create a container that subscribes a scheduler's subscriber to its channels, on
	 * threads of the starter's.
	 * @param connectionFactory connects to Redis
	 * @param subscriber hears the channels
	 * @param threads where the container's threads come from
	 */
	public WakeUpListenerContainer(RedisConnectionFactory connectionFactory, WakeUpSubscriber subscriber,
			DelayQueueThreads threads) {
		this.subscriber = subscriber;
		this.threads = threads;
		setConnectionFactory(connectionFactory);
		// Messages are tiny hints handled in microseconds: one thread, in the order they
		// arrived, rather than the default thread per message.
		this.listenerExecutor = threads.pool("delayqueue-wake-up-", 1, Duration.ZERO, true);
		setTaskExecutor(this.listenerExecutor);
		// A blocking client (Jedis) holds a thread for as long as it is subscribed, which
		// must not be the one that hands out the messages.
		setSubscriptionExecutor(threads.blockingOnRedisPerTask("delayqueue-wake-up-subscriber-"));
		setMessageListeners(Map.of(subscriber, subscriber.channels()));
		// The loop of this class retries a failed subscription (see the class comment).
		setRecoveryBackoff(new FixedBackOff(0, 0));
	}

	/**
	 * Start subscribing in the background; returns at once, whether Redis is reachable or
	 * not.
	 */
	@Override
	public void start() {
		synchronized (this.monitor) {
			if (this.running) {
				return;
			}
			this.running = true;
			long generation = ++this.generation;
			Thread previousAttempt = this.subscribing;
			Thread previousStop = this.stopping;
			Thread thread = this.threads.daemon("delayqueue-wake-up-subscription",
					() -> subscribe(generation, previousAttempt, previousStop));
			this.subscribing = thread;
			thread.start();
		}
	}

	@Override
	public void stop() {
		stop(NOTHING);
	}

	/**
	 * Stop subscribing, or unsubscribe, and run the callback: unlike the container this
	 * extends, also when no subscription was made, and within
	 * {@link #STOP_TIMEOUT_MILLIS} whatever Redis does.
	 * @param callback run once stopped
	 */
	@Override
	public void stop(Runnable callback) {
		Thread subscribing;
		synchronized (this.monitor) {
			this.running = false;
			this.generation++;
			this.monitor.notifyAll();
			subscribing = this.subscribing;
		}
		long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STOP_TIMEOUT_MILLIS);
		// An attempt under way may still complete a subscription after the stop below;
		// let it see the stop and end first (it undoes what it made), then stop again.
		endAttempt(subscribing, deadline);
		stopContainer(deadline);
		// Redis confirms the unsubscription on a connection that the client may close
		// before the confirmation arrives, and the scheduler, still sweeping while the
		// listeners finish, would take the missing messages for a dead channel.
		this.subscriber.subscriptionStopped();
		callback.run();
	}

	// An attempt waiting for Redis (connecting, or for the answer to SUBSCRIBE) holds
	// the lock the container's stop needs until the client gives up, which may take a
	// minute: interrupted, it gives up at once.
	private static void endAttempt(@Nullable Thread attempt, long deadline) {
		if (attempt == null || attempt == Thread.currentThread()) {
			return;
		}
		try {
			attempt.join(Math.min(ATTEMPT_GRACE_MILLIS, millisUntil(deadline)));
			if (attempt.isAlive()) {
				attempt.interrupt();
				attempt.join(millisUntil(deadline));
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	// On a thread of its own, so that nothing the container waits for can hold up the
	// caller past the deadline; a later start waits for it.
	private void stopContainer(long deadline) {
		Thread thread = this.threads.daemon("delayqueue-wake-up-stop", () -> super.stop(NOTHING));
		synchronized (this.monitor) {
			this.stopping = thread;
		}
		thread.start();
		try {
			thread.join(millisUntil(deadline));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		if (thread.isAlive()) {
			logger.warn("The delay queue's wake-up subscription did not stop within " + STOP_TIMEOUT_MILLIS
					+ " ms; it is closed in the background once Redis answers or the client gives up");
		}
	}

	// At least a millisecond: Thread.join(0) would wait forever.
	private static long millisUntil(long deadline) {
		return Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
	}

	/**
	 * Return whether the container was started and not stopped since, subscribed or still
	 * trying to subscribe; {@link #isListening()} tells whether it is subscribed.
	 * @return {@code true} if started
	 */
	@Override
	public boolean isRunning() {
		if (this.failingAttempt.get() != null) {
			return false;
		}
		synchronized (this.monitor) {
			return this.running;
		}
	}

	/**
	 * Stop, and shut down the thread that handed out the messages.
	 * @throws Exception if the container cannot be stopped
	 */
	@Override
	public void destroy() throws Exception {
		super.destroy();
		this.listenerExecutor.shutdown();
	}

	/**
	 * Fail the attempt under way: neither retry it nor log, where the container this
	 * extends would do both. It asks {@link #isRunning()} whether to, and is told no on
	 * this thread while it handles the failure; the loop of this class retries and logs.
	 * @param future the attempt's
	 * @param backOffExecution the container's recovery, which is off
	 * @param cause why the attempt failed
	 */
	@Override
	protected void handleSubscriptionException(CompletableFuture<Void> future, BackOffExecution backOffExecution,
			Throwable cause) {
		this.failingAttempt.set(Boolean.TRUE);
		try {
			super.handleSubscriptionException(future, backOffExecution, cause);
		}
		finally {
			this.failingAttempt.remove();
		}
	}

	private void subscribe(long generation, @Nullable Thread previousAttempt, @Nullable Thread previousStop) {
		try {
			// A subscription attempt of an earlier start may still be under way; it
			// undoes itself once it sees the stop, which must not undo this one. Nor
			// may the earlier stop, still under way in the background.
			if (previousAttempt != null) {
				previousAttempt.join();
			}
			if (previousStop != null) {
				previousStop.join();
			}
			int failures = 0;
			while (isCurrent(generation)) {
				try {
					super.start();
					if (!isCurrent(generation)) {
						super.stop(NOTHING); // stopped while subscribing
					}
					else if (failures > 0) {
						logger.info("Subscribed to the delay queue's wake-up channels after " + failures
								+ " failed attempt(s)");
					}
					return;
				}
				catch (RuntimeException ex) {
					failures++;
					// Forget the failed start, or the next one would do nothing.
					super.stop(NOTHING);
					logFailure(failures, ex);
					pause(generation, ReconnectBackoff.delay(failures).toNanos());
				}
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private void logFailure(int failures, RuntimeException ex) {
		if (failures > 1) {
			if (logger.isDebugEnabled()) {
				logger.debug("Still cannot subscribe to the delay queue's wake-up channels (" + failures + " tries)",
						ex);
			}
			return;
		}
		String message = "Cannot subscribe to the delay queue's wake-up channels; retrying in the background, "
				+ "and meanwhile the scheduler checks every topic every max-sleep";
		if (isUnreachable(ex)) {
			// Redis is unreachable, which the scheduler warns about already.
			logger.info(message + ": " + ex.getMessage());
		}
		else {
			logger.warn(message, ex);
		}
	}

	private static boolean isUnreachable(Throwable ex) {
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (cause instanceof RedisConnectionFailureException) {
				return true;
			}
		}
		return false;
	}

	private boolean isCurrent(long generation) {
		synchronized (this.monitor) {
			return this.running && this.generation == generation;
		}
	}

	private void pause(long generation, long nanos) throws InterruptedException {
		long deadline = System.nanoTime() + nanos;
		synchronized (this.monitor) {
			long left = nanos;
			while (left > 0 && this.running && this.generation == generation) {
				TimeUnit.NANOSECONDS.timedWait(this.monitor, left);
				left = deadline - System.nanoTime();
			}
		}
	}

}
