package io.github.delayqueue.autoconfigure;

import java.util.Map;

import io.github.delayqueue.core.DelayQueueKeys;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.DelayQueueTemplate;
import io.github.delayqueue.core.DueTimeListener;
import io.github.delayqueue.core.JobClaims;
import io.github.delayqueue.core.JobEventListener;
import io.github.delayqueue.core.JobEventListeners;
import io.github.delayqueue.core.JobIdGenerator;
import io.github.delayqueue.core.JobPayloadValidator;
import io.github.delayqueue.core.JobRecordCodec;
import io.github.delayqueue.core.JobStore;
import io.github.delayqueue.core.ScriptRunner;
import io.github.delayqueue.core.TopicPolicies;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
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

	@Bean
	@ConditionalOnMissingBean
	DelayQueueKeys delayQueueKeys(DelayQueueProperties properties) {
		return new DelayQueueKeys(properties.getKeyPrefix());
	}

	@Bean
	@ConditionalOnMissingBean
	ScriptRunner delayQueueScriptRunner(RedisConnectionFactory connectionFactory, DelayQueueProperties properties) {
		// A template of our own: the application's may carry serializers we must not use.
		StringRedisTemplate redis = new StringRedisTemplate(connectionFactory);
		redis.afterPropertiesSet();
		return new ScriptRunner(redis, properties.getCommandTimeout());
	}

	@Bean
	@ConditionalOnMissingBean
	JobRecordCodec delayQueueJobRecordCodec(ObjectProvider<JsonMapper> jsonMapper) {
		return new JobRecordCodec(jsonMapper(jsonMapper));
	}

	@Bean
	@ConditionalOnMissingBean
	JobStore delayQueueJobStore(ScriptRunner scriptRunner, DelayQueueKeys keys, JobRecordCodec codec) {
		return new JobStore(scriptRunner, keys, codec);
	}

	@Bean
	@ConditionalOnMissingBean
	JobClaims delayQueueJobClaims(ScriptRunner scriptRunner, DelayQueueKeys keys) {
		return new JobClaims(scriptRunner, keys);
	}

	@Bean
	@ConditionalOnMissingBean
	TopicPolicies delayQueueTopicPolicies(DelayQueueProperties properties, Environment environment) {
		// Replace Boot's map binding, which splits dotted topic names, by one keyed by
		// full names.
		Map<String, DelayQueueProperties.TopicProperties> topics = TopicPropertiesBinder.bind(environment);
		properties.setTopics(topics);
		return new PropertiesTopicPolicies(properties.getDefaults(), properties.getTopics());
	}

	@Bean
	@ConditionalOnMissingBean
	JobIdGenerator delayQueueJobIdGenerator() {
		return new JobIdGenerator();
	}

	@Bean
	@ConditionalOnMissingBean(DelayQueueOperations.class)
	DelayQueueTemplate delayQueueTemplate(JobStore store, JobRecordCodec codec, ObjectProvider<JsonMapper> jsonMapper,
			DelayQueueProperties properties, JobIdGenerator idGenerator,
			ObjectProvider<JobPayloadValidator> payloadValidators, ObjectProvider<JobEventListener> eventListeners,
			DueTimeListenerRelay dueTimeListeners) {
		DelayQueueTemplate template = new DelayQueueTemplate(store, codec, jsonMapper(jsonMapper));
		template.setMaxPayloadBytes(properties.getMaxPayloadSize().toBytes());
		template.setIdGenerator(idGenerator);
		template.setPayloadValidators(payloadValidators.orderedStream().toList());
		template.setEventListener(new JobEventListeners(eventListeners.orderedStream().toList()));
		template.setDueTimeListener(dueTimeListeners::jobScheduled);
		return template;
	}

	@Bean
	DueTimeListenerRelay delayQueueDueTimeListenerRelay(ObjectProvider<DueTimeListener> dueTimeListeners) {
		return new DueTimeListenerRelay(dueTimeListeners);
	}

	static JsonMapper jsonMapper(ObjectProvider<JsonMapper> jsonMapper) {
		return jsonMapper.getIfAvailable(() -> JsonMapper.builder().build());
	}

}
