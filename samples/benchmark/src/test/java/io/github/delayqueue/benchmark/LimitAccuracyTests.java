package io.github.delayqueue.benchmark;

import java.time.Duration;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link LimitAccuracy}.
 */
class LimitAccuracyTests {

	private static final Duration SECOND = Duration.ofSeconds(1);

	@Test
	void countsTheWindowsThatStraddleAFixedWindowsBoundary() {
		// Ten starts late in one second and ten early in the next: two fixed windows
		// would hold ten each.
		long[] starts = LongStream
			.concat(LongStream.range(0, 10).map((i) -> 900_000 + i), LongStream.range(0, 10).map((i) -> 1_100_000 + i))
			.toArray();

		assertThat(new LimitAccuracy(starts, 10, SECOND).mostInAWindow()).isEqualTo(20);
	}

	@Test
	void leavesAStartOnePeriodLaterToTheNextWindow() {
		long[] starts = { 0, 1, 1_000_000, 1_000_001 };

		assertThat(new LimitAccuracy(starts, 2, SECOND).mostInAWindow()).isEqualTo(2);
	}

	@Test
	void measuresEachStartAgainstAPerfectLimiterFromTheFirstStart() {
		// Limit 2: a perfect limiter starts 0 and 1 at 0 s, 2 and 3 at 1 s, 4 at 2 s.
		long[] starts = { 2_000_000, 0, 1_000, 1_000_000, 1_300_000 };

		LimitAccuracy accuracy = new LimitAccuracy(starts, 2, SECOND);

		assertThat(accuracy.starts()).isEqualTo(5);
		assertThat(accuracy.firstToLastMicros()).isEqualTo(2_000_000);
		assertThat(accuracy.idealFirstToLastMicros()).isEqualTo(2_000_000);
		// Waits, sorted: 0, 0, 0, 1,000, 300,000.
		assertThat(accuracy.waitMicros(50)).isZero();
		assertThat(accuracy.waitMicros(80)).isEqualTo(1_000);
		assertThat(accuracy.waitMicros(99)).isEqualTo(300_000);
		assertThat(accuracy.waitMicros(100)).isEqualTo(300_000);
		assertThat(accuracy.mostInAWindow()).isEqualTo(2);
	}

	@Test
	void showsStartsEarlierThanAPerfectLimiterAllowsAsNegativeWaits() {
		long[] starts = { 0, 1, 500_000 };

		LimitAccuracy accuracy = new LimitAccuracy(starts, 2, SECOND);

		assertThat(accuracy.waitMicros(100)).isEqualTo(1);
		assertThat(accuracy.waitMicros(1)).isEqualTo(-500_000);
	}

	@Test
	void refusesAnEmptySeries() {
		assertThatIllegalArgumentException().isThrownBy(() -> new LimitAccuracy(new long[0], 1, SECOND))
			.withMessage("No starts to measure");
	}

}
