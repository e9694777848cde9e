package io.github.delayqueue.internal.support;

import java.security.SecureRandom;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Generates short job ids that sort by creation time and are unique across instances: 8
 * base-62 characters of milliseconds, 4 of an instance number drawn at random, and 4 of a
 * counter. Should two instances ever draw the same id, the topic refuses the second as a
 * duplicate and the template sends it again with a new id, so a clash can never overwrite
 * a job.
 *
 * @author delayqueue contributors
 */
public final class JobIdGenerator {

	private static final char[] DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".toCharArray();

	private static final long FOUR_DIGITS = 62L * 62 * 62 * 62;

	private final Clock clock;

	private final long instance;

	private final AtomicLong counter;

	/**
	 * Create a generator on the system clock.
	 */
	public JobIdGenerator() {
		this(Clock.systemUTC());
	}

	/**
	 * Create a generator on a clock.
	 * @param clock where the time part comes from
	 */
	public JobIdGenerator(Clock clock) {
		this(clock, new SecureRandom());
	}

	private JobIdGenerator(Clock clock, SecureRandom random) {
		this(clock, random.nextLong(), random.nextLong());
	}

	/**
	 * Create a generator whose instance number and counter are given rather than drawn,
	 * so that two generators can be made to clash.
	 * @param clock where the time part comes from
	 * @param instance the instance number
	 * @param counter the counter's first value
	 */
	public JobIdGenerator(Clock clock, long instance, long counter) {
		this.clock = clock;
		this.instance = Math.floorMod(instance, FOUR_DIGITS);
		this.counter = new AtomicLong(Math.floorMod(counter, FOUR_DIGITS));
	}

	/**
	 * Return a new id.
	 * @return 16 characters
	 */
	public String next() {
		char[] id = new char[16];
		write(id, 0, 8, this.clock.millis());
		write(id, 8, 4, this.instance);
		write(id, 12, 4, Math.floorMod(this.counter.getAndIncrement(), FOUR_DIGITS));
		return new String(id);
	}

	private static void write(char[] target, int offset, int length, long value) {
		for (int i = offset + length - 1; i >= offset; i--) {
			target[i] = DIGITS[(int) (value % 62)];
			value /= 62;
		}
	}

}
