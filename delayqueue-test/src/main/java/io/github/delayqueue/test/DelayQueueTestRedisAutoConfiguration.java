package io.github.delayqueue.test;

import io.github.delayqueue.test.AutoConfigureDelayQueue.Redis;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.DockerImageName;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.springframework.boot.testcontainers.service.connection.ServiceConnectionAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.ConfigurationCondition;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * The Redis of a test that uses {@link AutoConfigureDelayQueue}: none when the
 * application names one, else a container where Docker runs, else the embedded server
 * (see {@link AutoConfigureDelayQueue#redis()}). Before Spring Boot's Redis
 * auto-configuration, which then connects to it, and before its service connections,
 * which then wire the container.
 *
 * @author delayqueue contributors
 */
@AutoConfiguration(before = { DataRedisAutoConfiguration.class, ServiceConnectionAutoConfiguration.class })
public final class DelayQueueTestRedisAutoConfiguration {

	/**
	 * The image of the Redis container unless {@code delayqueue-test.redis-image} names
	 * another.
	 */
	public static final String DEFAULT_IMAGE = "redis:7.2-alpine";

	@Bean
	TestRedisReport delayQueueTestRedisReport(Environment environment, ListableBeanFactory beans,
			ObjectProvider<RedisConnectionFactory> connectionFactories) {
		String source = beans.containsBean("delayQueueEmbeddedRedis") ? "the embedded Redis server"
				: beans.containsBean("delayQueueRedisContainer") ? "a Redis container of their own"
						: TestRedisReport.APPLICATION;
		return new TestRedisReport(source, environment, connectionFactories);
	}

	@Configuration(proxyBeanMethods = false)
	@Conditional(OnContainerRedis.class)
	static class ContainerRedisConfiguration {

		@Bean
		@ServiceConnection(name = "redis")
		GenericContainer<?> delayQueueRedisContainer(Environment environment) {
			String image = environment.getProperty("delayqueue-test.redis-image", DEFAULT_IMAGE);
			return new GenericContainer<>(DockerImageName.parse(image).asCompatibleSubstituteFor("redis"))
				.withExposedPorts(6379);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@Conditional(OnEmbeddedRedis.class)
	static class EmbeddedRedisConfiguration {

		@Bean
		DataRedisConnectionDetails delayQueueEmbeddedRedis(Environment environment) {
			String binary = environment.getProperty("delayqueue-test.redis-server",
					System.getenv().getOrDefault("DELAYQUEUE_TEST_REDIS_SERVER", EmbeddedRedisServer.EMBEDDED));
			EmbeddedRedisServer server = EmbeddedRedisServer.of(binary);
			return new DataRedisConnectionDetails() {

				@Override
				public Standalone getStandalone() {
					return Standalone.of(server.host(), server.port());
				}

			};
		}

	}

	abstract static class OnRedisChoice extends SpringBootCondition implements ConfigurationCondition {

		private final Redis choice;

		OnRedisChoice(Redis choice) {
			this.choice = choice;
		}

		@Override
		public ConfigurationPhase getConfigurationPhase() {
			return ConfigurationPhase.REGISTER_BEAN;
		}

		@Override
		public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
			Redis chosen = TestRedisChoice.of(context);
			String message = "The test's Redis: " + chosen;
			return (chosen == this.choice) ? ConditionOutcome.match(message) : ConditionOutcome.noMatch(message);
		}

	}

	static final class OnContainerRedis extends OnRedisChoice {

		OnContainerRedis() {
			super(Redis.CONTAINER);
		}

	}

	static final class OnEmbeddedRedis extends OnRedisChoice {

		OnEmbeddedRedis() {
			super(Redis.EMBEDDED);
		}

	}

}
