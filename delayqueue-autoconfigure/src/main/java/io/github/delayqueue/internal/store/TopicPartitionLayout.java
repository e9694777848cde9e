package io.github.delayqueue.internal.store;

import java.util.List;

/**
 * The queues a topic's jobs are written to when it has N partitions, and which of them
 * holds a given job id. The slot space is cut into N equal shares. Partition 0 is the
 * topic's own keys, {@code {prefix:topic}}, in whichever share their slot falls, so that
 * one partition is the layout of an unpartitioned topic; every other partition takes one
 * of the remaining shares, with the hash tag {@code {prefix:topic~s}} for the smallest
 * salt s whose slot lies in the middle half of that share. A cluster whose masters own
 * equal ranges of slots (as {@code redis-cli --cluster create} makes them) thus carries
 * N/M partitions on each of its M masters when N is a multiple of M, and one partition on
 * each of N masters when N is smaller. The layout follows from the prefix, topic and N
 * alone, so every instance computes the same one.
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
		int ownShare = shareOf(ClusterSlots.slotOfTag(prefix + ":" + topic), partitions);
		int p = 1;
		for (int share = 0; share < partitions; share++) {
			if (share != ownShare) {
				queues[p++] = topic + SEPARATOR + saltIn(prefix, topic, share, partitions);
			}
		}
		return new TopicPartitionLayout(queues);
	}

	/**
	 * Return the share of the slot space a slot lies in, when it is cut into N shares.
	 * @param slot the slot
	 * @param shares N
	 * @return the share, 0 to N - 1
	 */
	static int shareOf(int slot, int shares) {
		int share = (int) ((long) slot * shares / ClusterSlots.SLOTS);
		// Shares start at floor(i * SLOTS / N): the estimate may be one short.
		while (share + 1 < shares && start(share + 1, shares) <= slot) {
			share++;
		}
		return share;
	}

	private static int start(int share, int shares) {
		return (int) ((long) share * ClusterSlots.SLOTS / shares);
	}

	// The smallest salt whose slot lies in the middle half of the share, away from the
	// edges where one master's slots end and the next one's begin; the whole share
	// when it is too narrow to have a middle.
	private static int saltIn(String prefix, String topic, int share, int shares) {
		int from = start(share, shares);
		int width = start(share + 1, shares) - from;
		int low = (width >= 4) ? from + width / 4 : from;
		int high = (width >= 4) ? from + width - width / 4 : from + width;
		int salt = 1;
		while (true) {
			int slot = ClusterSlots.slotOfTag(prefix + ":" + topic + SEPARATOR + salt);
			if (slot >= low && slot < high) {
				return salt;
			}
			salt++;
		}
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
