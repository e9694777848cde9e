package io.github.delayqueue.autoconfigure;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The binding that Spring Boot's binder does with {@link DelayQueuePropertiesBinding}
 * added, as Boot applies it to the passive {@link DelayQueueProperties}.
 */
class DelayQueuePropertiesBindingTests {

	@Test
	void bindsTopicsByTheirFullDottedNames() {
		DelayQueueProperties properties = bind(Map.of("delayqueue.topics.orders.timeout.ttr", "10s",
				"delayqueue.topics.payments.retry.retry.max-attempts", "3", "delayqueue.key-prefix", "app"));

		assertThat(properties.getKeyPrefix()).isEqualTo("app");
		assertThat(properties.getTopics()).containsOnlyKeys("orders.timeout", "payments.retry");
		assertThat(properties.getTopics().get("orders.timeout").getTtr()).isEqualTo(Duration.ofSeconds(10));
		assertThat(properties.getTopics().get("payments.retry").getRetry().getMaxAttempts()).isEqualTo(3);
	}

	@Test
	void reportsEveryUnknownKeyAndInvalidValueTogether() {
		assertThatExceptionOfType(BindException.class)
			.isThrownBy(() -> bind(Map.of("delayqueue.schedular.enabled", "false", "delayqueue.command-timeout", "soon",
					"delayqueue.topics.orders.ttl", "5s", "delayqueue.scheduler.batch-size", "0")))
			.havingRootCause()
			.isInstanceOf(InvalidDelayQueuePropertiesException.class)
			.satisfies((failure) -> assertThat(((InvalidDelayQueuePropertiesException) failure).getProblems())
				.hasSize(4)
				.anySatisfy((problem) -> assertThat(problem).contains("did you mean 'delayqueue.scheduler.enabled'"))
				.anySatisfy((problem) -> assertThat(problem).contains("delayqueue.command-timeout with value 'soon'"))
				.anySatisfy((problem) -> assertThat(problem).contains("did you mean 'delayqueue.topics.orders.ttr'"))
				.anySatisfy((problem) -> assertThat(problem).contains("delayqueue.scheduler.batch-size")));
	}

	private static DelayQueueProperties bind(Map<String, Object> values) {
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources().addFirst(new MapPropertySource("test", values));
		DelayQueueProperties properties = new DelayQueueProperties();
		BindHandler handler = new DelayQueuePropertiesBinding(environment).apply(BindHandler.DEFAULT);
		Binder.get(environment).bind("delayqueue", Bindable.ofInstance(properties), handler);
		return properties;
	}

}
