package io.github.delayqueue.autoconfigure;

import io.github.delayqueue.actuate.DelayQueueHealthIndicator;
import io.github.delayqueue.listener.ListenerPresence;
import io.github.delayqueue.store.JobStore;
import io.github.delayqueue.store.ScriptRunner;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the {@code delayQueue} health component, switched off with
 * {@code management.health.delayqueue.enabled=false}.
 *
 * @author delayqueue contributors
 */
@AutoConfiguration(after = DelayQueueAutoConfiguration.class)
@ConditionalOnClass(ConditionalOnEnabledHealthIndicator.class)
@ConditionalOnBean(JobStore.class)
public final class DelayQueueHealthAutoConfiguration {

	// The switch sits on the bean method: its condition class lives in the health module,
	// so it may only be read once the class condition above has passed.
	@Bean
	@ConditionalOnMissingBean(name = "delayQueueHealthIndicator")
	@ConditionalOnEnabledHealthIndicator("delayqueue")
	DelayQueueHealthIndicator delayQueueHealthIndicator(JobStore jobStore, ScriptRunner scriptRunner,
			DelayQueueProperties properties) {
		return new DelayQueueHealthIndicator(jobStore,
				new ListenerPresence(scriptRunner.redis(), properties.getKeyPrefix()));
	}

}
