package io.github.delayqueue.test;

import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.delayqueue.internal.store.DelayQueueKeys;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Deleting the keys of one prefix on a real Redis, and nothing else.
 */
class QueueWipeTests {

	private static final int KEYS_TO_WIPE = 200;

	private LettuceConnectionFactory connectionFactory;

	private StringRedisTemplate redis;

	@BeforeEach
	void connect() {
		EmbeddedRedisServer server = EmbeddedRedisServer.of(System.getProperty("delayqueue-test.redis-server",
				System.getenv().getOrDefault("DELAYQUEUE_TEST_REDIS_SERVER", EmbeddedRedisServer.EMBEDDED)));
		this.connectionFactory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(server.host(), server.port()));
		this.connectionFactory.afterPropertiesSet();
		this.connectionFactory.start();
		this.redis = new StringRedisTemplate(this.connectionFactory);
	}

	@AfterEach
	void disconnect() {
		this.connectionFactory.destroy();
	}

	@Test
	void deletesTheJobsOfItsPrefixAndKeepsTheTopicsAndEveryOtherKey() {
		DelayQueueKeys keys = new DelayQueueKeys("wipe*1");
		this.redis.opsForSet().add(keys.topicSet(), "orders");
		this.redis.opsForSet().add(keys.partitionSet("orders"), "orders~3");
		this.redis.opsForHash().put(keys.topic("orders").jobs(), "a", "record");
		this.redis.opsForZSet().add(keys.topic("orders~3").delayed(), "b", 1);
		this.redis.opsForValue().set("wipe*1:history:minute", "1");
		this.redis.opsForValue().set("wipeX1:topics", "another prefix that the glob would match");
		this.redis.opsForValue().set("{wipeX1:orders}:jobs", "another prefix's topic");
		this.redis.opsForValue().set("application:data", "kept");

		long deleted = new QueueWipe(this.connectionFactory, keys, "wipe*1").jobs();

		assertThat(deleted).isEqualTo(3);
		assertThat(this.redis.keys("*")).containsAll(Set.of(keys.topicSet(), keys.partitionSet("orders"),
				"wipeX1:topics", "{wipeX1:orders}:jobs", "application:data"));
		assertThat(this.redis.hasKey(keys.topic("orders").jobs())).isFalse();
		assertThat(this.redis.hasKey(keys.topic("orders~3").delayed())).isFalse();

		assertThat(new QueueWipe(this.connectionFactory, keys, "wipe*1").all()).isEqualTo(2);
		assertThat(this.redis.keys("*")).contains("wipeX1:topics", "{wipeX1:orders}:jobs", "application:data")
			.doesNotContain(keys.topicSet(), keys.partitionSet("orders"));
	}

	@Test
	void deletesManyKeysInAFewCommandsNotOneEach() {
		DelayQueueKeys keys = new DelayQueueKeys("wipe2");
		this.redis.opsForSet().add(keys.topicSet(), "orders");
		for (int i = 0; i < KEYS_TO_WIPE; i++) {
			this.redis.opsForValue().set(keys.topic("orders").jobs() + ":" + i, "record");
		}
		long before = deleteCalls();

		long deleted = new QueueWipe(this.connectionFactory, keys, "wipe2").jobs();

		assertThat(deleted).isEqualTo(KEYS_TO_WIPE);
		// A bound far below one DEL per key, with room for whatever else talks to this
		// Redis.
		assertThat(deleteCalls() - before).isLessThan(KEYS_TO_WIPE / 4);
	}

	private long deleteCalls() {
		Properties stats;
		try (RedisConnection connection = this.connectionFactory.getConnection()) {
			stats = connection.serverCommands().info("commandstats");
		}
		String del = (stats != null) ? stats.getProperty("cmdstat_del") : null;
		if (del == null) {
			return 0;
		}
		Matcher calls = Pattern.compile("calls=(\\d+)").matcher(del);
		return calls.find() ? Long.parseLong(calls.group(1)) : 0;
	}

}
