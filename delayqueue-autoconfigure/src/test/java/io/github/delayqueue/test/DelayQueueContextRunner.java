package io.github.delayqueue.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;

import io.github.delayqueue.autoconfigure.DelayQueueAutoConfiguration;
import io.github.delayqueue.autoconfigure.DelayQueueClusterAutoConfiguration;
import io.github.delayqueue.autoconfigure.DelayQueueListenerAutoConfiguration;
import io.github.delayqueue.autoconfigure.DelayQueueSchedulerAutoConfiguration;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Application context runners with Redis, Jackson and the delay queue auto-configured
 * against a test Redis server.
 */
public final class DelayQueueContextRunner {

	private DelayQueueContextRunner() {
	}

	/**
	 * Return a runner with the delay queue and Spring Boot's Redis auto-configuration.
	 * @param server the Redis server to use
	 * @return the runner
	 */
	public static ApplicationContextRunner create(RedisTestServer server) {
		return base().withPropertyValues("spring.data.redis.host=" + server.host(),
				"spring.data.redis.port=" + server.port());
	}

	/**
	 * Return a runner with the delay queue against a Redis Cluster.
	 * @param cluster the cluster to use
	 * @return the runner
	 */
	public static ApplicationContextRunner create(RedisTestCluster cluster) {
		return base().withPropertyValues("spring.data.redis.cluster.nodes=" + cluster.nodesProperty());
	}

	/**
	 * Return a runner for tests that need no Redis: configuration and conditions. Its
	 * connection factory points at a port nobody listens on and is never connected,
	 * because nothing connects while a context starts once the scheduler, which
	 * subscribes to its wake-up channels, is disabled.
	 * @return the runner
	 */
	public static ApplicationContextRunner withoutRedis() {
		return base().withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + unusedPort(),
				"delayqueue.scheduler.enabled=false");
	}

	private static ApplicationContextRunner base() {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DelayQueueClusterAutoConfiguration.class,
					DataRedisAutoConfiguration.class, JacksonAutoConfiguration.class, DelayQueueAutoConfiguration.class,
					DelayQueueSchedulerAutoConfiguration.class, DelayQueueListenerAutoConfiguration.class));
	}

	private static int unusedPort() {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
