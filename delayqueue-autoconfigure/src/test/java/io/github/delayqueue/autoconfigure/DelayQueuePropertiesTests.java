package io.github.delayqueue.autoconfigure;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.internal.scheduler.DelayedJobScheduler;
import io.github.delayqueue.internal.support.TopicLimits;
import io.github.delayqueue.internal.support.TopicPolicies;
import io.github.delayqueue.internal.support.TopicPolicy;
import io.github.delayqueue.listener.DelayedJobListenerContainerFactory;
import io.github.delayqueue.listener.DelayedJobListenerEndpointRegistry;
import io.github.delayqueue.test.DelayQueueContextRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.SimpleCommandLinePropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.support.SpringFactoriesLoader;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The auto-configuration's conditions and the binding and validation of its properties,
 * none of which needs a running Redis.
 */
@ExtendWith(OutputCaptureExtension.class)
class DelayQueuePropertiesTests {

	private final ApplicationContextRunner runner = DelayQueueContextRunner.withoutRedis();

	@Test
	void startsWithoutConnectingToRedis() {
		this.runner.run((context) -> assertThat(context).hasNotFailed()
			.hasSingleBean(DelayQueueOperations.class)
			.hasSingleBean(DelayedJobListenerEndpointRegistry.class));
	}

	@Test
	void createsNothingWhenDisabled() {
		this.runner.withPropertyValues("delayqueue.enabled=false", "delayqueue.schedular.enabled=typo")
			.run((context) -> {
				assertThat(context).hasNotFailed()
					.doesNotHaveBean(DelayQueueOperations.class)
					.doesNotHaveBean(DelayedJobScheduler.class)
					.doesNotHaveBean(DelayedJobListenerEndpointRegistry.class)
					.doesNotHaveBean(DelayQueueProperties.class);
			});
	}

