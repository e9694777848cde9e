package io.github.delayqueue.test;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Consumer;

import io.github.delayqueue.store.DelayQueueKeys;

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
		long[] deleted = new long[1];
		// Channels and registries start with the prefix, a topic's keys with it inside
		// their hash tag.
		for (String pattern : new String[] { escape("{" + this.prefix + ":") + "*", escape(this.prefix + ":") + "*" }) {
			eachKey(pattern, (connection, key) -> {
				if (!kept.contains(new String(key, StandardCharsets.UTF_8))) {
					Long count = connection.keyCommands().del(key);
					deleted[0] += (count != null) ? count : 0;
				}
			});
		}
		return deleted[0];
	}

	private void eachKey(String pattern, KeyAction action) {
		ScanOptions options = ScanOptions.scanOptions().match(pattern).count(1000).build();
		try (RedisConnection connection = this.connectionFactory.getConnection()) {
			if (connection instanceof RedisClusterConnection cluster) {
				for (RedisClusterNode node : cluster.clusterGetNodes()) {
					if (node.isMaster()) {
						scan(cluster.scan(node, options), (key) -> action.apply(cluster, key));
					}
				}
			}
			else {
				scan(connection.keyCommands().scan(options), (key) -> action.apply(connection, key));
			}
		}
	}

	// Every key is read before any is deleted: no delete goes out on the connection while
	// its scan is still in progress.
	private static void scan(Cursor<byte[]> cursor, Consumer<byte[]> action) {
		Set<String> found = new HashSet<>();
		try (cursor) {
			cursor.forEachRemaining((key) -> found.add(new String(key, StandardCharsets.UTF_8)));
		}
		found.forEach((key) -> action.accept(bytes(key)));
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

	@FunctionalInterface
	private interface KeyAction {

		void apply(RedisConnection connection, byte[] key);

	}

}
