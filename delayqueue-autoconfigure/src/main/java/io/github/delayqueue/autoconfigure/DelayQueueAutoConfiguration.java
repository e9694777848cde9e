package io.github.delayqueue.autoconfigure;

import io.github.delayqueue.core.DefaultDelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.DelayQueueTemplate;
import io.github.delayqueue.core.JobPayloadValidator;
import io.github.delayqueue.internal.presence.ListenerPresence;
import io.github.delayqueue.internal.store.DelayQueueKeys;
import io.github.delayqueue.internal.store.JobClaims;
import io.github.delayqueue.internal.store.JobHistory;
import io.github.delayqueue.internal.store.JobRecordCodec;
import io.github.delayqueue.internal.store.JobStore;
import io.github.delayqueue.internal.store.ScriptRunner;
import io.github.delayqueue.internal.support.DelayQueueThreads;
import io.github.delayqueue.internal.support.DueTimeListener;
import io.github.delayqueue.internal.support.JobEventListener;
import io.github.delayqueue.internal.support.JobEventListeners;
import io.github.delayqueue.internal.support.JobIdGenerator;
import io.github.delayqueue.internal.support.TopicPolicies;
import io.github.delayqueue.observation.DelayQueueSendObservationConvention;
import io.micrometer.observation.ObservationRegistry;
import tools.jackson.databind.JacksonModule;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.task.SimpleAsyncTaskExecutorBuilder;
import org.springframework.boot.thread.Threading;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Auto-configuration of the delay queue's core: the {@link DelayQueueTemplate} and the
 * Redis access it shares with the scheduler and the listeners.
 *
 * @author delayqueue contributors
 */
@AutoConfiguration(after = DataRedisAutoConfiguration.class,
		afterName = "org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration")
@ConditionalOnClass(StringRedisTemplate.class)
@ConditionalOnBean(RedisConnectionFactory.class)
@ConditionalOnBooleanProperty(name = "delayqueue.enabled", matchIfMissing = true)
@EnableConfigurationProperties(DelayQueueProperties.class)
public final class DelayQueueAutoConfiguration {

	/**
	 * Name of the {@link JsonMapper} bean that writes and reads payloads; define a bean
	 * of this name to replace it.
	 */
	public static final String JSON_MAPPER_BEAN_NAME = "delayQueueJsonMapper";

	@Bean
	static DelayQueuePropertiesBinding delayQueuePropertiesBinding(Environment environment) {
		return new DelayQueuePropertiesBinding(environment);
	}

	@Bean
	static DelayQueuePropertiesEarlyCheck delayQueuePropertiesEarlyCheck(Environment environment) {
		return new DelayQueuePropertiesEarlyCheck(environment);
	}

	/**
	 * Where the starter's threads come from: the application's task executor builder
	 * (Spring Boot's follows {@code spring.threads.virtual.enabled} and applies the
	 * application's task decorator and customizers), or one that follows
	 * {@code spring.threads.virtual.enabled} alone where the application has none.
	 */
	@Bean
	DelayQueueThreads delayQueueThreads(ObjectProvider<SimpleAsyncTaskExecutorBuilder> builder,
			Environment environment) {
		return DelayQueueThreads.from(taskExecutorBuilder(builder, environment));
	}

	static SimpleAsyncTaskExecutorBuilder taskExecutorBuilder(ObjectProvider<SimpleAsyncTaskExecutorBuilder> builder,
			Environment environment) {
		return builder.getIfUnique(
				() -> new SimpleAsyncTaskExecutorBuilder().virtualThreads(Threading.VIRTUAL.isActive(environment)));
	}

	@Bean
	DelayQueueKeys delayQueueKeys(DelayQueueProperties properties, TopicPolicies policies) {
		DelayQueueKeys keys = new DelayQueueKeys(properties.getKeyPrefix(),
				(topic) -> policies.forTopic(topic).partitions());
		// Placing a topic's partitions takes up to a few hundred milliseconds at 1024 of
		// them: at start-up for the topics configured here, not in their first send.
		if (policies instanceof PropertiesTopicPolicies configured) {
			configured.configuredTopics().forEach(keys::queues);
		}
		return keys;
	}

