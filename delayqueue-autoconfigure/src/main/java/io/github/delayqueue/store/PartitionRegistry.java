package io.github.delayqueue.store;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Knows every queue of a topic: those its partitions are written to now, and those other
 * instances, or this one before a change of the number of partitions, wrote to. Senders
 * record their queues in the topic's partition set before writing to them, so that
 * consumers and schedulers keep delivering from a queue that is no longer written.
 *
 * @author delayqueue contributors
 */
public final class PartitionRegistry {

	private final ScriptRunner scripts;

	private final DelayQueueKeys keys;

	/**
	 * Create a registry.
	 * @param scripts runs the commands
	 * @param keys names the keys and computes the layouts
	 */
	public PartitionRegistry(ScriptRunner scripts, DelayQueueKeys keys) {
		this.scripts = scripts;
		this.keys = keys;
	}

	/**
	 * Record the queues a topic's jobs are written to now; nothing for an unpartitioned
	 * topic, whose one queue is always known.
	 * @param topic the topic
	 * @return how many queues were recorded for the first time
	 */
	public long register(String topic) {
		List<String> queues = this.keys.queues(topic);
		if (queues.size() == 1) {
			return 0;
		}
		// The topic is named in the set of partitioned topics first, so that whoever
		// finds a queue in its partition set also finds the topic there.
		this.scripts.addToSet(this.keys.partitionedTopicSet(), topic);
		return this.scripts.addToSet(this.keys.partitionSet(topic),
				queues.subList(1, queues.size()).toArray(String[]::new));
	}

	/**
	 * Return every queue of a topic: those written to now, in partition order, then those
	 * recorded by any sender.
	 * @param topic the topic
	 * @return the queue names, the topic's own first
	 */
	public List<String> queues(String topic) {
		return queues(topic, true);
	}

	/**
	 * Return every queue of several topics, as {@link #queues(String)} does for one, with
	 * one read of the set of partitioned topics and one of the partition set of each of
	 * those only: an idle application's periodic look at its topics stays at two commands
	 * however many unpartitioned topics it has.
	 * @param topics the topics
	 * @return the queue names of each topic, in the order of the topics given
	 */
	public Map<String, List<String>> queues(Collection<String> topics) {
		Set<String> partitioned = this.scripts.members(this.keys.partitionedTopicSet());
		Map<String, List<String>> queues = new LinkedHashMap<>();
		for (String topic : topics) {
			queues.put(topic, queues(topic, partitioned.contains(topic)));
		}
		return queues;
	}

	private List<String> queues(String topic, boolean recorded) {
		List<String> written = this.keys.queues(topic);
		if (!recorded) {
			return written;
		}
		Set<String> queues = new LinkedHashSet<>(written);
		for (String queue : this.scripts.members(this.keys.partitionSet(topic))) {
			// Only queues of this topic: the set is ours, but its members come from
			// Redis.
			if (DelayQueueKeys.topicOf(queue).equals(topic)) {
				queues.add(queue);
			}
		}
		return new ArrayList<>(queues);
	}

}
