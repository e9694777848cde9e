package io.github.delayqueue.test;

import java.util.List;
import java.util.Locale;

import io.github.delayqueue.test.AutoConfigureDelayQueue.Redis;
import org.testcontainers.containers.Container;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * Decides where a test's Redis comes from, see {@link AutoConfigureDelayQueue#redis()}.
 *
 * @author delayqueue contributors
 */
final class TestRedisChoice {

	/**
	 * The property that {@link AutoConfigureDelayQueue#redis()} is mapped to.
	 */
	static final String PROPERTY = "delayqueue-test.redis";

	private static final List<String> REDIS_PROPERTIES = List.of("spring.data.redis.url", "spring.data.redis.host",
			"spring.data.redis.port", "spring.data.redis.cluster.nodes", "spring.data.redis.sentinel.master",
			"spring.data.redis.masterreplica.nodes");

	private TestRedisChoice() {
	}

	/**
	 * Decide where the Redis of the context being configured comes from.
	 * @param context the condition's context
	 * @return {@link Redis#APPLICATION}, {@link Redis#CONTAINER} or
	 * {@link Redis#EMBEDDED}
	 */
	static Redis of(ConditionContext context) {
		Redis asked = asked(context.getEnvironment());
		if (asked != Redis.AUTO) {
			return asked;
		}
		if (applicationNamesRedis(context)) {
			return Redis.APPLICATION;
		}
		return DockerDetection.isAvailable() ? Redis.CONTAINER : Redis.EMBEDDED;
	}

	private static Redis asked(Environment environment) {
		String value = environment.getProperty(PROPERTY, Redis.AUTO.name());
		try {
			return Redis.valueOf(value.trim().replace('-', '_').toUpperCase(Locale.ROOT));
		}
		catch (IllegalArgumentException ex) {
			// Not chained: the enum's own message names no property, and tools show the
			// root cause first.
			throw new IllegalStateException(
					PROPERTY + "=" + value + " is none of auto, container, embedded and application");
		}
	}

	private static boolean applicationNamesRedis(ConditionContext context) {
		for (String property : REDIS_PROPERTIES) {
			if (context.getEnvironment().containsProperty(property)) {
				return true;
			}
		}
		ConfigurableListableBeanFactory beans = context.getBeanFactory();
		if (beans == null) {
			return false;
		}
		if (beans.getBeanNamesForType(DataRedisConnectionDetails.class, true, false).length > 0
				|| beans.getBeanNamesForType(RedisConnectionFactory.class, true, false).length > 0) {
			return true;
		}
		// A container bean of the application's own, which Spring Boot turns into
		// connection details once the auto-configurations run.
		for (String name : beans.getBeanNamesForType(Container.class, true, false)) {
			if (beans.findAnnotationOnBean(name, ServiceConnection.class, false) != null) {
				return true;
			}
		}
		return false;
	}

}
