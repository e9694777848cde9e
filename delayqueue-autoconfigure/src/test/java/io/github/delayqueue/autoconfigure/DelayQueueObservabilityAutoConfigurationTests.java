package io.github.delayqueue.autoconfigure;

import java.time.Duration;

import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.internal.actuate.BoundedHealthIndicator;
import io.github.delayqueue.internal.actuate.DelayQueueEndpoint;
import io.github.delayqueue.internal.actuate.DelayQueueHealthIndicator;
import io.github.delayqueue.internal.actuate.DelayQueueMetrics;
import io.github.delayqueue.internal.presence.ListenerPresence;
import io.github.delayqueue.internal.store.JobStore;
import io.github.delayqueue.internal.support.DelayQueueThreads;
import io.github.delayqueue.internal.support.JobEventListener;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.health.DataRedisHealthContributorAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.health.DataRedisReactiveHealthContributorAutoConfiguration;
import org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableWebApplicationContext;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The metrics, endpoint and health auto-configurations, each present only when its
 * optional module is, against a real Redis.
 */
@ExtendWith(RedisExtension.class)
class DelayQueueObservabilityAutoConfigurationTests {

	private static final String EXPOSE_ENDPOINT = "management.endpoints.web.exposure.include=delayqueue";

	private static final AutoConfigurations METRICS = AutoConfigurations.of(MetricsAutoConfiguration.class,
			CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class);

	private static final AutoConfigurations ACTUATOR = AutoConfigurations.of(EndpointAutoConfiguration.class,
			HealthContributorAutoConfiguration.class);

	private static final AutoConfigurations BOOTS_REDIS_HEALTH = AutoConfigurations.of(
			DataRedisHealthContributorAutoConfiguration.class,
			DataRedisReactiveHealthContributorAutoConfiguration.class);

	// Boot's own auto-configurations of a module are added only where the module is
	// visible, as they are in an application that lacks it.
	private WebApplicationContextRunner runner;

