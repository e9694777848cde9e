package io.github.delayqueue.internal.scheduler;

import java.util.concurrent.TimeUnit;

import io.github.delayqueue.internal.scheduler.HousekeepingStore.TopicSweep;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When a topic is swept next, decided from a sweep's reply.
 */
class TopicSweeperTests {

	private static final int BATCH = 100;

	private static final long SENT = 1_000_000;

	private static final long RECEIVED = SENT + TimeUnit.MILLISECONDS.toNanos(3);

	private static final long CAP = TimeUnit.SECONDS.toNanos(5);

	@Test
	void wakesAtTheNextDueTimeCountedFromTheSending() {
		// Due 20 ms after the Redis clock read, 250 microseconds into its millisecond.
		TopicSweep sweep = new TopicSweep(3, 1_000_020, 0, 0, 0, -1, 1_000_000, 250);

		assertThat(next(sweep)).isEqualTo(SENT + TimeUnit.MICROSECONDS.toNanos(19_750));
	}

	@Test
	void wakesAtTheNextDeadlineWhenItComesFirst() {
		TopicSweep sweep = new TopicSweep(0, 1_000_020, 0, 0, 0, 1_000_007, 1_000_000, 0);

		assertThat(next(sweep)).isEqualTo(SENT + TimeUnit.MILLISECONDS.toNanos(7));
	}

	@Test
	void wakesNoLaterThanTheCap() {
		TopicSweep sweep = new TopicSweep(0, 1_000_000 + 60_000, 0, 0, 0, -1, 1_000_000, 0);

		assertThat(next(sweep)).isEqualTo(SENT + CAP);
	}

	@Test
	void waitsTheCapAfterTheReplyWhenNothingIsScheduled() {
		TopicSweep sweep = new TopicSweep(0, -1, 0, 0, 0, -1, -1, 0);

		assertThat(next(sweep)).isEqualTo(RECEIVED + CAP);
	}

	@Test
	void goesAgainAtOnceAfterAFullBatch() {
		assertThat(next(new TopicSweep(BATCH, 1_000_000, 0, 0, 0, -1, 1_000_000, 0))).isEqualTo(RECEIVED);
		assertThat(next(new TopicSweep(0, -1, 60, 30, 10, 1_000_000, 1_000_000, 0))).isEqualTo(RECEIVED);
	}

	private static long next(TopicSweep sweep) {
		return TopicSweeper.nextSweep(sweep, BATCH, SENT, RECEIVED, CAP);
	}

}
