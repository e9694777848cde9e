package io.github.delayqueue.core;

/**
 * How many jobs of a topic are in each state.
 *
 * @param topic the topic
 * @param delayed jobs waiting for their due time
 * @param ready due jobs waiting for a consumer
 * @param running jobs delivered and not yet acknowledged
 * @param dead jobs that failed for good
 * @author delayqueue contributors
 */
public record TopicStats(String topic, long delayed, long ready, long running, long dead) {

	/**
	 * Return the number of jobs that still have to run: delayed, ready and running.
	 * @return the pending job count
	 */
	public long pending() {
		return this.delayed + this.ready + this.running;
	}

}
