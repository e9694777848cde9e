package io.github.delayqueue.test;

import org.junit.jupiter.api.Test;
import org.testcontainers.containers.GenericContainer;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where a test's Redis comes from: the application's when it names one, the embedded
 * server or a container otherwise, or what the test asks for.
 */
class TestRedisChoiceTests {

	private static final String EMBEDDED = "delayQueueEmbeddedRedis";

	private static final String CONTAINER = "delayQueueRedisContainer";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DelayQueueTestRedisAutoConfiguration.class));

	@Test
	void startsARedisWhenTheApplicationNamesNone() {
		this.contextRunner
			.run((context) -> assertThat(context.containsBean(EMBEDDED) != context.containsBean(CONTAINER))
				.as("one Redis of the test's own")
				.isTrue());
	}

	@Test
	void usesTheEmbeddedServerWhenAskedAndConnectsToIt() {
		this.contextRunner.withPropertyValues("delayqueue-test.redis=embedded").run((context) -> {
			DataRedisConnectionDetails details = context.getBean(EMBEDDED, DataRedisConnectionDetails.class);
			assertThat(details.getStandalone().getHost()).isEqualTo("127.0.0.1");
			assertThat(context).doesNotHaveBean(CONTAINER);
		});
	}

	@Test
	void usesTheRedisThatPropertiesName() {
		this.contextRunner.withPropertyValues("spring.data.redis.host=redis.example")
			.run((context) -> assertThat(context).doesNotHaveBean(EMBEDDED).doesNotHaveBean(CONTAINER));
		this.contextRunner.withPropertyValues("spring.data.redis.url=redis://redis.example:6380")
			.run((context) -> assertThat(context).doesNotHaveBean(EMBEDDED).doesNotHaveBean(CONTAINER));
	}

	@Test
	void usesTheConnectionDetailsOfTheApplication() {
		this.contextRunner
			.withBean("applicationRedis", DataRedisConnectionDetails.class, () -> new DataRedisConnectionDetails() {

				@Override
				public Standalone getStandalone() {
					return Standalone.of("redis.example", 6379);
				}

			})
			.run((context) -> assertThat(context).doesNotHaveBean(EMBEDDED).doesNotHaveBean(CONTAINER));
	}

	@Test
	void usesTheServiceConnectionContainerOfTheApplication() {
		this.contextRunner.withUserConfiguration(ApplicationContainer.class)
			.run((context) -> assertThat(context).hasBean("applicationRedis")
				.doesNotHaveBean(EMBEDDED)
				.doesNotHaveBean(CONTAINER));
	}

	@Test
	void startsNoneWhenTheTestAsksForTheApplicationsOwn() {
		this.contextRunner.withPropertyValues("delayqueue-test.redis=application")
			.run((context) -> assertThat(context).doesNotHaveBean(EMBEDDED).doesNotHaveBean(CONTAINER));
	}

	@Test
	void anUnknownChoiceFailsNamingTheProperty() {
		this.contextRunner.withPropertyValues("delayqueue-test.redis=memory")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("delayqueue-test.redis=memory"));
	}

	@Configuration(proxyBeanMethods = false)
	static class ApplicationContainer {

		// Never started here: the choice is made from the bean's definition.
		@Bean(destroyMethod = "")
		@ServiceConnection
		GenericContainer<?> applicationRedis() {
			return new GenericContainer<>("redis:7.4-alpine").withExposedPorts(6379);
		}

	}

}
