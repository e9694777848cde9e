package io.github.delayqueue.internal.store;

/**
 * A topic's jobs counted per state.
 *
 * @param topic the topic
 * @param delayed jobs waiting for their due time
 * @param ready jobs due and waiting for a listener
 * @param running jobs being handled
 * @param dead jobs that failed for good
 * @author delayqueue contributors
 */
public record StateCounts(String topic, long delayed, long ready, long running, long dead) {

	/**
	 * Return how many jobs are still to run (delayed, ready or running).
	 * @return the pending jobs
	 */
	public long pending() {
		return this.delayed + this.ready + this.running;
	}

}
