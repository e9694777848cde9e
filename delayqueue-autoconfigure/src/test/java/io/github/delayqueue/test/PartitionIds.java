package io.github.delayqueue.test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.github.delayqueue.internal.store.DelayQueueKeys;

/**
 * Job ids chosen for the partition a layout maps them to, for tests that need jobs in
 * given partitions of a topic.
 */
public final class PartitionIds {

	private PartitionIds() {
	}

	/**
	 * Return ids that the layout maps to as many different queues of the topic.
	 * @param keys the layout
	 * @param topic the topic
	 * @param partitions how many ids, at most the topic's number of partitions
	 * @return the ids, one per queue
	 */
	public static List<String> onePerPartition(DelayQueueKeys keys, String topic, int partitions) {
		List<String> ids = new ArrayList<>();
		Set<String> queues = new HashSet<>();
		for (int i = 0; ids.size() < partitions; i++) {
			if (queues.add(keys.queueOf(topic, "job-" + i))) {
				ids.add("job-" + i);
			}
		}
		return ids;
	}

	/**
	 * Return an id that the layout maps to a queue of the topic.
	 * @param keys the layout
	 * @param topic the topic
	 * @param queue the queue
	 * @param n tells apart the ids asked for the same queue
	 * @return the id
	 */
	public static String idIn(DelayQueueKeys keys, String topic, String queue, int n) {
		for (int i = 0;; i++) {
			String id = "job-" + n + "-" + i;
			if (keys.queueOf(topic, id).equals(queue)) {
				return id;
			}
		}
	}

}
