package io.github.delayqueue.listener;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayedJob;
import io.github.delayqueue.test.DelayQueueContextRunner;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.BeanInitializationException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Listener methods that cannot be served fail start-up, naming the method.
 */
@ExtendWith(RedisExtension.class)
class DelayedJobListenerValidationTests {

	private ApplicationContextRunner runner;

	@BeforeEach
	void setUp(RedisTestServer server) {
		this.runner = DelayQueueContextRunner.create(server);
	}

	@Test
	void refusesTwoPayloadParameters() {
		assertFails(TwoPayloads.class, "TwoPayloads.on(java.lang.String,java.lang.Integer)",
				"more than one payload parameter");
	}

	@Test
	void refusesAMethodWithoutTopic() {
		assertFails(NoTopic.class, "NoTopic.on(java.lang.String)", "names no topic");
	}

	@Test
	void refusesAnInvalidTopicName() {
		assertFails(BadTopic.class, "BadTopic.on(java.lang.String)", "invalid topic 'no spaces allowed'");
	}

	@Test
	void refusesAConcurrencyThatIsNotAPositiveNumber() {
		assertFails(BadConcurrency.class, "BadConcurrency.on(java.lang.String)", "concurrency 'many'");
	}

	@Test
	void refusesTwoListenersWithTheSameId() {
		assertFails(SameId.class, "SameId.", "already has the id 'twin'");
	}

	@Test
	void refusesAnAutoStartupThatIsNeitherTrueNorFalse() {
		assertFails(BadAutoStartup.class, "BadAutoStartup.on(java.lang.String)", "autoStartup 'yes'");
	}

	@Test
	void numbersTheDefaultIdsOfListenersOfOneMethodOnSeveralBeans() {
		this.runner.withUserConfiguration(TwoBeansOfOneClass.class).run((context) -> {
			DelayedJobListenerEndpointRegistry registry = context.getBean(DelayedJobListenerEndpointRegistry.class);
			String id = SharedListener.class.getName() + ".on";
			assertThat(registry.getListenerContainers()).extracting(DelayedJobListenerContainer::getListenerId)
				.containsExactlyInAnyOrder(id, id + "#2");
			assertThat(registry.getListenerContainer(id).getTopics()).containsExactly("shared");
			assertThat(registry.getListenerContainer(id + "#2").getTopics()).containsExactly("shared");
		});
	}

	@Test
	void resolvesPlaceholdersInIdAndAutoStartup() {
		this.runner.withUserConfiguration(PlaceholderId.class)
			.withPropertyValues("app.listener=configured-id", "app.start=false")
			.run((context) -> {
				DelayedJobListenerContainer container = context.getBean(DelayedJobListenerEndpointRegistry.class)
					.getListenerContainer("configured-id");
				assertThat(container).isNotNull();
				assertThat(container.isAutoStartup()).isFalse();
				assertThat(container.isRunning()).isFalse();
			});
	}

	@Test
	void resolvesPlaceholdersInTopicsAndConcurrency() {
		this.runner.withUserConfiguration(Placeholders.class)
			.withPropertyValues("app.topic=resolved.topic", "app.workers=3")
			.run((context) -> {
				DelayedJobListenerContainer container = context.getBean(DelayedJobListenerEndpointRegistry.class)
					.getListenerContainer("placeholders");
				assertThat(container).isNotNull();
				assertThat(container.getTopics()).containsExactly("resolved.topic", "fallback");
				assertThat(container.getConcurrency()).isEqualTo(3);
				assertThat(container.isRunning()).isTrue();
			});
	}

	private void assertFails(Class<?> configuration, String method, String reason) {
		assertFailsToStart(this.runner, configuration, method, reason);
	}

	static void assertFailsToStart(ApplicationContextRunner runner, Class<?> configuration, String method,
			String reason) {
		runner.withUserConfiguration(configuration).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(BeanInitializationException.class)
				.hasMessageContaining("@DelayedJobListener method")
				.hasMessageContaining(method)
				.hasMessageContaining(reason);
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class TwoPayloads {

		@DelayedJobListener("t")
		void on(String first, Integer second) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class NoTopic {

		@DelayedJobListener
		void on(String payload) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class BadTopic {

		@DelayedJobListener("no spaces allowed")
		void on(String payload) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class BadConcurrency {

		@DelayedJobListener(topics = "t", concurrency = "many")
		void on(String payload) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class SameId {

		@DelayedJobListener(id = "twin", topics = "a")
		void on(String payload) {
		}

		@DelayedJobListener(id = "twin", topics = "b")
		void other(DelayedJob<String> job) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class BadAutoStartup {

		@DelayedJobListener(topics = "t", autoStartup = "yes")
		void on(String payload) {
		}

	}

	static class SharedListener {

		@DelayedJobListener("shared")
		void on(String payload) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class TwoBeansOfOneClass {

		@Bean
		SharedListener firstListener() {
			return new SharedListener();
		}

		@Bean
		SharedListener secondListener() {
			return new SharedListener();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class PlaceholderId {

		@DelayedJobListener(id = "${app.listener}", topics = "t", autoStartup = "${app.start}")
		void on(String payload) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class Placeholders {

		@Bean
		Object placeholderListener() {
			return new Object() {
				@DelayedJobListener(id = "placeholders", topics = { "${app.topic}", "${app.other:fallback}" },
						concurrency = "${app.workers}")
				void on(String payload) {
				}
			};
		}

	}

}
