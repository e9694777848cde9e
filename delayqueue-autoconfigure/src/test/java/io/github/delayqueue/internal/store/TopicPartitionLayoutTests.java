package io.github.delayqueue.internal.store;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.github.delayqueue.test.ClusterExtension;
import io.github.delayqueue.test.RedisTestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where a topic's partitions go: each in its own N-th of the slot space, the slots
 * computed as a real Redis Cluster computes them, and job ids spread evenly over them.
 */
@ExtendWith(ClusterExtension.class)
class TopicPartitionLayoutTests {

	@Test
	void computesTheSlotOfATagAsRedisDoes(RedisTestCluster cluster) {
		for (String tag : List.of("dq:orders", "dq:orders~1", "delayqueue:payments.retry~77", "x", "été")) {
			String reply = cluster.masters().get(0).command("CLUSTER", "KEYSLOT", "{" + tag + "}:jobs");
			assertThat(ClusterSlots.slotOfTag(tag)).as(tag).isEqualTo(Integer.parseInt(reply.substring(1).trim()));
		}
	}

	@Test
	void oneUnpartitionedQueueKeepsTheTopicsOwnKeys() {
		TopicPartitionLayout layout = TopicPartitionLayout.of("dq", "orders", 1);
		assertThat(layout.queues()).containsExactly("orders");
		assertThat(layout.queueOf("any-id")).isEqualTo("orders");
		assertThat(new DelayQueueKeys("dq").topic("orders").jobs()).isEqualTo("{dq:orders}:jobs");
	}

	@Test
	void placesEachPartitionInItsOwnShareOfTheSlotSpace() {
		for (int partitions : new int[] { 2, 3, 6, 16, 100, 1024 }) {
			TopicPartitionLayout layout = TopicPartitionLayout.of("dq", "orders", partitions);
			List<String> queues = layout.queues();
			assertThat(queues).hasSize(partitions).doesNotHaveDuplicates().first().isEqualTo("orders");
			Set<Integer> shares = new HashSet<>();
			for (String queue : queues) {
				assertThat(DelayQueueKeys.topicOf(queue)).isEqualTo("orders");
				shares.add(TopicPartitionLayout.shareOf(ClusterSlots.slotOfTag("dq:" + queue), partitions));
			}
			assertThat(shares).as("shares of %d partitions", partitions).hasSize(partitions);
		}
	}

	@Test
	void spreadsPartitionsEvenlyOverMastersOfEqualSlotRanges() {
		// The ranges redis-cli --cluster create gives three masters.
		int[] firstSlotOfMaster = { 0, 5461, 10923 };
		for (String topic : List.of("orders.timeout", "payments.retry", "bench.partitioned", "a")) {
			for (int partitions : new int[] { 3, 6, 12 }) {
				int[] perMaster = new int[3];
				for (String queue : TopicPartitionLayout.of("dq", topic, partitions).queues()) {
					int slot = ClusterSlots.slotOfTag("dq:" + queue);
					perMaster[(slot >= firstSlotOfMaster[2]) ? 2 : (slot >= firstSlotOfMaster[1]) ? 1 : 0]++;
				}
				assertThat(perMaster).as("%s with %d partitions", topic, partitions).containsOnly(partitions / 3);
			}
		}
	}

	@Test
	void mapsIdsEvenlyAndAlwaysToTheSamePartition() {
		TopicPartitionLayout layout = TopicPartitionLayout.of("dq", "orders", 6);
		Map<String, Integer> counts = new HashMap<>();
		List<String> first = new ArrayList<>();
		for (int i = 0; i < 60_000; i++) {
			String queue = layout.queueOf("order-" + i);
			counts.merge(queue, 1, Integer::sum);
			if (i < 100) {
				first.add(queue);
			}
		}
		assertThat(counts).hasSize(6);
		assertThat(counts.values()).allSatisfy((count) -> assertThat(count).isBetween(9_500, 10_500));
		TopicPartitionLayout again = TopicPartitionLayout.of("dq", "orders", 6);
		for (int i = 0; i < 100; i++) {
			assertThat(again.queueOf("order-" + i)).isEqualTo(first.get(i));
		}
	}

}
