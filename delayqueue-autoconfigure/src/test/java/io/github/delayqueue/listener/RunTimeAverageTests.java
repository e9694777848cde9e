package io.github.delayqueue.listener;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How much work a container claims ahead, by its handlers' recent run times.
 */
class RunTimeAverageTests {

	@Test
	void claimsNothingAheadUntilHandlersProveQuick() {
		assertThat(new RunTimeAverage().jobsPerClaimAheadWindow()).isZero();
	}

	@Test
	void claimsAboutTwentyMillisecondsOfWorkAheadPerWorker() {
		RunTimeAverage average = runs(TimeUnit.MICROSECONDS.toNanos(3900), 200);
		assertThat(average.jobsPerClaimAheadWindow()).isEqualTo(5);
	}

	@Test
	void claimsAtMostSixteenJobsAheadPerWorkerHoweverQuickTheHandlers() {
		RunTimeAverage average = runs(TimeUnit.MICROSECONDS.toNanos(10), 300);
		assertThat(average.jobsPerClaimAheadWindow()).isEqualTo(RunTimeAverage.MAX_CLAIM_AHEAD);
	}

	@Test
	void stopsClaimingAheadSoonAfterHandlersTurnSlow() {
		RunTimeAverage average = runs(TimeUnit.MICROSECONDS.toNanos(10), 300);
		for (int i = 0; i < 8; i++) {
			average.add(TimeUnit.MILLISECONDS.toNanos(500));
		}
		assertThat(average.jobsPerClaimAheadWindow()).isZero();
	}

	private static RunTimeAverage runs(long nanos, int count) {
		RunTimeAverage average = new RunTimeAverage();
		for (int i = 0; i < count; i++) {
			average.add(nanos);
		}
		return average;
	}

}
