package io.github.delayqueue.listener;

import java.util.concurrent.Semaphore;

/**
 * Permits for a container's claimed and unfinished jobs: one per worker, plus those
 * claimed ahead of the free workers while handlers are quick. Their total can shrink
 * while jobs hold them: permits taken away while in use are simply not handed out again
 * when those jobs finish.
 *
 * @author delayqueue contributors
 */
final class ClaimPermits extends Semaphore {

	private static final long serialVersionUID = 1L;

	private final int concurrency;

	// Only the claim loop changes it; a volatile read is all other threads need.
	private volatile int limit;

	ClaimPermits(int concurrency) {
		super(concurrency);
		this.concurrency = concurrency;
		this.limit = concurrency;
	}

	/**
	 * Set how many jobs per worker are claimed ahead, adding or taking away the
	 * difference. Called by the claim loop only.
	 * @param jobsPerWorker jobs per worker to claim ahead, 0 for none
	 */
	void claimAhead(int jobsPerWorker) {
		int newLimit = this.concurrency * (1 + jobsPerWorker);
		if (newLimit > this.limit) {
			release(newLimit - this.limit);
		}
		else if (newLimit < this.limit) {
			reducePermits(this.limit - newLimit);
		}
		this.limit = newLimit;
	}

	/**
	 * Return how many jobs may be claimed and unfinished at once now.
	 * @return the workers plus the jobs claimed ahead
	 */
	int limit() {
		return this.limit;
	}

}
