package io.github.delayqueue.autoconfigure;

import java.time.Duration;

import io.github.delayqueue.core.DeadJobListener;
import io.github.delayqueue.core.DelayedJobErrorHandler;
import io.github.delayqueue.internal.presence.EmptyTopicPruner;
import io.github.delayqueue.internal.presence.ListenerPresence;
import io.github.delayqueue.internal.presence.ListenerPresencePublisher;
import io.github.delayqueue.internal.scheduler.ClaimAnnouncer;
import io.github.delayqueue.internal.scheduler.DelayedJobScheduler;
import io.github.delayqueue.internal.store.DelayQueueKeys;
import io.github.delayqueue.internal.store.JobClaims;
import io.github.delayqueue.internal.store.JobRecordCodec;
import io.github.delayqueue.internal.store.JobStore;
import io.github.delayqueue.internal.store.ScriptRunner;
import io.github.delayqueue.internal.support.DelayQueueThreads;
import io.github.delayqueue.internal.support.JobEventListener;
import io.github.delayqueue.internal.support.JobEventListeners;
import io.github.delayqueue.internal.support.TopicPolicies;
import io.github.delayqueue.listener.DeadJobNotifier;
import io.github.delayqueue.listener.DelayedJobListenerAnnotationBeanPostProcessor;
import io.github.delayqueue.listener.DelayedJobListenerContainerFactory;
import io.github.delayqueue.listener.DelayedJobListenerEndpointRegistry;
import io.github.delayqueue.observation.DelayQueueProcessObservationConvention;
import io.micrometer.observation.ObservationRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.data.redis.autoconfigure.DataRedisProperties;
import org.springframework.boot.task.SimpleAsyncTaskExecutorBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

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

	private static final Log logger = LogFactory.getLog(DelayQueueListenerAutoConfiguration.class);

	@Bean
	@ConditionalOnMissingBean
	static DelayedJobListenerAnnotationBeanPostProcessor delayedJobListenerAnnotationBeanPostProcessor(
			ObjectProvider<DelayedJobListenerEndpointRegistry> registry) {
		return new DelayedJobListenerAnnotationBeanPostProcessor(registry);
	}

	// By name, as Spring Boot's Kafka and RabbitMQ listener factories: an application's
	// factories of other names serve the listeners that name them, beside this one.
	@Bean(DelayedJobListenerContainerFactory.DEFAULT_BEAN_NAME)
	@ConditionalOnMissingBean(name = DelayedJobListenerContainerFactory.DEFAULT_BEAN_NAME)
	DelayedJobListenerContainerFactory delayedJobListenerContainerFactory(JobClaims claims, TopicPolicies policies,
			JobRecordCodec codec, @Qualifier(DelayQueueAutoConfiguration.JSON_MAPPER_BEAN_NAME) JsonMapper jsonMapper,
			JobStore store, ScriptRunner scriptRunner, DelayQueueKeys keys, DelayQueueProperties properties,
			ObjectProvider<DataRedisProperties> redisProperties, ObjectProvider<JobEventListener> eventListeners,
			ObjectProvider<DelayedJobScheduler> scheduler, Environment environment,
			ObjectProvider<ObservationRegistry> observationRegistry,
			ObjectProvider<DelayQueueProcessObservationConvention> processConvention, ListableBeanFactory beanFactory,
			ObjectProvider<DelayedJobErrorHandler> errorHandler, ObjectProvider<DeadJobListener> deadJobListeners,
			ObjectProvider<SimpleAsyncTaskExecutorBuilder> taskExecutorBuilder, DelayQueueThreads threads) {
		DelayedJobListenerContainerFactory factory = new DelayedJobListenerContainerFactory(claims, policies, codec,
				new JobEventListeners(eventListeners.orderedStream().toList()), jsonMapper,
				pollTimeout(properties, redisProperties.getIfAvailable(), environment),
				properties.getListener().getShutdownTimeout(), (topic) -> {
					store.registerTopic(topic);
					scheduler.ifAvailable((available) -> available.addTopic(topic));
				});
		factory
			.setTaskExecutorBuilder(DelayQueueAutoConfiguration.taskExecutorBuilder(taskExecutorBuilder, environment));
		factory.setErrorHandler(errorHandler.getIfUnique());
		factory.setDeadJobNotifier(new DeadJobNotifier(deadJobListeners.orderedStream().toList(), null, threads));
		factory.setObservation(
				ObservationSwitch.registry(properties.getObservation(), observationRegistry, beanFactory),
				processConvention.getIfUnique(), properties.getObservation().getLinkLongDelays());
		// Every scheduler, not only this instance's, must learn of the deadlines claims
		// set: this instance may die holding them, or run no scheduler.
		factory.setDueTimeListener(new ClaimAnnouncer(scriptRunner.redis(), keys.claimChannel(),
				properties.getScheduler().getMaxSleep(), scheduler.getIfAvailable()));
		return factory;
	}

	/**
	 * Keep blocking waits well below the client's command timeout: a wait that outlives
	 * it would be cut off by the client and counted as a failure. Adjusting the default
	 * is routine; adjusting a value the user chose deserves a warning.
	 */
	private static Duration pollTimeout(DelayQueueProperties properties, @Nullable DataRedisProperties redis,
			Environment environment) {
		Duration pollTimeout = properties.getListener().getPollTimeout();
		Duration commandTimeout = (redis != null) ? redis.getTimeout() : null;
		if (commandTimeout != null && !commandTimeout.isZero()
				&& pollTimeout.compareTo(commandTimeout.dividedBy(2)) > 0) {
			Duration reduced = commandTimeout.dividedBy(2);
			String message = "delayqueue.listener.poll-timeout (" + pollTimeout
					+ ") is not well below spring.data.redis.timeout (" + commandTimeout + "); using " + reduced;
			if (Binder.get(environment).bind("delayqueue.listener.poll-timeout", Duration.class).isBound()) {
				logger.warn(message);
			}
			else {
				logger.debug(message);
			}
			return reduced;
		}
		return pollTimeout;
	}

	@Bean
	@ConditionalOnMissingBean
	DelayedJobListenerEndpointRegistry delayedJobListenerEndpointRegistry(
			@Qualifier(DelayedJobListenerContainerFactory.DEFAULT_BEAN_NAME) DelayedJobListenerContainerFactory containerFactory) {
		return new DelayedJobListenerEndpointRegistry(containerFactory);
	}

	@Bean
	EmptyTopicPruner delayQueueEmptyTopicPruner(JobStore store, ScriptRunner scriptRunner, DelayQueueKeys keys,
			DelayQueueProperties properties, TopicPolicies policies) {
		return new EmptyTopicPruner(store, scriptRunner, keys, properties.getKeyPrefix(),
				new ListenerPresence(scriptRunner.redis(), properties.getKeyPrefix()), policies,
				EmptyTopicPruner.DEFAULT_INTERVAL);
	}

	@Bean
	ListenerPresencePublisher delayQueueListenerPresencePublisher(ScriptRunner scriptRunner,
			DelayQueueProperties properties, DelayedJobListenerEndpointRegistry registry,
			ObjectProvider<EmptyTopicPruner> pruner, DelayQueueThreads threads) {
		ListenerPresencePublisher publisher = new ListenerPresencePublisher(
				new ListenerPresence(scriptRunner.redis(), properties.getKeyPrefix()), registry,
				pruner.getIfAvailable());
		publisher.setThreads(threads);
		return publisher;
	}

}
