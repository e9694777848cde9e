package io.github.delayqueue.internal.support;

import java.util.List;

/**
 * Hears of the jobs a scheduler made dead because their last delivery's time to run
 * elapsed without an acknowledgement, so that the application's dead-job listeners are
 * told. Called on the scheduler's thread: implementations must return at once.
 *
 * @author delayqueue contributors
 */
@FunctionalInterface
public interface ExpiredDeadJobsListener {

	/**
	 * Jobs of a queue became dead.
	 * @param queue the queue: a topic, or a partition of one
	 * @param ids the jobs' ids
	 */
	void jobsDied(String queue, List<String> ids);

}
