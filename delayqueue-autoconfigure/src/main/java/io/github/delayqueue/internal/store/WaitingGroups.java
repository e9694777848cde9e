package io.github.delayqueue.internal.store;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The groups of a topic whose READY jobs wait for their turn (see
 * {@code JobRequest.Builder#group}), summed over the topic's partitions.
 *
 * @param groups how many groups have jobs waiting, in all partitions together (a group
 * waiting in two partitions counts twice)
 * @param largest the groups with the most jobs waiting, most first
 * @author delayqueue contributors
 */
public record WaitingGroups(long groups, List<Group> largest) {

	/**
	 * One group and its jobs waiting for their turn.
	 *
	 * @param group the group, or {@code null} for the jobs sent without one
	 * @param waiting how many of its READY jobs wait for their turn
	 * @param running how many of its jobs run holding a permit of its own concurrency (0
	 * without a group concurrency)
	 * @param held whether its own bounds (a group concurrency or rate limit) refuse its
	 * jobs now, as an instance last found
	 */
	public record Group(@Nullable String group, long waiting, long running, boolean held) {

	}

}
