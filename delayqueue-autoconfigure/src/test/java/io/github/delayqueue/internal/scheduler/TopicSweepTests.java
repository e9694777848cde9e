package io.github.delayqueue.internal.scheduler;

import java.util.concurrent.TimeUnit;

import io.github.delayqueue.internal.scheduler.HousekeepingStore.TopicSweep;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When a sweep's reply says the topic's next event comes due.
 */
class TopicSweepTests {

	@Test
	void countsToTheStartOfTheDueMillisecondFromTheMicrosecondOfTheSweep() {
		TopicSweep sweep = new TopicSweep(0, 1_000_010, 0, 0, 0, -1, 1_000_000, 250);

		assertThat(sweep.nanosUntilNextEvent()).isEqualTo(TimeUnit.MICROSECONDS.toNanos(9_750));
	}

	@Test
	void takesTheEarlierOfTheNextDueTimeAndTheNextDeadline() {
		TopicSweep sweep = new TopicSweep(0, 1_000_010, 0, 0, 0, 1_000_004, 1_000_000, 999);

		assertThat(sweep.nanosUntilNextEvent()).isEqualTo(TimeUnit.MICROSECONDS.toNanos(3_001));
	}

	@Test
	void isZeroForAnEventDueInTheMillisecondOfTheSweep() {
		TopicSweep sweep = new TopicSweep(0, 1_000_000, 0, 0, 0, -1, 1_000_000, 500);

		assertThat(sweep.nanosUntilNextEvent()).isZero();
	}

}
