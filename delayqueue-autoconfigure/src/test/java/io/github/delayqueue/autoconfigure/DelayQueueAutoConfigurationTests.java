package io.github.delayqueue.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.DelayQueueTemplate;
import io.github.delayqueue.core.TopicPolicies;
import io.github.delayqueue.core.TopicPolicy;
import io.github.delayqueue.listener.DelayedJobListenerContainerFactory;
import io.github.delayqueue.listener.DelayedJobListenerEndpointRegistry;
import io.github.delayqueue.scheduler.DelayedJobScheduler;
import io.github.delayqueue.test.DelayQueueContextRunner;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.core.io.ClassPathResource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The auto-configuration's conditions and the validation of its properties.
 */
@ExtendWith(RedisExtension.class)
class DelayQueueAutoConfigurationTests {

	private ApplicationContextRunner runner;

	@BeforeEach
	void setUp(RedisTestServer server) {
		this.runner = DelayQueueContextRunner.create(server);
	}

	@Test
	void providesTheTemplateTheSchedulerAndTheListenerInfrastructure() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(DelayQueueTemplate.class)
				.hasSingleBean(DelayedJobScheduler.class)
				.hasSingleBean(DelayedJobListenerEndpointRegistry.class)
				.hasBean("delayQueueWakeUpContainer");
			assertThat(context.getBean(DelayedJobScheduler.class).isRunning()).isTrue();
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			String id = queue.send("autoconfigured", "hello");
			assertThat(queue.find("autoconfigured", id)).isPresent();
		});
	}

	@Test
	void backsOffWhenTheApplicationDefinesItsOwnBeans() {
		this.runner.withUserConfiguration(OwnBeans.class).run((context) -> {
			assertThat(context).hasSingleBean(DelayQueueOperations.class)
				.hasBean("ownOperations")
				.doesNotHaveBean("delayQueueTemplate")
				.hasSingleBean(DelayedJobScheduler.class)
				.hasBean("ownScheduler");
		});
	}

	@Test
	void createsNothingWhenDisabled() {
		this.runner.withPropertyValues("delayqueue.enabled=false").run((context) -> {
			assertThat(context).hasNotFailed()
				.doesNotHaveBean(DelayQueueOperations.class)
				.doesNotHaveBean(DelayedJobScheduler.class)
				.doesNotHaveBean(DelayedJobListenerEndpointRegistry.class)
				.doesNotHaveBean(DelayQueueProperties.class);
		});
	}

	@Test
	void createsNothingWithoutRedis() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DelayQueueAutoConfiguration.class,
					DelayQueueSchedulerAutoConfiguration.class, DelayQueueListenerAutoConfiguration.class))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(DelayQueueOperations.class));
	}

	@Test
	void leavesTheSchedulerOutWhenItIsDisabled() {
		this.runner.withPropertyValues("delayqueue.scheduler.enabled=false").run((context) -> {
			assertThat(context).hasSingleBean(DelayQueueTemplate.class)
				.doesNotHaveBean(DelayedJobScheduler.class)
				.doesNotHaveBean("delayQueueWakeUpContainer")
				.hasSingleBean(DelayedJobListenerEndpointRegistry.class);
		});
	}

	@Test
	void leavesTheListenersOutWhenTheyAreDisabled() {
		this.runner.withPropertyValues("delayqueue.listener.enabled=false").run((context) -> {
			assertThat(context).hasSingleBean(DelayQueueTemplate.class)
				.hasSingleBean(DelayedJobScheduler.class)
				.doesNotHaveBean(DelayedJobListenerEndpointRegistry.class);
		});
	}

	@Test
	void keepsBlockingWaitsWellBelowTheRedisCommandTimeout() {
		this.runner.withPropertyValues("spring.data.redis.timeout=3s")
			.run((context) -> assertThat(context.getBean(DelayedJobListenerContainerFactory.class).getPollTimeout())
				.isEqualTo(Duration.ofMillis(1500)));
		this.runner.withPropertyValues("spring.data.redis.timeout=1m", "delayqueue.listener.poll-timeout=7s")
			.run((context) -> assertThat(context.getBean(DelayedJobListenerContainerFactory.class).getPollTimeout())
				.isEqualTo(Duration.ofSeconds(7)));
	}

	@Test
	void bindsTopicSettingsKeyedByDottedTopicNames() {
		this.runner
			.withPropertyValues("delayqueue.defaults.ttr=30s", "delayqueue.defaults.retry.backoff.jitter=0",
					"delayqueue.topics.orders.timeout.ttr=10s", "delayqueue.topics.orders.timeout.concurrency=4",
					"delayqueue.topics.orders.timeout.retry.max-attempts=10",
					"delayqueue.topics.webhook.retry.backoff.schedule=1m,3m,5m",
					"delayqueue.topics.webhook.dead-letter.retention=1d", "delayqueue.topics[a.b.c].concurrency=2")
			.run((context) -> {
				TopicPolicies policies = context.getBean(TopicPolicies.class);
				TopicPolicy orders = policies.forTopic("orders.timeout");
				assertThat(orders.ttr()).isEqualTo(Duration.ofSeconds(10));
				assertThat(orders.concurrency()).isEqualTo(4);
				assertThat(orders.maxAttempts()).isEqualTo(10);
				assertThat(orders.backoff().jitter()).isZero();
				TopicPolicy webhook = policies.forTopic("webhook");
				assertThat(webhook.ttr()).isEqualTo(Duration.ofSeconds(30));
				assertThat(webhook.backoff().schedule()).containsExactly(Duration.ofMinutes(1), Duration.ofMinutes(3),
						Duration.ofMinutes(5));
				assertThat(webhook.deadRetention()).isEqualTo(Duration.ofDays(1));
				assertThat(policies.forTopic("a.b.c").concurrency()).isEqualTo(2);
				TopicPolicy other = policies.forTopic("anything.else");
				assertThat(other.ttr()).isEqualTo(Duration.ofSeconds(30));
				assertThat(other.maxAttempts()).isEqualTo(5);
				assertThat(other.concurrency()).isEqualTo(1);
				assertThat(context.getBean(DelayQueueProperties.class).getTopics()).containsOnlyKeys("orders.timeout",
						"webhook", "a.b.c");
			});
	}

	@Test
	void bindsTopicsWhoseNamesContainTheNamesOfSettings() {
		this.runner
			.withPropertyValues("delayqueue.topics.payments.retry.ttr=11s",
					"delayqueue.topics.payments.retry.retry.max-attempts=3", "delayqueue.topics.jobs.ttr.concurrency=3",
					"delayqueue.topics.mail.retry.backoff.schedule[0]=1s",
					"delayqueue.topics.mail.retry.backoff.schedule[1]=2s",
					"delayqueue.topics.mail.retry.non-retryable[0]=java.lang.IllegalStateException")
			.run((context) -> {
				TopicPolicies policies = context.getBean(TopicPolicies.class);
				assertThat(policies.forTopic("payments.retry").ttr()).isEqualTo(Duration.ofSeconds(11));
				assertThat(policies.forTopic("payments.retry").maxAttempts()).isEqualTo(3);
				assertThat(policies.forTopic("jobs.ttr").concurrency()).isEqualTo(3);
				assertThat(policies.forTopic("mail").backoff().schedule()).containsExactly(Duration.ofSeconds(1),
						Duration.ofSeconds(2));
				assertThat(policies.forTopic("mail").nonRetryable()).containsExactly("java.lang.IllegalStateException");
				assertThat(context.getBean(DelayQueueProperties.class).getTopics()).containsOnlyKeys("payments.retry",
						"jobs.ttr", "mail");
			});
	}

	@Test
	void bindsTopicSettingsFromEnvironmentVariables() {
		this.runner
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.addFirst(new SystemEnvironmentPropertySource(
						"test-" + StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
						Map.of("DELAYQUEUE_TOPICS_ORDERS_RETRY_MAXATTEMPTS", "7", "DELAYQUEUE_TOPICS_ORDERS_TTR",
								"9s"))))
			.run((context) -> {
				TopicPolicy orders = context.getBean(TopicPolicies.class).forTopic("orders");
				assertThat(orders.maxAttempts()).isEqualTo(7);
				assertThat(orders.ttr()).isEqualTo(Duration.ofSeconds(9));
			});
	}

	@Test
	void failsStartUpNamingATopicKeyThatEndsInNoSetting() {
		this.runner.withPropertyValues("delayqueue.topics.orders.timeout.ttl=5s").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining("Property delayqueue.topics.orders.timeout.ttl with value '5s' is invalid")
				.hasMessageContaining("No topic setting ends this key");
		});
	}

	@Test
	void failsStartUpNamingAnInvalidProperty() {
		List<String[]> invalid = List.of(
				new String[] { "delayqueue.defaults.retry.max-attempts=0", "delayqueue.defaults.retry.max-attempts" },
				new String[] { "delayqueue.topics.orders.timeout.ttr=-1s", "delayqueue.topics.orders.timeout.ttr" },
				new String[] { "delayqueue.topics.mail.retry.backoff.multiplier=0.5",
						"delayqueue.topics.mail.retry.backoff.multiplier" },
				new String[] { "delayqueue.defaults.retry.backoff.delay=-5s",
						"delayqueue.defaults.retry.backoff.delay" },
				new String[] { "delayqueue.topics.mail.retry.backoff.schedule=1s,-1s",
						"delayqueue.topics.mail.retry.backoff.schedule[1]" },
				new String[] { "delayqueue.defaults.concurrency=0", "delayqueue.defaults.concurrency" },
				new String[] { "delayqueue.topics[bad name].ttr=1s", "delayqueue.topics.bad name" },
				new String[] { "delayqueue.key-prefix= ", "delayqueue.key-prefix" },
				new String[] { "delayqueue.scheduler.batch-size=0", "delayqueue.scheduler.batch-size" },
				new String[] { "delayqueue.scheduler.orphan-check-interval=0s",
						"delayqueue.scheduler.orphan-check-interval" },
				new String[] { "delayqueue.scheduler.idle-max-sleep=0s", "delayqueue.scheduler.idle-max-sleep" },
				new String[] { "delayqueue.max-payload-size=0", "delayqueue.max-payload-size" },
				new String[] { "delayqueue.listener.shutdown-timeout=-1s", "delayqueue.listener.shutdown-timeout" },
				new String[] { "delayqueue.http-callback.topic=no spaces", "delayqueue.http-callback.topic" });
		for (String[] entry : invalid) {
			this.runner.withPropertyValues(entry[0]).run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.isInstanceOf(InvalidConfigurationPropertyValueException.class)
					.hasMessageContaining("Property " + entry[1] + " with value");
			});
		}
	}

	@Test
	void shipsConfigurationMetadataForEveryKey() throws Exception {
		String metadata = new ClassPathResource("META-INF/spring-configuration-metadata.json")
			.getContentAsString(java.nio.charset.StandardCharsets.UTF_8);
		assertThat(metadata).contains("\"delayqueue.key-prefix\"", "\"delayqueue.scheduler.batch-size\"",
				"\"delayqueue.listener.shutdown-timeout\"", "\"delayqueue.defaults.retry.backoff.schedule\"",
				"\"delayqueue.defaults.dead-letter.retention\"", "\"delayqueue.topics\"",
				"\"delayqueue.http-callback.allowed-hosts\"");
	}

	@Configuration(proxyBeanMethods = false)
	static class OwnBeans {

		@Bean
		DelayQueueOperations ownOperations(io.github.delayqueue.core.JobStore store,
				io.github.delayqueue.core.JobRecordCodec codec) {
			return new DelayQueueTemplate(store, codec, tools.jackson.databind.json.JsonMapper.builder().build());
		}

		@Bean
		DelayedJobScheduler ownScheduler(io.github.delayqueue.core.ScriptRunner scripts,
				io.github.delayqueue.core.DelayQueueKeys keys, io.github.delayqueue.core.JobStore store) {
			return new DelayedJobScheduler(scripts, keys, store, (topic) -> TopicPolicy.defaults(), 10,
					Duration.ofSeconds(1));
		}

	}

}
