package io.github.delayqueue.internal.schedule;

import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * This instance's estimate of the Redis server's clock: its own wall clock plus the
 * offset between the two. The estimate decides nothing (the scripts read the Redis clock
 * themselves and refuse calls built on a bad estimate); it tells how long to sleep and
 * which ticks a call carries. The offset is measured to the microsecond with a
 * {@code TIME} round trip before the loop sleeps until a tick (see
 * {@link #needsMeasuring()}), and otherwise follows the Redis time that script replies
 * show, in whole milliseconds.
 *
 * @author delayqueue contributors
 */
final class RedisClock {

	// A measured offset stands this long; clocks drift apart by far less meanwhile.
	private static final long MEASUREMENT_LIFETIME_NANOS = TimeUnit.SECONDS.toNanos(10);

	// A reply that shows the estimate off by more than this (the local clock stepped)
	// is taken over a measured offset.
	private static final long REPLY_TOLERANCE_MICROS = 5_000;

	private volatile Clock clock = Clock.systemUTC();

	private volatile long offsetMicros;

	private volatile long measuredAtNanos;

	private volatile boolean measured;

	/**
	 * Set this instance's wall clock.
	 * @param clock the clock
	 */
	void setClock(Clock clock) {
		this.clock = clock;
		this.measured = false;
	}

	/**
	 * A reply showed the Redis time at the start of its script, in whole milliseconds.
	 * @param redisMillis the Redis time, epoch ms
	 */
	void observed(long redisMillis) {
		long local = localMicros();
		long shown = redisMillis * 1000;
		// The script started before the reply came, so a good estimate is a little ahead
		// of the time it shows, never behind it.
		long ahead = local + this.offsetMicros - shown;
		if (!isMeasured() || ahead < -1000 || ahead > REPLY_TOLERANCE_MICROS) {
			this.offsetMicros = shown - local;
			this.measured = false;
		}
	}

	/**
	 * Measure the offset with round trips that read the Redis time: up to three, the
	 * shortest of them taken (its error is at most half its length), stopping at one
	 * shorter than a millisecond. A first call on a new connection, or one that met a
	 * pause, is long and would be off by half of it.
	 * @param serverMicros reads the Redis time, epoch microseconds
	 */
	void measure(LongSupplier serverMicros) {
		long shortest = Long.MAX_VALUE;
		long offset = 0;
		for (int i = 0; i < 3 && shortest > 1000; i++) {
			long sent = localMicros();
			long redis = serverMicros.getAsLong();
			long received = localMicros();
			if (received - sent < shortest) {
				shortest = received - sent;
				offset = redis - (sent + received) / 2;
			}
		}
		this.offsetMicros = offset;
		this.measuredAtNanos = System.nanoTime();
		this.measured = true;
	}

	/**
	 * Whether the offset is to be measured before sleeping until a tick: it was not
	 * measured, or long ago.
	 * @return {@code true} to measure
	 */
	boolean needsMeasuring() {
		return !isMeasured();
	}

	private boolean isMeasured() {
		return this.measured && System.nanoTime() - this.measuredAtNanos < MEASUREMENT_LIFETIME_NANOS;
	}

	/**
	 * Return the estimated Redis time.
	 * @return epoch ms
	 */
	long now() {
		return Math.floorDiv(nowMicros(), 1000);
	}

	/**
	 * Return how long until a time by the estimated Redis clock.
	 * @param epochMicros the time, epoch microseconds
	 * @return nanoseconds, negative when past
	 */
	long nanosUntil(long epochMicros) {
		return (epochMicros - nowMicros()) * 1000;
	}

	private long nowMicros() {
		return localMicros() + this.offsetMicros;
	}

	private long localMicros() {
		Instant now = this.clock.instant();
		return now.getEpochSecond() * 1_000_000 + now.getNano() / 1000;
	}

}
