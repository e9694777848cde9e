package io.github.delayqueue.internal.support;

import java.time.Duration;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * How long a failed job waits before its next attempt: either an explicit schedule (the
 * n-th retry waits the n-th entry, the last entry repeating), or an exponential curve in
 * the vocabulary of Spring Framework's {@code ExponentialBackOff}: {@code delay} before
 * the first retry, multiplied by {@code multiplier} for each further retry, capped at
 * {@code maxDelay}, with a random {@code jitter} either way that grows with the
 * multiplier like the delay.
 *
 * @param delay the wait before the first retry
 * @param multiplier the growth per retry, 1 or more
 * @param maxDelay the longest wait
 * @param jitter the largest random deviation at the first retry
 * @param schedule explicit waits; when not empty it wins over the curve
 * @author delayqueue contributors
 */
public record BackoffPolicy(Duration delay, double multiplier, Duration maxDelay, Duration jitter,
		List<Duration> schedule) {

	/**
	 * Create a backoff policy, keeping an unmodifiable copy of the explicit waits.
	 */
	public BackoffPolicy {
		schedule = List.copyOf(schedule);
	}

	/**
	 * Return the wait before the next attempt.
	 * @param failedAttempt the attempt that just failed, 1 for the first delivery
	 * @param random where jitter comes from
	 * @return the wait, never negative
	 */
	public Duration delayAfter(int failedAttempt, RandomGenerator random) {
		int retry = Math.max(1, failedAttempt);
		if (!this.schedule.isEmpty()) {
			return this.schedule.get(Math.min(retry, this.schedule.size()) - 1);
		}
		double growth = Math.pow(this.multiplier, retry - 1);
		double millis = Math.min(this.delay.toMillis() * growth, this.maxDelay.toMillis());
		long jitterMillis = (long) Math.min(this.jitter.toMillis() * growth, Long.MAX_VALUE / 4.0);
		if (jitterMillis > 0) {
			millis += random.nextLong(-jitterMillis, jitterMillis + 1);
		}
		return Duration.ofMillis((long) Math.max(0, Math.min(millis, this.maxDelay.toMillis())));
	}

}
