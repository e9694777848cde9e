package io.github.delayqueue.autoconfigure;

import java.util.List;

import io.github.delayqueue.core.DeadJobListener;
import io.github.delayqueue.internal.scheduler.DelayedJobScheduler;
import io.github.delayqueue.internal.scheduler.WakeUpListenerContainer;
import io.github.delayqueue.internal.scheduler.WakeUpSubscriber;
import io.github.delayqueue.internal.store.DelayQueueKeys;
import io.github.delayqueue.internal.store.JobStore;
import io.github.delayqueue.internal.store.ScriptRunner;
import io.github.delayqueue.internal.support.DelayQueueThreads;
import io.github.delayqueue.internal.support.JobEventListener;
import io.github.delayqueue.internal.support.JobEventListeners;
import io.github.delayqueue.internal.support.TopicPolicies;
import io.github.delayqueue.listener.DeadJobNotifier;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

/**
 * Auto-configuration of the scheduler that moves due jobs to READY, and of the
 * subscription that wakes it when another instance sends an earlier job or claims jobs.
 *
 * @author delayqueue contributors
 */
@AutoConfiguration(after = DelayQueueAutoConfiguration.class)
@ConditionalOnBean(JobStore.class)
@ConditionalOnBooleanProperty(name = "delayqueue.scheduler.enabled", matchIfMissing = true)
public final class DelayQueueSchedulerAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	DelayedJobScheduler delayedJobScheduler(ScriptRunner scriptRunner, DelayQueueKeys keys, JobStore jobStore,
			TopicPolicies policies, DelayQueueProperties properties, ObjectProvider<JobEventListener> eventListeners,
			ObjectProvider<DeadJobListener> deadJobListeners, DelayQueueThreads threads) {
		DelayedJobScheduler scheduler = new DelayedJobScheduler(scriptRunner, keys, jobStore, policies,
				properties.getScheduler().getBatchSize(), properties.getScheduler().getMaxSleep());
		scheduler.setEventListener(new JobEventListeners(eventListeners.orderedStream().toList()));
		List<DeadJobListener> listeners = deadJobListeners.orderedStream().toList();
		if (!listeners.isEmpty()) {
			scheduler.setExpiredDeadJobsListener(new DeadJobNotifier(listeners, jobStore, threads));
		}
		scheduler.setThreads(threads);
		scheduler.setOrphanCheckInterval(properties.getScheduler().getOrphanCheckInterval());
		scheduler.setIdleMaxSleep(properties.getScheduler().getIdleMaxSleep());
		if (policies instanceof PropertiesTopicPolicies configured) {
			configured.configuredTopics().forEach(scheduler::addTopic);
		}
		return scheduler;
	}

	// Not a default candidate: an application that injects its own container by type
	// must not find two.
	@Bean(defaultCandidate = false)
	@ConditionalOnMissingBean(name = "delayQueueWakeUpContainer")
	RedisMessageListenerContainer delayQueueWakeUpContainer(RedisConnectionFactory connectionFactory,
			DelayedJobScheduler scheduler, DelayQueueKeys keys, DelayQueueThreads threads) {
		return new WakeUpListenerContainer(connectionFactory, new WakeUpSubscriber(scheduler, keys), threads);
	}

}
