package io.github.delayqueue.test;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import io.github.delayqueue.test.AutoConfigureDelayQueue.Redis;
import org.testcontainers.containers.Container;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.boot.env.OriginTrackedMapPropertySource;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;
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

	// Spring Boot's view of every other source, attached to the environment.
	private static final String ATTACHED = "configurationProperties";

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
		if (!testProperties(context.getEnvironment()).isEmpty()) {
			return true;
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

	/**
	 * Return the Redis properties that the test itself sets: in
	 * {@code @SpringBootTest(properties = ...)}, {@code @TestPropertySource},
	 * {@code @DynamicPropertySource} or system properties, not in the application's
	 * configuration files or the environment variables, which usually name a Redis shared
	 * by developers.
	 * @param environment the environment
	 * @return the names of those properties
	 */
	static List<String> testProperties(Environment environment) {
		return redisProperties(environment, false);
	}

	/**
	 * Return the Redis properties that the application's configuration files or the
	 * environment variables set, which {@link Redis#AUTO} does not use.
	 * @param environment the environment
	 * @return the names of those properties
	 */
	static List<String> applicationProperties(Environment environment) {
		return redisProperties(environment, true);
	}

	private static List<String> redisProperties(Environment environment, boolean ofTheApplication) {
		if (!(environment instanceof ConfigurableEnvironment configurable)) {
			return List.of();
		}
		Set<String> found = new LinkedHashSet<>();
		for (PropertySource<?> source : configurable.getPropertySources()) {
			if (ATTACHED.equals(source.getName()) || isTheApplications(source) != ofTheApplication) {
				continue;
			}
			for (String property : REDIS_PROPERTIES) {
				if (source.containsProperty(property)) {
					found.add(property);
				}
			}
		}
		return List.copyOf(found);
	}

	// Configuration files become origin-tracked sources; environment variables are the
	// machine's, as likely to name a shared Redis as application.yml is.
	private static boolean isTheApplications(PropertySource<?> source) {
		return source instanceof OriginTrackedMapPropertySource
				|| StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME.equals(source.getName());
	}

}
