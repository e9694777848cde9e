package io.github.delayqueue.test;

import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Says in one log line which Redis a test runs on, and which of the application's own
 * Redis properties it leaves unused, so that nobody tests on a shared Redis unawares.
 *
 * @author delayqueue contributors
 */
final class TestRedisReport implements SmartInitializingSingleton {

	private static final Log logger = LogFactory.getLog(TestRedisReport.class);

	private final String source;

	private final Environment environment;

	private final ObjectProvider<RedisConnectionFactory> connectionFactories;

	/**
	 * Create a report.
	 * @param source where the test's Redis comes from, in words
	 * @param environment the test's environment
	 * @param connectionFactories the connection factory the test uses
	 */
	TestRedisReport(String source, Environment environment,
			ObjectProvider<RedisConnectionFactory> connectionFactories) {
		this.source = source;
		this.environment = environment;
		this.connectionFactories = connectionFactories;
	}

	@Override
	public void afterSingletonsInstantiated() {
		logger.info(message());
	}

	String message() {
		StringBuilder message = new StringBuilder("delayqueue tests use ").append(this.source);
		RedisConnectionFactory connectionFactory = this.connectionFactories.getIfUnique();
		if (connectionFactory instanceof LettuceConnectionFactory lettuce) {
			RedisClusterConfiguration cluster = lettuce.getClusterConfiguration();
			message.append(" at ")
				.append((cluster != null) ? "the cluster of " + cluster.getClusterNodes()
						: lettuce.getHostName() + ":" + lettuce.getPort());
		}
		String prefix = this.environment.getProperty("delayqueue.key-prefix");
		if (prefix != null) {
			message.append(", key prefix ").append(prefix);
		}
		List<String> unused = TestRedisChoice.applicationProperties(this.environment);
		if (!this.source.startsWith(APPLICATION) && !unused.isEmpty()) {
			message.append("; the application's ")
				.append(String.join(", ", unused))
				.append(" (from its configuration files or the environment) are not used: set ")
				.append(TestRedisChoice.PROPERTY)
				.append("=application or @AutoConfigureDelayQueue(redis = APPLICATION) to test on that Redis");
		}
		return message.toString();
	}

	/**
	 * How {@link #source} begins when the test uses the application's Redis.
	 */
	static final String APPLICATION = "the application's Redis";

}
