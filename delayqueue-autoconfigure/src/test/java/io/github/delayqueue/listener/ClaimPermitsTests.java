package io.github.delayqueue.listener;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Permits for claimed and unfinished jobs, and claiming ahead, without Redis.
 */
class ClaimPermitsTests {

	@Test
	void startsWithOnePermitPerWorker() {
		ClaimPermits permits = new ClaimPermits(3);
		assertThat(permits.limit()).isEqualTo(3);
		assertThat(permits.availablePermits()).isEqualTo(3);
	}

	@Test
	void addsPermitsForJobsClaimedAheadOfEachWorker() {
		ClaimPermits permits = new ClaimPermits(3);
		permits.claimAhead(2);
		assertThat(permits.limit()).isEqualTo(9);
		assertThat(permits.availablePermits()).isEqualTo(9);
		permits.claimAhead(2);
		assertThat(permits.availablePermits()).isEqualTo(9);
	}

	@Test
	void takesPermitsInUseOutOfCirculationWhenHandlersSlowDown() {
		ClaimPermits permits = new ClaimPermits(2);
		permits.claimAhead(3);
		assertThat(permits.tryAcquire(8)).isTrue();
		permits.claimAhead(0);
		assertThat(permits.limit()).isEqualTo(2);
		assertThat(permits.availablePermits()).isEqualTo(-6);
		// The eight claimed jobs finish: only the two workers' permits come back.
		permits.release(8);
		assertThat(permits.availablePermits()).isEqualTo(2);
	}

	@Test
	void neverHandsOutMorePermitsThanTheLimit() {
		ClaimPermits permits = new ClaimPermits(1);
		permits.claimAhead(4);
		permits.claimAhead(1);
		assertThat(permits.limit()).isEqualTo(2);
		assertThat(permits.tryAcquire(2)).isTrue();
		assertThat(permits.tryAcquire()).isFalse();
	}

}
