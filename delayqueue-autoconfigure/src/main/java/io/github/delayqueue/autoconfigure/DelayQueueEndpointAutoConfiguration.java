package io.github.delayqueue.autoconfigure;

import io.github.delayqueue.actuate.DelayQueueEndpoint;
import io.github.delayqueue.core.JobStore;
import io.github.delayqueue.listener.DelayedJobListenerEndpointRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the {@code delayqueue} Actuator endpoint, created only when the
 * endpoint is available (enabled and exposed).
 *
 * @author delayqueue contributors
 */
@AutoConfiguration(after = { DelayQueueAutoConfiguration.class, DelayQueueListenerAutoConfiguration.class },
		afterName = "org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration")
@ConditionalOnClass(ConditionalOnAvailableEndpoint.class)
@ConditionalOnBean(JobStore.class)
public final class DelayQueueEndpointAutoConfiguration {

	// The availability condition sits on the bean method: its condition class lives in
	// Actuator, so it may only be read once the class condition above has passed.
	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnAvailableEndpoint
	DelayQueueEndpoint delayQueueEndpoint(JobStore jobStore,
			ObjectProvider<DelayedJobListenerEndpointRegistry> listeners) {
		return new DelayQueueEndpoint(jobStore, listeners);
	}

}