	@Test
	void leavesTheSchedulerOutWhenItIsDisabled() {
		this.runner.withPropertyValues("delayqueue.scheduler.enabled=false").run((context) -> {
			assertThat(context).hasSingleBean(DelayQueueOperations.class)
				.doesNotHaveBean(DelayedJobScheduler.class)
				.doesNotHaveBean("delayQueueWakeUpContainer")
				.hasSingleBean(DelayedJobListenerEndpointRegistry.class);
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
	void keepsBlockingWaitsWellBelowTheRedisCommandTimeout() {
		this.runner.withPropertyValues("spring.data.redis.timeout=3s")
			.run((context) -> assertThat(context.getBean(DelayedJobListenerContainerFactory.class).getPollTimeout())
				.isEqualTo(Duration.ofMillis(1500)));
		this.runner.withPropertyValues("spring.data.redis.timeout=1m", "delayqueue.listener.poll-timeout=7s")
			.run((context) -> assertThat(context.getBean(DelayedJobListenerContainerFactory.class).getPollTimeout())
				.isEqualTo(Duration.ofSeconds(7)));
	}

	@Test
	void adjustsTheDefaultPollTimeoutSilently(CapturedOutput output) {
		this.runner.withPropertyValues("spring.data.redis.timeout=2s").run((context) -> {
			assertThat(context.getBean(DelayedJobListenerContainerFactory.class).getPollTimeout())
				.isEqualTo(Duration.ofSeconds(1));
			assertThat(output).doesNotContain("is not well below spring.data.redis.timeout");
		});
	}

	@Test
	void warnsWhenAnExplicitPollTimeoutIsAdjusted(CapturedOutput output) {
		this.runner.withPropertyValues("spring.data.redis.timeout=2s", "delayqueue.listener.poll-timeout=10s")
			.run((context) -> {
				assertThat(context.getBean(DelayedJobListenerContainerFactory.class).getPollTimeout())
					.isEqualTo(Duration.ofSeconds(1));
				assertThat(output).contains("WARN")
					.contains("delayqueue.listener.poll-timeout (PT10S) is not well below spring.data.redis.timeout "
							+ "(PT2S); using PT1S");
			});
	}

	@Test
	void bindsTheTimelineOffByDefaultOnPerTopicOrByDefaultsWithItsCap() {
		this.runner
			.withPropertyValues("delayqueue.topics.orders.timeout.timeline=true",
					"delayqueue.topics.webhook.timeline-max-events=1000", "delayqueue.defaults.timeline-max-events=20",
					"delayqueue.topics.webhook.timeline=true")
			.run((context) -> {
				TopicPolicies policies = context.getBean(TopicPolicies.class);
				assertThat(policies.forTopic("orders.timeout").history().timeline()).isTrue();
				assertThat(policies.forTopic("orders.timeout").history().timelineMaxEvents()).isEqualTo(20);
				assertThat(policies.forTopic("webhook").history().timelineMaxEvents()).isEqualTo(1000);
				assertThat(policies.forTopic("anything.else").history().timeline()).isFalse();
			});
		this.runner.withPropertyValues("delayqueue.defaults.timeline=true").run((context) -> {
			TopicPolicies policies = context.getBean(TopicPolicies.class);
			assertThat(policies.forTopic("anything.else").history().timeline()).isTrue();
			assertThat(policies.forTopic("anything.else").history().timelineMaxEvents()).isEqualTo(50);
		});
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
	void mergesATopicsSettingsWrittenInBothSpellingsTheHigherSourceWinning() {
		this.runner
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.addFirst(new MapPropertySource("command line",
						Map.of("delayqueue.topics.orders.timeout.ttr", "20s",
								"delayqueue.schedules[report.nightly].zone", "Europe/Berlin"))))
			.withPropertyValues("delayqueue.topics[orders.timeout].ttr=10s",
					"delayqueue.topics[orders.timeout].retry.max-attempts=3",
					"delayqueue.topics.orders.timeout.concurrency=4",
					"delayqueue.schedules.report.nightly.topic=reports",
					"delayqueue.schedules[report.nightly].cron=0 0 2 * * *")
			.run((context) -> {
				TopicPolicy orders = context.getBean(TopicPolicies.class).forTopic("orders.timeout");
				assertThat(orders.ttr()).isEqualTo(Duration.ofSeconds(20));
				assertThat(orders.maxAttempts()).isEqualTo(3);
				assertThat(orders.concurrency()).isEqualTo(4);
				DelayQueueProperties properties = context.getBean(DelayQueueProperties.class);
				assertThat(properties.getTopics()).containsOnlyKeys("orders.timeout");
				ScheduleProperties nightly = properties.getSchedules().get("report.nightly");
				assertThat(nightly.getTopic()).isEqualTo("reports");
				assertThat(nightly.getCron()).isEqualTo("0 0 2 * * *");
				assertThat(nightly.getZone()).isEqualTo("Europe/Berlin");
			});
	}

	@Test
	void bindsLimitsAcrossInstancesPerTopic() {
		this.runner
			.withPropertyValues("delayqueue.topics.partner.calls.rate-limit.limit=50",
					"delayqueue.topics.partner.calls.rate-limit.period=2s",
					"delayqueue.topics.partner.calls.rate-limit.pause-topic-on-429=true",
					"delayqueue.topics.partner.calls.global-concurrency=4")
			.run((context) -> {
				TopicPolicies policies = context.getBean(TopicPolicies.class);
				assertThat(policies.forTopic("partner.calls").limits())
					.isEqualTo(new TopicLimits(50, Duration.ofSeconds(2), 4, true));
				assertThat(policies.forTopic("other").limits()).isEqualTo(TopicLimits.NONE);
				assertThat(policies.forTopic("other").limits().any()).isFalse();
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
				.addFirst(environmentVariables(Map.of("DELAYQUEUE_TOPICS_ORDERS_RETRY_MAXATTEMPTS", "7",
						"DELAYQUEUE_TOPICS_ORDERS_TTR", "9s", "DELAYQUEUE_TOPICS_ORDERS_DEAD_LETTER_RETENTION", "2d"))))
			.run((context) -> {
				TopicPolicy orders = context.getBean(TopicPolicies.class).forTopic("orders");
				assertThat(orders.maxAttempts()).isEqualTo(7);
				assertThat(orders.ttr()).isEqualTo(Duration.ofSeconds(9));
				assertThat(orders.deadRetention()).isEqualTo(Duration.ofDays(2));
			});
	}

	@Test
	void acceptsEveryDeclaredKeyInEverySourceForm() throws IOException {
		PropertySource<?> yaml = yaml("""
				delayqueue:
				  enabled: true
				  key-prefix: app
				  http-callback:
				    enabled: false
				    topic: callbacks
				    allowed-hosts: [partner.example]
				  defaults:
				    retry:
				      backoff:
				        schedule: [1s, 2s]
				  topics:
				    payments.retry:
				      retry:
				        non-retryable:
				          - java.lang.IllegalStateException
				""");
		this.runner.withInitializer((context) -> context.getEnvironment().getPropertySources().addFirst(yaml))
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.addFirst(environmentVariables(Map.of("DELAYQUEUE_MAX_PAYLOAD_SIZE", "2MB",
						"DELAYQUEUE_LISTENER_SHUTDOWNTIMEOUT", "5s", "DELAYQUEUE_LISTENER_POLL_TIMEOUT", "4s"))))
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.addFirst(new SimpleCommandLinePropertySource("--delayqueue.listener.enabled=true",
						"--delayqueue.http-callback.enabled=false")))
			.withPropertyValues("delayqueue.scheduler.batch-size=10000", "delayqueue.defaults.dead-letter.retention=1d")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				DelayQueueProperties properties = context.getBean(DelayQueueProperties.class);
				assertThat(properties.getKeyPrefix()).isEqualTo("app");
				assertThat(properties.getMaxPayloadSize().toMegabytes()).isEqualTo(2);
				assertThat(properties.getListener().getPollTimeout()).isEqualTo(Duration.ofSeconds(4));
				assertThat(properties.getScheduler().getBatchSize()).isEqualTo(10_000);
				assertThat(properties.getTopics()).containsOnlyKeys("payments.retry");
			});
	}

