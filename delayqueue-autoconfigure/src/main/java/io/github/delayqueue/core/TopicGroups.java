package io.github.delayqueue.core;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The groups of a topic (see {@link JobRequest.Builder#group(String)}) whose READY jobs
 * wait for their turn.
 *
 * @param topic the topic
 * @param groups how many groups have jobs waiting for their turn, per partition of a
 * partitioned topic and summed
 * @param largest the groups with the most jobs waiting, most first, at most
 * {@link DelayQueueAdmin#MAX_GROUPS_SHOWN}
 * @author delayqueue contributors
 */
public record TopicGroups(String topic, long groups, List<Waiting> largest) {

	/**
	 * One group's READY jobs waiting for their turn.
	 *
	 * @param group the group, or {@code null} for the topic's jobs without one
	 * @param waiting how many wait for their turn
	 */
	public record Waiting(@Nullable String group, long waiting) {

	}

}
