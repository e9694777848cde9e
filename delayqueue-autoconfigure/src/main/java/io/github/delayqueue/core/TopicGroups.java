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
	 * Return these groups with their names replaced by {@link JobInfo#HIDDEN}, for
	 * showing to someone who may not see header values: a group is one.
	 * @return the groups without their names
	 */
	public TopicGroups withoutNames() {
		return new TopicGroups(this.topic, this.groups, this.largest.stream()
			.map((waiting) -> (waiting.group() != null)
					? new Waiting(JobInfo.HIDDEN, waiting.waiting(), waiting.running(), waiting.held()) : waiting)
			.toList());
	}

	/**
	 * One group's READY jobs waiting for their turn, and how it stands against its own
	 * bounds ({@code delayqueue.topics.<topic>.group.*}).
	 *
	 * @param group the group, or {@code null} for the topic's jobs without one
	 * @param waiting how many wait for their turn
	 * @param running how many of its jobs run holding a permit of the group's concurrency
	 * across instances (0 when groups have no concurrency bound)
	 * @param held whether the group's own bounds refuse its jobs now, as an instance last
	 * found: its jobs wait while the other groups take their turns
	 */
	public record Waiting(@Nullable String group, long waiting, long running, boolean held) {

		/**
		 * One group's jobs waiting for their turn, with no bounds of its own in use.
		 * @param group the group, or {@code null} for the topic's jobs without one
		 * @param waiting how many wait for their turn
		 */
		public Waiting(@Nullable String group, long waiting) {
			this(group, waiting, 0, false);
		}

	}

}