	@Test
	void failsStartUpNamingEveryUnknownKey() {
		this.runner
			.withPropertyValues("delayqueue.defaults.ttl=10s", "delayqueue.schedular.enabled=false",
					"delayqueue.listner.shutdown-timeout=5s", "delayqueue.topics.orders.ttl=10s",
					"delayqueue.http-callback.allowed-host=partner.example", "delayqueue.scheduler.frobnicate=1",
					"delayqueue.frobnicate=1")
			.run((context) -> {
				assertThat(context).hasFailed();
				InvalidDelayQueuePropertiesException failure = failure(context.getStartupFailure());
				assertThat(failure.getProblems()).hasSize(7);
				assertThat(failure.getProblems()).anySatisfy(
						(problem) -> assertThat(problem).startsWith("Unknown property 'delayqueue.defaults.ttl'")
							.contains("did you mean 'delayqueue.defaults.ttr'?"));
				assertThat(failure.getProblems()).anySatisfy(
						(problem) -> assertThat(problem).startsWith("Unknown property 'delayqueue.schedular.enabled'")
							.contains("did you mean 'delayqueue.scheduler.enabled'?"));
				assertThat(failure.getProblems()).anySatisfy((problem) -> assertThat(problem)
					.startsWith("Unknown property 'delayqueue.listner.shutdown-timeout'")
					.contains("did you mean 'delayqueue.listener.shutdown-timeout'?"));
				assertThat(failure.getProblems()).anySatisfy(
						(problem) -> assertThat(problem).startsWith("Unknown property 'delayqueue.topics.orders.ttl'")
							.endsWith("; did you mean 'delayqueue.topics.orders.ttr'?"));
				assertThat(failure.getProblems()).anySatisfy((problem) -> assertThat(problem)
					.startsWith("Unknown property 'delayqueue.http-callback.allowed-host'")
					.contains("did you mean 'delayqueue.http-callback.allowed-hosts'?"));
				assertThat(failure.getProblems()).anySatisfy((problem) -> assertThat(problem)
					.startsWith("Unknown property 'delayqueue.scheduler.frobnicate'")
					.endsWith("; delayqueue.scheduler takes enabled, batch-size, max-sleep, idle-max-sleep, "
							+ "orphan-check-interval"));
				assertThat(failure.getProblems()).anySatisfy((problem) -> assertThat(problem)
					.startsWith("Unknown property 'delayqueue.frobnicate'")
					.contains(
							"; delayqueue takes enabled, key-prefix, max-payload-size, command-timeout, transaction-aware, "
									+ "scheduler.*, listener.*, defaults.*, topics.*, schedules.*, http-callback.*"));
				assertThat(failure.getMessage()).contains("(7 problems)");
			});
	}

