package io.github.delayqueue.autoconfigure;

import io.github.delayqueue.core.JobClaims;
import io.github.delayqueue.core.JobEventListener;
import io.github.delayqueue.core.JobEventListeners;
import io.github.delayqueue.core.JobRecordCodec;
import io.github.delayqueue.core.JobStore;
import io.github.delayqueue.core.TopicPolicies;
import io.github.delayqueue.listener.DelayedJobListenerAnnotationBeanPostProcessor;
import io.github.delayqueue.listener.DelayedJobListenerContainerFactory;
import io.github.delayqueue.listener.DelayedJobListenerEndpointRegistry;
import io.github.delayqueue.scheduler.DelayedJobScheduler;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * Auto-configuration of {@code @DelayedJobListener} consumers: the annotation
 * post-processor, the endpoint registry and the factory of listener containers.
 *
 * @author delayqueue contributors
 */
@AutoConfiguration(after = { DelayQueueAutoConfiguration.class, DelayQueueSchedulerAutoConfiguration.class })
@ConditionalOnBean(JobStore.class)
@ConditionalOnBooleanProperty(name = "delayqueue.listener.enabled", matchIfMissing = true)
public final class DelayQueueListenerAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	static DelayedJobListenerAnnotationBeanPostProcessor delayedJobListenerAnnotationBeanPostProcessor(
			ObjectProvider<DelayedJobListenerEndpointRegistry> registry, ObjectProvider<JsonMapper> jsonMapper) {
		return new DelayedJobListenerAnnotationBeanPostProcessor(registry, jsonMapper);
	}

	@Bean
	@ConditionalOnMissingBean
	DelayedJobListenerContainerFactory delayedJobListenerContainerFactory(JobClaims claims,
			RedisConnectionFactory connectionFactory, TopicPolicies policies, JobRecordCodec codec, JobStore store,
			DelayQueueProperties properties, ObjectProvider<JobEventListener> eventListeners,
			ObjectProvider<DelayedJobScheduler> scheduler) {
		DelayedJobListenerContainerFactory factory = new DelayedJobListenerContainerFactory(claims, connectionFactory,
				policies, codec, new JobEventListeners(eventListeners.orderedStream().toList()),
				properties.getListener().getPollTimeout(), properties.getListener().getShutdownTimeout(), (topic) -> {
					store.registerTopic(topic);
					scheduler.ifAvailable((available) -> available.addTopic(topic));
				});
		scheduler.ifAvailable(factory::setDueTimeListener);
		return factory;
	}

	@Bean
	@ConditionalOnMissingBean
	DelayedJobListenerEndpointRegistry delayedJobListenerEndpointRegistry(
			DelayedJobListenerContainerFactory containerFactory) {
		return new DelayedJobListenerEndpointRegistry(containerFactory);
	}

}
