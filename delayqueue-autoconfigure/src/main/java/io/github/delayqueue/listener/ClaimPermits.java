package io.github.delayqueue.listener;

import java.util.concurrent.Semaphore;

/**
 * Permits for a container's claimed and unfinished jobs, whose total can shrink while
 * jobs hold them: permits taken away while in use are simply not handed out again when
 * those jobs finish.
 *
 * @author delayqueue contributors
 */
final class ClaimPermits extends Semaphore {

	private static final long serialVersionUID = 1L;

	ClaimPermits(int permits) {
		super(permits);
	}

	/**
	 * Take permits out of circulation, even ones in use now.
	 * @param permits how many
	 */
	void reduce(int permits) {
		reducePermits(permits);
	}

}
