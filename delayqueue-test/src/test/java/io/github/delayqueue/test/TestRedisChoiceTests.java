package io.github.delayqueue.test;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testcontainers.containers.GenericContainer;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.boot.env.OriginTrackedMapPropertySource;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where a test's Redis comes from: the one the test names, the embedded server or a
 * container otherwise (never the one of the application's configuration files unless
 * asked), or what the test asks for; and the log line that says which.
 */
@ExtendWith(OutputCaptureExtension.class)
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
	void startsARedisOfItsOwnInsteadOfTheOneTheApplicationsConfigurationFilesName(CapturedOutput output) {
		this.contextRunner.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class))
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.addLast(new OriginTrackedMapPropertySource("Config resource 'class path resource [application.yml]'",
						Map.of("spring.data.redis.host", "shared.example"))))
			.withPropertyValues("delayqueue-test.redis=auto")
			.run((context) -> {
				assertThat(context.containsBean(EMBEDDED) != context.containsBean(CONTAINER))
					.as("one Redis of the test's own")
					.isTrue();
				assertThat(context.getBean(LettuceConnectionFactory.class).getHostName())
					.isNotEqualTo("shared.example");
			});
		assertThat(output).contains("delayqueue tests use ")
			.contains("the application's spring.data.redis.host (from its configuration files or the environment) "
					+ "are not used: set delayqueue-test.redis=application");
	}

	@Test
	void usesTheRedisOfTheApplicationsConfigurationFilesWhenAskedAndSaysSo(CapturedOutput output) {
		this.contextRunner.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class))
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.addLast(new OriginTrackedMapPropertySource("Config resource 'class path resource [application.yml]'",
						Map.of("spring.data.redis.host", "shared.example"))))
			.withPropertyValues("delayqueue-test.redis=application")
			.run((context) -> {
				assertThat(context).doesNotHaveBean(EMBEDDED).doesNotHaveBean(CONTAINER);
				assertThat(context.getBean(LettuceConnectionFactory.class).getHostName()).isEqualTo("shared.example");
			});
		assertThat(output).contains("delayqueue tests use the application's Redis at shared.example:6379");
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
