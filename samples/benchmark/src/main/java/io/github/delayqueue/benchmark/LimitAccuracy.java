package io.github.delayqueue.benchmark;

import java.time.Duration;
import java.util.Arrays;

/**
 * How closely a series of handler starts kept to a rate limit of {@code limit} starts in
 * any window of one period: the most starts any such window held, how long the starts
 * took against a perfect limiter, and how long each start came after the moment a perfect
 * limiter would have started it. A perfect limiter starts the first {@code limit} jobs at
 * the first start, the next {@code limit} one period later, and so on: the i-th start
 * (from 0) at {@code first + floor(i / limit) * period}.
 */
final class LimitAccuracy {

	private final long[] starts;

	private final int limit;

	private final long periodMicros;

	private final long[] waits;

	/**
	 * Measure a series of starts.
	 * @param startMicros the starts, in microseconds on one clock, in any order
	 * @param limit the starts the limit allows in a window
	 * @param period the window's length
	 */
	LimitAccuracy(long[] startMicros, int limit, Duration period) {
		if (startMicros.length == 0) {
			throw new IllegalArgumentException("No starts to measure");
		}
		this.starts = startMicros.clone();
		Arrays.sort(this.starts);
		this.limit = limit;
		this.periodMicros = period.toNanos() / 1000;
		this.waits = new long[this.starts.length];
		for (int i = 0; i < this.starts.length; i++) {
			this.waits[i] = this.starts[i] - ideal(i);
		}
		Arrays.sort(this.waits);
	}

	int starts() {
		return this.starts.length;
	}

	/**
	 * The most starts in any window of one period, wherever it begins. Only windows that
	 * begin at a start are counted: any other window holds no more than the one that
	 * begins at its first start, which takes in the same starts and perhaps later ones.
	 * @return the most starts in one window
	 */
	int mostInAWindow() {
		int most = 0;
		int end = 0;
		for (int begin = 0; begin < this.starts.length; begin++) {
			// A start one whole period after another is in the next window: the limit
			// forgets a start once a period has passed since it.
			while (end < this.starts.length && this.starts[end] < this.starts[begin] + this.periodMicros) {
				end++;
			}
			most = Math.max(most, end - begin);
		}
		return most;
	}

	long firstToLastMicros() {
		return this.starts[this.starts.length - 1] - this.starts[0];
	}

	/**
	 * How long a perfect limiter takes from the first start to the last.
	 * @return microseconds
	 */
	long idealFirstToLastMicros() {
		return ideal(this.starts.length - 1) - this.starts[0];
	}

	/**
	 * How long after a perfect limiter's moment a given share of the starts came at most.
	 * @param percentile from 0 to 100
	 * @return microseconds; negative if the starts came earlier than a perfect limiter
	 * allows
	 */
	long waitMicros(double percentile) {
		int rank = (int) Math.ceil(percentile / 100 * this.waits.length);
		return this.waits[Math.max(0, rank - 1)];
	}

	private long ideal(int index) {
		return this.starts[0] + (index / this.limit) * this.periodMicros;
	}

}