	@BeforeEach
	void setUp(RedisTestServer server) {
		this.runner = new WebApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
					DelayQueueAutoConfiguration.class, DelayQueueMetricsAutoConfiguration.class,
					DelayQueueEndpointAutoConfiguration.class, DelayQueueHealthAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.host=" + server.host(), "spring.data.redis.port=" + server.port(),
					"spring.data.redis.client-type=lettuce");
	}

	@Test
	void createsMetersEndpointAndHealthWhenActuatorAndMicrometerArePresent() {
		this.runner.withConfiguration(METRICS)
			.withConfiguration(ACTUATOR)
			.withPropertyValues(EXPOSE_ENDPOINT)
			.run((context) -> {
				assertThat(context).hasSingleBean(DelayQueueMetrics.class)
					.hasSingleBean(DelayQueueEndpoint.class)
					.hasSingleBean(DelayQueueHealthIndicator.class)
					.hasBean("delayQueueHealthIndicator");
				context.getBean(DelayQueueOperations.class).send("auto.metered", 1);
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				assertThat(registry.get("delayqueue.jobs.sent").tag("topic", "auto.metered").counter().count())
					.isEqualTo(1);
			});
	}

	@Test
	void createsNoMetersWithoutMicrometer() {
		this.runner.withConfiguration(ACTUATOR)
			.withPropertyValues(EXPOSE_ENDPOINT)
			.withClassLoader(new FilteredClassLoader("io.micrometer", "org.springframework.boot.micrometer"))
			.run((context) -> {
				assertThat(context).doesNotHaveBean(DelayQueueMetrics.class)
					.hasSingleBean(DelayQueueEndpoint.class)
					.hasSingleBean(DelayQueueHealthIndicator.class);
				assertStarterWorks(context, "no.micrometer");
			});
	}

	@Test
	void createsNoEndpointOrHealthWithoutActuator() {
		this.runner.withConfiguration(METRICS)
			.withPropertyValues(EXPOSE_ENDPOINT)
			.withClassLoader(
					new FilteredClassLoader("org.springframework.boot.actuate", "org.springframework.boot.health"))
			.run((context) -> {
				assertThat(context).doesNotHaveBean(DelayQueueEndpoint.class)
					.doesNotHaveBean(DelayQueueHealthIndicator.class)
					.hasSingleBean(DelayQueueMetrics.class);
				assertStarterWorks(context, "no.actuator");
			});
	}

	@Test
	void createsNothingOfObservabilityWithoutActuatorAndMicrometer() {
		this.runner.withPropertyValues(EXPOSE_ENDPOINT)
			.withClassLoader(new FilteredClassLoader("io.micrometer", "org.springframework.boot.actuate",
					"org.springframework.boot.health", "org.springframework.boot.micrometer"))
			.run((context) -> {
				assertThat(context).doesNotHaveBean(DelayQueueMetrics.class)
					.doesNotHaveBean(DelayQueueEndpoint.class)
					.doesNotHaveBean(DelayQueueHealthIndicator.class)
					.doesNotHaveBean(JobEventListener.class);
				assertStarterWorks(context, "plain");
			});
	}

	@Test
	void createsTheEndpointOnlyWhenItIsExposed() {
		this.runner.withConfiguration(METRICS)
			.withConfiguration(ACTUATOR)
			.run((context) -> assertThat(context).hasSingleBean(DelayQueueMetrics.class)
				.doesNotHaveBean(DelayQueueEndpoint.class));
	}

	@Test
	void healthCanBeSwitchedOff() {
		this.runner.withConfiguration(ACTUATOR)
			.withPropertyValues("management.health.delayqueue.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(DelayQueueHealthIndicator.class));
	}

	@Test
	void createsNothingWhenTheStarterIsDisabled() {
		this.runner.withConfiguration(METRICS)
			.withConfiguration(ACTUATOR)
			.withPropertyValues(EXPOSE_ENDPOINT, "delayqueue.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(JobStore.class)
				.doesNotHaveBean(DelayQueueMetrics.class)
				.doesNotHaveBean(DelayQueueEndpoint.class)
				.doesNotHaveBean(DelayQueueHealthIndicator.class));
	}

	@Test
	void backsOffForTheApplicationsOwnBeans() {
		this.runner.withConfiguration(METRICS)
			.withConfiguration(ACTUATOR)
			.withPropertyValues(EXPOSE_ENDPOINT)
			.withUserConfiguration(OwnBeans.class)
			.run((context) -> {
				assertThat(context).hasSingleBean(DelayQueueMetrics.class)
					.hasSingleBean(DelayQueueHealthIndicator.class);
				assertThat(context.getBean(DelayQueueMetrics.class)).isSameAs(context.getBean("ownMetrics"));
				assertThat(context.getBean(DelayQueueHealthIndicator.class))
					.isSameAs(context.getBean("delayQueueHealthIndicator"))
					.isInstanceOf(OwnHealthIndicator.class);
			});
	}

	@Test
	void boundsSpringBootsRedisHealthInPlaceOfItsOwn() {
		this.runner.withConfiguration(ACTUATOR).withConfiguration(BOOTS_REDIS_HEALTH).run((context) -> {
			assertThat(context.getBean("redisHealthContributor")).isInstanceOf(BoundedHealthIndicator.class);
			assertThat(((HealthIndicator) context.getBean("redisHealthContributor")).health().getStatus())
				.isEqualTo(Status.UP);
		});
	}

	@Test
	void leavesTheApplicationsOwnRedisHealthAlone() {
		this.runner.withConfiguration(ACTUATOR)
			.withConfiguration(BOOTS_REDIS_HEALTH)
			.withBean("redisHealthIndicator", HealthIndicator.class, () -> () -> Health.up().build())
			.run((context) -> assertThat(context).doesNotHaveBean("redisHealthContributor")
				.doesNotHaveBean(BoundedHealthIndicator.class));
	}

	@Test
	void leavesRedisHealthOffWhenTheApplicationSwitchesItOff() {
		this.runner.withConfiguration(ACTUATOR)
			.withConfiguration(BOOTS_REDIS_HEALTH)
			.withPropertyValues("management.health.redis.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean("redisHealthContributor"));
	}

	private static void assertStarterWorks(AssertableWebApplicationContext context, String topic) {
		DelayQueueOperations delayQueue = context.getBean(DelayQueueOperations.class);
		DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
		String id = delayQueue.send(topic, "x", Duration.ofHours(1));
		assertThat(delayQueue.find(topic, id)).isPresent();
		assertThat(admin.stats(topic).delayed()).isEqualTo(1);
	}

	@Configuration(proxyBeanMethods = false)
	static class OwnBeans {

		@Bean
		DelayQueueMetrics ownMetrics(JobStore store) {
			return new DelayQueueMetrics(store, Duration.ofSeconds(30), Duration.ofMinutes(5));
		}

		@Bean
		DelayQueueHealthIndicator delayQueueHealthIndicator(JobStore store, RedisConnectionFactory connectionFactory) {
			return new OwnHealthIndicator(store,
					new ListenerPresence(new StringRedisTemplate(connectionFactory), "dq"));
		}

	}

	static class OwnHealthIndicator extends DelayQueueHealthIndicator {

		OwnHealthIndicator(JobStore store, ListenerPresence presence) {
			super(store, presence, DelayQueueThreads.platform());
		}

	}

}
