package io.github.delayqueue.autoconfigure;

import io.github.delayqueue.observation.LinkingProcessTracingObservationHandler;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.core.annotation.Order;

/**
 * Auto-configuration of linked handler runs: with
 * {@code delayqueue.observation.link-long-delays} set in an application that traces
 * (Micrometer Tracing with a {@link Tracer} and a {@link Propagator}), the run of a job
 * due longer than that after its send starts a trace of its own with a link to the send's
 * span. The sends and runs themselves are observed by the template and the listener
 * containers whenever the application has an {@code ObservationRegistry}.
 *
 * @author delayqueue contributors
 */
@AutoConfiguration(
		afterName = "org.springframework.boot.micrometer.tracing.autoconfigure.MicrometerTracingAutoConfiguration")
@ConditionalOnClass({ Tracer.class, Propagator.class })
@ConditionalOnBean({ Tracer.class, Propagator.class })
@ConditionalOnBooleanProperty(name = "delayqueue.observation.enabled", matchIfMissing = true)
@ConditionalOnProperty(name = "delayqueue.observation.link-long-delays")
public final class DelayQueueObservationAutoConfiguration {

	/**
	 * Before Spring Boot's receiver handler (order 1000), which would otherwise start the
	 * linked runs' spans without their link.
	 */
	static final int LINKING_HANDLER_ORDER = 900;

	@Bean
	@Order(LINKING_HANDLER_ORDER)
	@ConditionalOnMissingBean
	LinkingProcessTracingObservationHandler delayQueueLinkingProcessTracingObservationHandler(Tracer tracer,
			Propagator propagator) {
		return new LinkingProcessTracingObservationHandler(tracer, propagator);
	}

}
