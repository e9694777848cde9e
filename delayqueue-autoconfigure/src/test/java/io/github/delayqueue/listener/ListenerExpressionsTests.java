package io.github.delayqueue.listener;

import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.DelayedJobErrorHandler;
import io.github.delayqueue.core.FailureAction;
import io.github.delayqueue.core.JobInfo;
import io.github.delayqueue.core.JobState;
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
import static org.awaitility.Awaitility.await;

/**
 * {@code #{...}} expressions in {@code @DelayedJobListener} attributes, evaluated by the
 * bean factory's expression resolver after the {@code ${...}} placeholders.
 */
@ExtendWith(RedisExtension.class)
class ListenerExpressionsTests {

	private ApplicationContextRunner runner;

	@BeforeEach
	void setUp(RedisTestServer server) {
		server.flushAll();
		this.runner = DelayQueueContextRunner.create(server);
	}

	@Test
	void takesTopicsConcurrencyIdAndAutoStartupFromBeans() {
		this.runner.withUserConfiguration(FromBeans.class).run((context) -> {
			DelayedJobListenerEndpointRegistry registry = context.getBean(DelayedJobListenerEndpointRegistry.class);
			DelayedJobListenerContainer running = registry.getListenerContainer("expr-mail");
			assertThat(running).isNotNull();
			assertThat(running.getTopics()).containsExactly("mail.vip", "mail");
			assertThat(running.getConcurrency()).isEqualTo(3);
			assertThat(running.isRunning()).isTrue();
			DelayedJobListenerContainer idle = registry.getListenerContainer("expr-idle");
			assertThat(idle.isAutoStartup()).isFalse();
			assertThat(idle.isRunning()).isFalse();
			context.getBean(DelayQueueOperations.class).send("mail", "hello");
			Recorder recorder = context.getBean(Recorder.class);
			await().atMost(Duration.ofSeconds(10)).until(() -> recorder.payloads.size() == 1);
			assertThat(recorder.payloads).containsExactly("hello");
		});
	}

	@Test
	void takesAnErrorHandlerFromAnExpression() {
		this.runner.withUserConfiguration(ErrorHandlerByExpression.class).run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			String id = queue.send("handled", "x");
			await().atMost(Duration.ofSeconds(10))
				.until(() -> queue.find("handled", id).map(JobInfo::state).orElse(null) == JobState.DEAD);
			assertThat(context.getBean(Recorder.class).payloads).containsExactly("decided");
		});
	}

	@Test
	void resolvesPlaceholdersInsideExpressions() {
		this.runner.withUserConfiguration(PlaceholderInExpression.class)
			.withPropertyValues("app.region=eu")
			.run((context) -> {
				DelayedJobListenerContainer container = context.getBean(DelayedJobListenerEndpointRegistry.class)
					.getListenerContainer("regional");
				assertThat(container.getTopics()).containsExactly("orders.eu", "orders.EU");
			});
	}

	@Test
	void failsStartUpNamingAnExpressionThatGivesNoTopicNames() {
		this.runner.withUserConfiguration(NumberAsTopic.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(BeanInitializationException.class)
				.hasMessageContaining("@DelayedJobListener method")
				.hasMessageContaining("NumberAsTopic.on(java.lang.String)")
				.hasMessageContaining("topics '#{42}' that gave a java.lang.Integer");
		});
	}

	@Test
	void failsStartUpNamingAConcurrencyExpressionBelowOne() {
		this.runner.withUserConfiguration(ZeroConcurrency.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(BeanInitializationException.class)
				.hasMessageContaining("ZeroConcurrency.on(java.lang.String)")
				.hasMessageContaining("has concurrency '0'");
		});
	}

	static class Recorder {

		final Queue<Object> payloads = new ConcurrentLinkedQueue<>();

	}

	public static class MailSettings {

		public List<String> topics() {
			return List.of("mail.vip", "mail");
		}

		public int workers() {
			return 3;
		}

		public String name() {
			return "mail";
		}

		public boolean startIdle() {
			return false;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class FromBeans {

		@Bean
		MailSettings mailSettings() {
			return new MailSettings();
		}

		@Bean
		Recorder recorder() {
			return new Recorder();
		}

		@Bean
		Object mailListener(Recorder recorder) {
			return new Object() {

				@DelayedJobListener(id = "#{'expr-' + @mailSettings.name()}", topics = "#{@mailSettings.topics()}",
						concurrency = "#{@mailSettings.workers()}")
				void on(String payload) {
					recorder.payloads.add(payload);
				}

				@DelayedJobListener(id = "expr-idle", topics = "idle", autoStartup = "#{@mailSettings.startIdle()}")
				void idle(String payload) {
				}

			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ErrorHandlerByExpression {

		@Bean
		Recorder recorder() {
			return new Recorder();
		}

		@Bean
		DelayedJobErrorHandler deadAtOnce(Recorder recorder) {
			return (failure) -> {
				recorder.payloads.add("decided");
				return FailureAction.dead();
			};
		}

		@Bean
		Object failingListener() {
			return new Object() {

				@DelayedJobListener(topics = "handled", errorHandler = "#{@deadAtOnce}")
				void on(String payload) {
					throw new IllegalStateException("failing on purpose");
				}

			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class PlaceholderInExpression {

		@DelayedJobListener(id = "regional",
				topics = { "orders.${app.region}", "#{'orders.' + '${app.region}'.toUpperCase()}" })
		void on(String payload) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class NumberAsTopic {

		@DelayedJobListener(topics = "#{42}")
		void on(String payload) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ZeroConcurrency {

		@DelayedJobListener(topics = "t", concurrency = "#{1 - 1}")
		void on(String payload) {
		}

	}

}
