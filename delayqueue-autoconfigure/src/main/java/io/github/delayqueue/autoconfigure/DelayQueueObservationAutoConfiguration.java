package io.github.delayqueue.autoconfigure;

import io.github.delayqueue.observation.LinkingProcessTracingObservationHandler;
import io.github.delayqueue.observation.OwnRedisCommandsPredicate;
import io.lettuce.core.tracing.LettuceObservationContext;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;

/**
 * Auto-configuration around the starter's observations. The sends and handler runs
 * themselves are observed by the template and the listener containers when the
 * application traces, or whenever it has an {@code ObservationRegistry} with
 * {@code delayqueue.observation.enabled: true} ({@code ObservationSwitch}); here Lettuce
 * is told to leave the starter's own Redis commands unobserved
 * ({@link OwnRedisCommandsPredicate}), and, with
 * {@code delayqueue.observation.link-long-delays} set in an application that traces
 * (Micrometer Tracing with a {@link Tracer} and a {@link Propagator}), the run of a job
 * due longer than that after its send starts a trace of its own with a link to the send's
 * span.
 *
 * @author delayqueue contributors
 */
@AutoConfiguration(after = DelayQueueAutoConfiguration.class,
		afterName = "org.springframework.boot.micrometer.tracing.autoconfigure.MicrometerTracingAutoConfiguration")
@ConditionalOnBean(DelayQueueProperties.class)
public final class DelayQueueObservationAutoConfiguration {

	/**
	 * Before Spring Boot's receiver handler (order 1000), which would otherwise start the
	 * linked runs' spans without their link.
	 */
	static final int LINKING_HANDLER_ORDER = 900;

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBooleanProperty(name = "delayqueue.observation.enabled", matchIfMissing = true)
	@ConditionalOnClass({ Tracer.class, Propagator.class })
	@ConditionalOnBean({ Tracer.class, Propagator.class })
	@ConditionalOnProperty(name = "delayqueue.observation.link-long-delays")
	static class LinkedRunsConfiguration {

		@Bean
		@Order(LINKING_HANDLER_ORDER)
		@ConditionalOnMissingBean
		LinkingProcessTracingObservationHandler delayQueueLinkingProcessTracingObservationHandler(Tracer tracer,
				Propagator propagator) {
			return new LinkingProcessTracingObservationHandler(tracer, propagator);
		}

	}

	/**
	 * The starter observes its sends and handler runs itself; Lettuce observing each of
	 * its Redis commands as well would double the cost and add spans that say nothing.
	 * Also with {@code delayqueue.observation.enabled: false}: the commands are the
	 * starter's internals, not the application's.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(LettuceObservationContext.class)
	static class OwnRedisCommandsConfiguration {

		@Bean
		@ConditionalOnMissingBean
		OwnRedisCommandsPredicate delayQueueOwnRedisCommandsPredicate(DelayQueueProperties properties) {
			return new OwnRedisCommandsPredicate(properties.getKeyPrefix());
		}

	}

}