	@Bean
	ScriptRunner delayQueueScriptRunner(RedisConnectionFactory connectionFactory, DelayQueueProperties properties) {
		// A template of our own: the application's may carry serializers we must not use.
		StringRedisTemplate redis = new StringRedisTemplate(connectionFactory);
		redis.afterPropertiesSet();
		return new ScriptRunner(redis, properties.getCommandTimeout());
	}

	@Bean
	ScriptPreloader delayQueueScriptPreloader(ScriptRunner scriptRunner) {
		return new ScriptPreloader(scriptRunner);
	}

	/**
	 * The mapper of stored payloads and headers. Not the application's: a change to
	 * {@code spring.jackson.*} must not change how jobs already in Redis are read. Not a
	 * default candidate, so that the application's own JsonMapper injection points never
	 * see it; replaced by a bean of the same name.
	 */
	@Bean(name = JSON_MAPPER_BEAN_NAME, defaultCandidate = false)
	@ConditionalOnMissingBean(name = JSON_MAPPER_BEAN_NAME)
	JsonMapper delayQueueJsonMapper(ObjectProvider<JacksonModule> modules) {
		return DelayQueueJsonMapper.create(modules.orderedStream().toList());
	}

	@Bean
	JobRecordCodec delayQueueJobRecordCodec(@Qualifier(JSON_MAPPER_BEAN_NAME) JsonMapper jsonMapper) {
		return new JobRecordCodec(jsonMapper);
	}

	@Bean
	JobStore delayQueueJobStore(ScriptRunner scriptRunner, DelayQueueKeys keys, JobRecordCodec codec,
			JobHistory history) {
		JobStore store = new JobStore(scriptRunner, keys, codec);
		store.setJobHistory(history);
		return store;
	}

	@Bean
	@ConditionalOnMissingBean
	DelayQueueAdmin delayQueueAdmin(JobStore store) {
		return new DefaultDelayQueueAdmin(store);
	}

	@Bean
	JobClaims delayQueueJobClaims(ScriptRunner scriptRunner, DelayQueueKeys keys, JobHistory history) {
		JobClaims claims = new JobClaims(scriptRunner, keys);
		claims.setJobHistory(history);
		return claims;
	}

	@Bean
	JobHistory delayQueueJobHistory(TopicPolicies policies) {
		return new JobHistory((topic) -> policies.forTopic(topic).history(),
				ListenerPresence.hostName() + ":" + ProcessHandle.current().pid());
	}

	@Bean
	TopicPolicies delayQueueTopicPolicies(DelayQueueProperties properties) {
		return new PropertiesTopicPolicies(properties.getDefaults(), properties.getTopics());
	}

	@Bean
	JobIdGenerator delayQueueJobIdGenerator() {
		return new JobIdGenerator();
	}

	@Bean
	@ConditionalOnMissingBean(DelayQueueOperations.class)
	DelayQueueTemplate delayQueueTemplate(JobStore store, JobRecordCodec codec,
			@Qualifier(JSON_MAPPER_BEAN_NAME) JsonMapper jsonMapper, DelayQueueProperties properties,
			JobIdGenerator idGenerator, ObjectProvider<JobPayloadValidator> payloadValidators,
			ObjectProvider<JobEventListener> eventListeners, DueTimeListenerRelay dueTimeListeners,
			ObjectProvider<ObservationRegistry> observationRegistry,
			ObjectProvider<DelayQueueSendObservationConvention> sendConvention, ListableBeanFactory beanFactory) {
		DelayQueueTemplate template = new DelayQueueTemplate(store, codec, jsonMapper);
		template.setObservationRegistry(
				ObservationSwitch.registry(properties.getObservation(), observationRegistry, beanFactory));
		template.setSendObservationConvention(sendConvention.getIfUnique());
		template.setMaxPayloadBytes(properties.getMaxPayloadSize().toBytes());
		template.setTransactionAware(properties.isTransactionAware());
		template.setIdGenerator(idGenerator);
		template.setPayloadValidators(payloadValidators.orderedStream().toList());
		template.setEventListener(new JobEventListeners(eventListeners.orderedStream().toList()));
		template.setDueTimeListener(dueTimeListeners.asListener());
		return template;
	}

	@Bean
	DueTimeListenerRelay delayQueueDueTimeListenerRelay(ObjectProvider<DueTimeListener> dueTimeListeners) {
		return new DueTimeListenerRelay(dueTimeListeners);
	}

}
