package io.github.delayqueue.autoconfigure;

import io.github.delayqueue.internal.actuate.BoundedHealthIndicator;
import io.github.delayqueue.internal.actuate.DelayQueueHealthIndicator;
import io.github.delayqueue.internal.presence.ListenerPresence;
import io.github.delayqueue.internal.store.JobStore;
import io.github.delayqueue.internal.store.ScriptRunner;
import io.github.delayqueue.internal.support.DelayQueueThreads;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.data.redis.health.DataRedisHealthIndicator;
import org.springframework.boot.health.autoconfigure.contributor.CompositeHealthContributorConfiguration;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * Auto-configuration of the {@code delayQueue} health component, switched off with
 * {@code management.health.delayqueue.enabled=false}, and of a bound on Spring Boot's own
 * {@code redis} component: unless the application defines its own
 * {@code redisHealthIndicator} or {@code redisHealthContributor}, Boot's indicator is
 * wrapped in a {@link BoundedHealthIndicator}, so that the whole health endpoint answers
 * within two seconds when Redis is gone instead of waiting
 * {@code spring.data.redis.timeout} (60 seconds unless set). The application's own
 * commands keep their timeout.
 *
 * @author delayqueue contributors
 */
@AutoConfiguration(after = DelayQueueAutoConfiguration.class, beforeName = {
		"org.springframework.boot.data.redis.autoconfigure.health.DataRedisHealthContributorAutoConfiguration",
		"org.springframework.boot.data.redis.autoconfigure.health.DataRedisReactiveHealthContributorAutoConfiguration" })
@ConditionalOnClass(ConditionalOnEnabledHealthIndicator.class)
@ConditionalOnBean(JobStore.class)
public final class DelayQueueHealthAutoConfiguration {

	// The switch sits on the bean method: its condition class lives in the health module,
	// so it may only be read once the class condition above has passed.
	@Bean
	@ConditionalOnMissingBean(name = "delayQueueHealthIndicator")
	@ConditionalOnEnabledHealthIndicator("delayqueue")
	DelayQueueHealthIndicator delayQueueHealthIndicator(JobStore jobStore, ScriptRunner scriptRunner,
			DelayQueueProperties properties, DelayQueueThreads threads) {
		return new DelayQueueHealthIndicator(jobStore,
				new ListenerPresence(scriptRunner.redis(), properties.getKeyPrefix()), threads);
	}

	/**
	 * Spring Boot's {@code redis} component, as Boot builds it (one indicator per
	 * connection factory), each indicator waited for at most
	 * {@link BoundedHealthIndicator#DEFAULT_TIMEOUT}. Defined under Boot's bean name and
	 * before Boot's own configurations, which then back off; an application that defines
	 * either name keeps its own.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(DataRedisHealthIndicator.class)
	@ConditionalOnBean(RedisConnectionFactory.class)
	@ConditionalOnEnabledHealthIndicator("redis")
	static class BoundedRedisHealthConfiguration
			extends CompositeHealthContributorConfiguration<BoundedHealthIndicator, RedisConnectionFactory> {

		BoundedRedisHealthConfiguration(DelayQueueThreads threads) {
			super((factory) -> new BoundedHealthIndicator(new DataRedisHealthIndicator(factory),
					BoundedHealthIndicator.DEFAULT_TIMEOUT, threads));
		}

		@Bean
		@ConditionalOnMissingBean(name = { "redisHealthIndicator", "redisHealthContributor" })
		HealthContributor redisHealthContributor(ConfigurableListableBeanFactory beanFactory) {
			return createContributor(beanFactory, RedisConnectionFactory.class);
		}

	}

}
