package io.github.delayqueue.store;

import java.util.List;

/**
 * The queues a topic's jobs are written to when it has N partitions, and which of them
 * holds a given job id. Partition 0 is the topic's own keys, {@code {prefix:topic}}, so
 * that one partition is the layout of an unpartitioned topic. Partition p of N has the
 * hash tag {@code {prefix:topic~s}}, with the smallest salt s that puts it in the p-th
 * N-th of the slot space counted from partition 0's slot: N partitions then land on N
 * different slot ranges, as far apart as they can be, and so on as many masters as the
 * cluster's slot ranges allow. The layout follows from the prefix, topic and N alone, so
 * every instance computes the same one.
 *
 * @author delayqueue contributors
 */
final class TopicPartitionLayout {

	/**
	 * Separates a topic from a partition's salt in a queue name; no topic name holds it.
	 */
	static final char SEPARATOR = '~';

	private final String[] queues;

	private final List<String> names;

	private TopicPartitionLayout(String[] queues) {
		this.queues = queues;
		this.names = List.of(queues);
	}

	/**
	 * Compute the layout of a topic.
	 * @param prefix the key prefix
	 * @param topic the topic
	 * @param partitions how many partitions, 1 or more
	 * @return the layout
	 */
	static TopicPartitionLayout of(String prefix, String topic, int partitions) {
		String[] queues = new String[partitions];
		queues[0] = topic;
		int base = ClusterSlots.slotOfTag(prefix + ":" + topic);
		for (int p = 1; p < partitions; p++) {
			int from = (base + (int) ((long) p * ClusterSlots.SLOTS / partitions)) % ClusterSlots.SLOTS;
			int width = (int) ((long) (p + 1) * ClusterSlots.SLOTS / partitions)
					- (int) ((long) p * ClusterSlots.SLOTS / partitions);
			// The ranges do not overlap, so no two partitions find the same salt.
			int salt = 1;
			while (Math.floorMod(ClusterSlots.slotOfTag(prefix + ":" + topic + SEPARATOR + salt) - from,
					ClusterSlots.SLOTS) >= width) {
				salt++;
			}
			queues[p] = topic + SEPARATOR + salt;
		}
		return new TopicPartitionLayout(queues);
	}

	/**
	 * Return the queues, partition 0 first.
	 * @return the queue names
	 */
	List<String> queues() {
		return this.names;
	}

	/**
	 * Return the queue that holds a job id: a hash of the id modulo N, stable across
	 * instances and versions.
	 * @param id the job id
	 * @return the queue name
	 */
	String queueOf(String id) {
		if (this.queues.length == 1) {
			return this.queues[0];
		}
		return this.queues[Math.floorMod(mix(id.hashCode()), this.queues.length)];
	}

	// String.hashCode is fixed by the language; its low bits follow the id's last
	// characters only, so spread every bit over all of them (MurmurHash3's finalizer).
	private static int mix(int hash) {
		int h = hash;
		h ^= h >>> 16;
		h *= 0x85ebca6b;
		h ^= h >>> 13;
		h *= 0xc2b2ae35;
		h ^= h >>> 16;
		return h;
	}

}
