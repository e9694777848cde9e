package io.github.delayqueue.test;

import io.github.delayqueue.autoconfigure.DelayQueueAutoConfiguration;
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
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, JacksonAutoConfiguration.class,
					DelayQueueAutoConfiguration.class, DelayQueueSchedulerAutoConfiguration.class,
					DelayQueueListenerAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.host=" + server.host(), "spring.data.redis.port=" + server.port());
	}

}
