package io.github.delayqueue.internal.actuate;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.github.delayqueue.internal.support.DelayQueueThreads;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.health.contributor.Health;

/**
 * Runs a health check on a thread of its own and waits for it at most a bound, so that a
 * probe answers in time even when the check waits for a client's far longer timeout.
 * Probes that arrive while a check runs share it rather than start another: never more
 * than one check is in flight, and once the bound has passed they answer down at once.
 *
 * @author delayqueue contributors
 */
final class BoundedHealthCheck implements AutoCloseable {

	private final Callable<Health> check;

	private final Duration timeout;

	private final String notAnswered;

	// One thread, and a new check only once the last one finished.
	private final ExecutorService executor;

	private @Nullable Check inFlight;

	/**
	 * Create the check.
	 * @param threads where the check's thread comes from
	 * @param threadName the name of the check's thread, less a number
	 * @param timeout how long a probe waits for the check
	 * @param notAnswered what a probe that waited in vain reports as the error
	 * @param check the check
	 */
	BoundedHealthCheck(DelayQueueThreads threads, String threadName, Duration timeout, String notAnswered,
			Callable<Health> check) {
		this.check = check;
		this.timeout = timeout;
		this.notAnswered = notAnswered;
		this.executor = threads.pool(threadName + "-", 1, Duration.ZERO, true);
	}

	/**
	 * Return the health the check found, or down when it did not finish in time.
	 * @return the health
	 */
	Health health() {
		Check current = currentCheck();
		long remaining = this.timeout.toNanos() - (System.nanoTime() - current.startedAt());
		if (remaining <= 0) {
			return Health.down().withDetail("error", this.notAnswered).build();
		}
		try {
			return current.result().get(remaining, TimeUnit.NANOSECONDS);
		}
		catch (TimeoutException ex) {
			return Health.down().withDetail("error", this.notAnswered).build();
		}
		catch (ExecutionException ex) {
			return Health.down((ex.getCause() instanceof Exception cause) ? cause : ex).build();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return Health.down(ex).build();
		}
	}

	private synchronized Check currentCheck() {
		Check current = this.inFlight;
		if (current == null || current.result().isDone()) {
			current = new Check(this.executor.submit(this.check), System.nanoTime());
			this.inFlight = current;
		}
		return current;
	}

	/**
	 * Stop the check's thread.
	 */
	@Override
	public void close() {
		this.executor.shutdownNow();
	}

	/**
	 * Format a duration as a bound is read: {@code 1s}, {@code 1500ms}.
	 * @param duration the duration
	 * @return the text
	 */
	static String format(Duration duration) {
		return (duration.toMillis() % 1000 == 0) ? duration.toSeconds() + "s" : duration.toMillis() + "ms";
	}

	private record Check(Future<Health> result, long startedAt) {

	}

}
