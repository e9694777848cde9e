package io.github.delayqueue.schedule;

import java.time.Clock;

/**
 * This instance's estimate of the Redis server's clock: its own wall clock plus the
 * offset between the two that the latest script reply showed. The estimate decides
 * nothing (the scripts read the Redis clock themselves and refuse calls built on a bad
 * estimate); it tells how long to sleep and which ticks a call carries.
 *
 * @author delayqueue contributors
 */
final class RedisClock {

	private volatile Clock clock = Clock.systemUTC();

	private volatile long offsetMillis;

	/**
	 * Set this instance's wall clock.
	 * @param clock the clock
	 */
	void setClock(Clock clock) {
		this.clock = clock;
	}

	/**
	 * A reply showed the Redis time.
	 * @param redisMillis the Redis time, epoch ms
	 */
	void observed(long redisMillis) {
		this.offsetMillis = redisMillis - this.clock.millis();
	}

	/**
	 * Return the estimated Redis time.
	 * @return epoch ms
	 */
	long now() {
		return this.clock.millis() + this.offsetMillis;
	}

}