	@Test
	void suggestsTheNearestSettingOfATopicWhereverItsDottedNameEnds() throws IOException {
		PropertySource<?> yaml = yaml("""
				delayqueue:
				  topics:
				    orders.timeout:
				      ttl: 10s
				      retry:
				        max-atempts: 3
				    mail:
				      frobnicate: 1
				""");
		this.runner.withInitializer((context) -> context.getEnvironment().getPropertySources().addFirst(yaml))
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.addFirst(environmentVariables(Map.of("DELAYQUEUE_TOPICS_REFUNDS_CONCURENCY", "2"))))
			.run((context) -> {
				InvalidDelayQueuePropertiesException failure = failure(context.getStartupFailure());
				assertThat(failure.getProblems()).hasSize(4);
				assertThat(failure.getProblems()).anySatisfy((problem) -> assertThat(problem)
					.startsWith("Unknown property 'delayqueue.topics.orders.timeout.ttl' (from ")
					.endsWith("; did you mean 'delayqueue.topics.orders.timeout.ttr'?"));
				assertThat(failure.getProblems()).anySatisfy((problem) -> assertThat(problem)
					.startsWith("Unknown property 'delayqueue.topics.orders.timeout.retry.max-atempts'")
					.endsWith("; did you mean 'delayqueue.topics.orders.timeout.retry.max-attempts'?"));
				assertThat(failure.getProblems()).anySatisfy((problem) -> assertThat(problem)
					.startsWith("Unknown property 'delayqueue.topics.refunds.concurency'")
					.contains("DELAYQUEUE_TOPICS_REFUNDS_CONCURENCY")
					.endsWith("; did you mean 'delayqueue.topics.refunds.concurrency'?"));
				assertThat(failure.getProblems()).anySatisfy((problem) -> assertThat(problem)
					.startsWith("Unknown property 'delayqueue.topics.mail.frobnicate'")
					.contains("; a topic takes ttr, concurrency, ")
					.endsWith(" (delayqueue.topics.<topic>.<setting>)"));
			});
	}

	@Test
	void failsStartUpOnATopicNameThatSpringBootWouldChangeNamingItAsWritten() throws IOException {
		PropertySource<?> yaml = yaml("""
				delayqueue:
				  topics:
				    "bad topic!":
				      ttr: 10s
				      concurrency: 2
				    orders.timeout:
				      ttr: 5s
				""");
		this.runner.withInitializer((context) -> context.getEnvironment().getPropertySources().addFirst(yaml))
			.withPropertyValues("delayqueue.topics.-refunds.retry.max-attempts=3")
			.run((context) -> {
				InvalidDelayQueuePropertiesException failure = failure(context.getStartupFailure());
				assertThat(failure.getProblems()).hasSize(2);
				assertThat(failure.getProblems()).anySatisfy((problem) -> assertThat(problem)
					.startsWith("Topic name 'bad topic!' under delayqueue.topics (from ")
					.contains("4:")
					.endsWith(" is invalid: Topic names use 1 to 128 characters of A-Z a-z 0-9 . _ -, starting with a "
							+ "letter or digit; Spring Boot would read it as 'badtopic'"));
				assertThat(failure.getProblems()).anySatisfy((problem) -> assertThat(problem)
					.startsWith("Topic name '-refunds' under delayqueue.topics (from ")
					.endsWith("; Spring Boot would read it as 'refunds'"));
			});
	}

	@Test
	void bindsTopicNamesWithUnderscoresAndCapitalsAsWritten() throws IOException {
		PropertySource<?> yaml = yaml("""
				delayqueue:
				  topics:
				    orders_timeout:
				      ttr: 5s
				    Orders.Timeout:
				      ttr: 6s
				""");
		this.runner.withInitializer((context) -> context.getEnvironment().getPropertySources().addFirst(yaml))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				TopicPolicies policies = context.getBean(TopicPolicies.class);
				assertThat(policies.forTopic("orders_timeout").ttr()).isEqualTo(Duration.ofSeconds(5));
				assertThat(policies.forTopic("Orders.Timeout").ttr()).isEqualTo(Duration.ofSeconds(6));
			});
	}

	@Test
	void namesButIgnoresAnEnvironmentVariableThatIsCloseToNoProperty(CapturedOutput output) {
		this.runner
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.addFirst(environmentVariables(Map.of("DELAYQUEUE_DEPLOYED_VERSION", "1.2.3"))))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(output).contains("Ignoring").contains("DELAYQUEUE_DEPLOYED_VERSION");
			});
	}

	@Test
	void failsStartUpOnUnknownKeysFromEnvironmentVariablesYamlAndTheCommandLine() throws IOException {
		PropertySource<?> yaml = yaml("""
				delayqueue:
				  listener:
				    shutdown-timout: 5s
				""");
		this.runner.withInitializer((context) -> context.getEnvironment().getPropertySources().addFirst(yaml))
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.addFirst(environmentVariables(Map.of("DELAYQUEUE_SCHEDULAR_ENABLED", "false"))))
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.addFirst(new SimpleCommandLinePropertySource("--delayqueue.key-prefx=app")))
			.run((context) -> {
				InvalidDelayQueuePropertiesException failure = failure(context.getStartupFailure());
				assertThat(failure.getProblems()).hasSize(3);
				assertThat(failure.getProblems()).anySatisfy(
						(problem) -> assertThat(problem).startsWith("Unknown property 'delayqueue.schedular.enabled'")
							.contains("DELAYQUEUE_SCHEDULAR_ENABLED"));
				assertThat(failure.getProblems()).anySatisfy((problem) -> assertThat(problem)
					.startsWith("Unknown property 'delayqueue.listener.shutdown-timout'")
					.contains("did you mean 'delayqueue.listener.shutdown-timeout'?"));
				assertThat(failure.getProblems())
					.anySatisfy((problem) -> assertThat(problem).startsWith("Unknown property 'delayqueue.key-prefx'"));
			});
	}

	@Test
	void failsStartUpOnATimeToRunUnderOneMillisecondNamingTheProperty() {
		this.runner.withPropertyValues("delayqueue.defaults.ttr=500us", "delayqueue.topics.orders.timeout.ttr=999999ns")
			.run((context) -> {
				InvalidDelayQueuePropertiesException failure = failure(context.getStartupFailure());
				assertThat(failure.getProblems()).hasSize(2);
				assertThat(failure.getMessage()).contains("Property delayqueue.defaults.ttr with value 'PT0.0005S'",
						"Property delayqueue.topics.orders.timeout.ttr with value 'PT0.000999999S'", "at least 1 ms");
			});
	}

	@Test
	void reportsEveryInvalidValueAndUnknownKeyInOneMessage() {
		this.runner
			.withPropertyValues("delayqueue.scheduler.batch-size=0", "delayqueue.defaults.concurrency=0",
					"delayqueue.topics.orders.timeout.retry.backoff.multiplier=0.5",
					"delayqueue.topics.orders.timeout.ttr=soon", "delayqueue.topics.orders.concurrency=many",
					"delayqueue.listener.shutdown-timeout=-1s", "delayqueue.listener.poll-timeout=later",
					"delayqueue.scheduler.enabled=maybe", "delayqueue.schedular.enabled=false")
			.run((context) -> {
				InvalidDelayQueuePropertiesException failure = failure(context.getStartupFailure());
				assertThat(failure.getProblems()).hasSize(9);
				assertThat(failure.getMessage()).contains("Property delayqueue.scheduler.batch-size with value '0'",
						"Property delayqueue.defaults.concurrency with value '0'",
						"Property delayqueue.topics.orders.timeout.retry.backoff.multiplier with value '0.5'",
						"Property delayqueue.topics.orders.timeout.ttr with value 'soon'",
						"Property delayqueue.topics.orders.concurrency with value 'many'",
						"Property delayqueue.listener.poll-timeout with value 'later'",
						"Property delayqueue.scheduler.enabled with value 'maybe'",
						"Property delayqueue.listener.shutdown-timeout with value 'PT-1S'",
						"Unknown property 'delayqueue.schedular.enabled'");
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
				new String[] { "delayqueue.http-callback.topic=no spaces", "delayqueue.http-callback.topic" },
				new String[] { "delayqueue.topics.partner.rate-limit.limit=0",
						"delayqueue.topics.partner.rate-limit.limit" },
				new String[] { "delayqueue.topics.partner.rate-limit.period=0s",
						"delayqueue.topics.partner.rate-limit.period" },
				new String[] { "delayqueue.defaults.global-concurrency=0", "delayqueue.defaults.global-concurrency" },
				new String[] { "delayqueue.topics.orders.timeline-max-events=0",
						"delayqueue.topics.orders.timeline-max-events" },
				new String[] { "delayqueue.defaults.timeline-max-events=1001",
						"delayqueue.defaults.timeline-max-events" });
		for (String[] entry : invalid) {
			this.runner.withPropertyValues(entry[0]).run((context) -> {
				assertThat(context).hasFailed();
				assertThat(failure(context.getStartupFailure()).getProblems())
					.singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
					.startsWith("Property " + entry[1] + " with value");
			});
		}
	}

	@Test
	void boundsTheSchedulerBatchSize() {
		this.runner.withPropertyValues("delayqueue.scheduler.batch-size=10001").run((context) -> {
			assertThat(failure(context.getStartupFailure()).getProblems()).singleElement()
				.asString()
				.startsWith("Property delayqueue.scheduler.batch-size with value '10001' is invalid")
				.contains("between 1 and 10000");
		});
		this.runner.withPropertyValues("delayqueue.scheduler.batch-size=10000")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void explainsTheFailureWithEveryProblemAndWhatToDo() {
		this.runner.withPropertyValues("delayqueue.schedular.enabled=false", "delayqueue.defaults.concurrency=0")
			.run((context) -> {
				FailureAnalyzer analyzer = SpringFactoriesLoader.forDefaultResourceLocation()
					.load(FailureAnalyzer.class, null, (type, name, failure) -> {
						// Boot's own analyzers that need constructor arguments are not
						// needed
					})
					.stream()
					.filter(InvalidDelayQueuePropertiesFailureAnalyzer.class::isInstance)
					.findFirst()
					.orElseThrow();
				FailureAnalysis analysis = analyzer.analyze(context.getStartupFailure());
				assertThat(analysis).isNotNull();
				assertThat(analysis.getDescription()).contains("The delay queue configuration has 2 problems:")
					.contains("Unknown property 'delayqueue.schedular.enabled'")
					.contains("Property delayqueue.defaults.concurrency with value '0' is invalid");
				assertThat(analysis.getAction()).contains("Correct or remove the properties above")
					.contains("delayqueue.topics.<topic>.");
			});
	}

	@Test
	void shipsConfigurationMetadataForEveryKey() throws Exception {
		String metadata = new ClassPathResource("META-INF/spring-configuration-metadata.json")
			.getContentAsString(StandardCharsets.UTF_8);
		assertThat(metadata).contains("\"delayqueue.key-prefix\"", "\"delayqueue.scheduler.batch-size\"",
				"\"delayqueue.listener.shutdown-timeout\"", "\"delayqueue.defaults.retry.backoff.schedule\"",
				"\"delayqueue.defaults.dead-letter.retention\"", "\"delayqueue.topics\"",
				"\"delayqueue.http-callback.allowed-hosts\"", "\"delayqueue.listener.handled-elsewhere\"");
	}

	private static InvalidDelayQueuePropertiesException failure(Throwable startupFailure) {
		Throwable cause = startupFailure;
		while (cause != null && !(cause instanceof InvalidDelayQueuePropertiesException)) {
			cause = cause.getCause();
		}
		assertThat(cause).as("cause of %s", startupFailure).isInstanceOf(InvalidDelayQueuePropertiesException.class);
		return (InvalidDelayQueuePropertiesException) cause;
	}

	private static SystemEnvironmentPropertySource environmentVariables(Map<String, Object> variables) {
		return new SystemEnvironmentPropertySource(
				"test-" + StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, variables);
	}

	private static PropertySource<?> yaml(String content) throws IOException {
		return new YamlPropertySourceLoader()
			.load("test-yaml", new ByteArrayResource(content.getBytes(StandardCharsets.UTF_8)))
			.get(0);
	}

}
