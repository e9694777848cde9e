package io.github.delayqueue.autoconfigure;

import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.DelayQueueSchedules;
import io.github.delayqueue.internal.actuate.DelayQueueEndpoint;
import io.github.delayqueue.internal.actuate.DelayQueueEndpointWebExtension;
import io.github.delayqueue.internal.actuate.EndpointWriteGuard;
import io.github.delayqueue.internal.actuate.ScheduleEndpointOperations;
import io.github.delayqueue.internal.presence.ListenerPresence;
import io.github.delayqueue.internal.store.JobStore;
import io.github.delayqueue.internal.store.ScriptRunner;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.autoconfigure.endpoint.expose.EndpointExposure;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the {@code delayqueue} Actuator endpoint, created only when the
 * endpoint is available (enabled and exposed).
 *
 * @author delayqueue contributors
 */
@AutoConfiguration(
		after = { DelayQueueAutoConfiguration.class, DelayQueueListenerAutoConfiguration.class,
				DelayQueueSchedulesAutoConfiguration.class },
		afterName = "org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration")
@ConditionalOnClass(ConditionalOnAvailableEndpoint.class)
@ConditionalOnBean(JobStore.class)
@EnableConfigurationProperties(DelayQueueEndpointProperties.class)
public final class DelayQueueEndpointAutoConfiguration {

	// The availability condition sits on the bean methods: its condition class lives in
	// Actuator, so it may only be read once the class condition above has passed.
	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnAvailableEndpoint
	DelayQueueEndpoint delayQueueEndpoint(DelayQueueOperations operations, DelayQueueAdmin admin,
			ScriptRunner scriptRunner, DelayQueueProperties properties,
			DelayQueueEndpointProperties endpointProperties) {
		return new DelayQueueEndpoint(operations, admin,
				new ListenerPresence(scriptRunner.redis(), properties.getKeyPrefix()),
				endpointProperties.getShowValues(), endpointProperties.getRoles());
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBean(DelayQueueEndpoint.class)
	@ConditionalOnAvailableEndpoint(exposure = EndpointExposure.WEB)
	DelayQueueEndpointWebExtension delayQueueEndpointWebExtension(DelayQueueEndpoint endpoint,
			ObjectProvider<DelayQueueSchedules> schedules, DelayQueueEndpointProperties endpointProperties) {
		DelayQueueEndpointWebExtension extension = new DelayQueueEndpointWebExtension(endpoint);
		extension.setWriteGuard(new EndpointWriteGuard(endpointProperties.getAllowedOrigins()));
		schedules.ifAvailable((available) -> extension.setSchedules(new ScheduleEndpointOperations(available,
				endpointProperties.getShowValues(), endpointProperties.getRoles())));
		return extension;
	}

}
