package io.github.delayqueue.test;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.github.delayqueue.internal.store.DelayQueueKeys;

import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisClusterNode;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.ScanOptions;

/**
 * Deletes the keys of one key prefix: those of its topics' jobs between tests, and every
 * one of them when the test's application context closes. Keys of any other prefix, the
 * application's own data on a shared Redis included, are never touched.
 *
 * @author delayqueue contributors
 */
final class QueueWipe {

	// As many keys as one SCAN step asks for and one DEL deletes.
	private static final int DELETE_BATCH = 1000;

	private final RedisConnectionFactory connectionFactory;

	private final DelayQueueKeys keys;

	private final String prefix;

	QueueWipe(RedisConnectionFactory connectionFactory, DelayQueueKeys keys, String prefix) {
		this.connectionFactory = connectionFactory;
		this.keys = keys;
		this.prefix = prefix;
	}

	/**
	 * Delete every key of the prefix but the registries of topic names and partitions,
	 * which senders write only once in a while: the topics are emptied, not forgotten.
	 * @return how many keys were deleted
	 */
	long jobs() {
		Set<String> kept = new HashSet<>();
		kept.add(this.keys.topicSet());
		kept.add(this.keys.partitionedTopicSet());
		try (RedisConnection connection = this.connectionFactory.getConnection()) {
			Set<byte[]> topics = connection.setCommands().sMembers(bytes(this.keys.topicSet()));
			if (topics != null) {
				for (byte[] topic : topics) {
					String name = new String(topic, StandardCharsets.UTF_8);
					kept.add(this.keys.partitionSet(name));
					kept.add(this.keys.partitionRevivals(name));
				}
			}
		}
		return delete(kept);
	}

	/**
	 * Delete every key of the prefix.
	 * @return how many keys were deleted
	 */
	long all() {
		return delete(Set.of());
	}

	private long delete(Set<String> kept) {
		long deleted = 0;
		try (RedisConnection connection = this.connectionFactory.getConnection()) {
			// Channels and registries start with the prefix, a topic's keys with it
			// inside their hash tag.
			for (String pattern : new String[] { escape("{" + this.prefix + ":") + "*",
					escape(this.prefix + ":") + "*" }) {
				List<byte[]> doomed = keys(connection, pattern).stream()
					.filter((key) -> !kept.contains(key))
					.map(QueueWipe::bytes)
					.toList();
				for (int from = 0; from < doomed.size(); from += DELETE_BATCH) {
					List<byte[]> batch = doomed.subList(from, Math.min(from + DELETE_BATCH, doomed.size()));
					Long count = connection.keyCommands().del(batch.toArray(byte[][]::new));
					deleted += (count != null) ? count : 0;
				}
			}
		}
		return deleted;
	}

	// Every key is read before any is deleted: no delete goes out on the connection while
	// its scan is still in progress.
	private static Set<String> keys(RedisConnection connection, String pattern) {
		ScanOptions options = ScanOptions.scanOptions().match(pattern).count(DELETE_BATCH).build();
		Set<String> found = new HashSet<>();
		if (connection instanceof RedisClusterConnection cluster) {
			for (RedisClusterNode node : cluster.clusterGetNodes()) {
				if (node.isMaster()) {
					collect(cluster.scan(node, options), found);
				}
			}
		}
		else {
			collect(connection.keyCommands().scan(options), found);
		}
		return found;
	}

	private static void collect(Cursor<byte[]> cursor, Set<String> found) {
		try (cursor) {
			cursor.forEachRemaining((key) -> found.add(new String(key, StandardCharsets.UTF_8)));
		}
	}

	// Redis's glob characters in a prefix stand for themselves.
	private static String escape(String literal) {
		StringBuilder escaped = new StringBuilder(literal.length() + 4);
		for (char c : literal.toCharArray()) {
			if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') {
				escaped.append('\\');
			}
			escaped.append(c);
		}
		return escaped.toString();
	}

	private static byte[] bytes(String value) {
		return value.getBytes(StandardCharsets.UTF_8);
	}

}
