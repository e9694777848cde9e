package io.github.delayqueue.autoconfigure;

import java.util.List;

import io.github.delayqueue.core.DelayQueueSchedules;
import io.github.delayqueue.internal.actuate.ScheduleMetrics;
import io.github.delayqueue.internal.schedule.DeclaredSchedules;
import io.github.delayqueue.internal.schedule.RecurringAnnotationBeanPostProcessor;
import io.github.delayqueue.internal.schedule.ScheduleEngine;
import io.github.delayqueue.internal.schedule.ScheduleLoop;
import io.github.delayqueue.internal.schedule.ScheduleTickListener;
import io.github.delayqueue.internal.schedule.UnhandledScheduleTopics;
import io.github.delayqueue.internal.scheduler.DelayedJobScheduler;
import io.github.delayqueue.internal.store.JobHistory;
import io.github.delayqueue.internal.store.JobRecordCodec;
import io.github.delayqueue.internal.store.JobStore;
import io.github.delayqueue.internal.store.ScriptRunner;
import io.github.delayqueue.internal.support.DelayQueueThreads;
import io.github.delayqueue.listener.DelayedJobListenerEndpointRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

/**
 * Auto-configuration of recurring schedules: the {@link DelayQueueSchedules} bean, the
 * schedules of {@code delayqueue.schedules} and of {@code @Recurring} methods, and the
 * loop that declares them and, where the scheduler runs, produces their ticks.
 *
 * @author delayqueue contributors
 */
@AutoConfiguration(after = { DelayQueueAutoConfiguration.class, DelayQueueSchedulerAutoConfiguration.class })
@ConditionalOnBean(JobStore.class)
public final class DelayQueueSchedulesAutoConfiguration {

	@Bean
	static RecurringAnnotationBeanPostProcessor delayQueueRecurringAnnotationBeanPostProcessor(
			ObjectProvider<DeclaredSchedules> declared,
			@Qualifier(DelayQueueAutoConfiguration.JSON_MAPPER_BEAN_NAME) ObjectProvider<JsonMapper> jsonMapper) {
		return new RecurringAnnotationBeanPostProcessor(declared, jsonMapper);
	}

	@Bean
	DeclaredSchedules delayQueueDeclaredSchedules(DelayQueueProperties properties,
			@Qualifier(DelayQueueAutoConfiguration.JSON_MAPPER_BEAN_NAME) JsonMapper jsonMapper) {
		return new DeclaredSchedules(SchedulePropertiesBinder.definitions(properties.getSchedules(), jsonMapper));
	}

	@Bean
	ScheduleEngine delayQueueScheduleEngine(ScriptRunner scriptRunner, DelayQueueProperties properties,
			JobStore jobStore, JobRecordCodec codec, ObjectProvider<JobHistory> history,
			@Qualifier(DelayQueueAutoConfiguration.JSON_MAPPER_BEAN_NAME) JsonMapper jsonMapper,
			DeclaredSchedules declared, ObjectProvider<DelayedJobScheduler> scheduler,
			ObjectProvider<ScheduleTickListener> tickListeners,
			@Qualifier("delayQueueWakeUpContainer") ObjectProvider<RedisMessageListenerContainer> wakeUps) {
		ScheduleEngine engine = new ScheduleEngine(scriptRunner, properties.getKeyPrefix(), jobStore, codec, jsonMapper,
				declared::definitions, scheduler.getIfAvailable() != null, tickListeners.orderedStream().toList());
		history.ifAvailable(engine::setJobHistory);
		// Changes made on other instances reach this one's loop on the scheduler's own
		// subscription, without a connection of its own.
		wakeUps
			.ifAvailable((container) -> container.addMessageListener(engine.changeListener(), engine.changeChannel()));
		return engine;
	}

	@Bean
	@ConditionalOnMissingBean(DelayQueueSchedules.class)
	DelayQueueSchedules delayQueueSchedules(ScheduleEngine engine) {
		return engine.schedules();
	}

	@Bean
	ScheduleLoop delayQueueScheduleLoop(ScheduleEngine engine, DelayQueueThreads threads) {
		ScheduleLoop loop = engine.loop();
		loop.setThreads(threads);
		return loop;
	}

	@Bean
	UnhandledScheduleTopics delayQueueUnhandledScheduleTopics(DeclaredSchedules declared,
			DelayQueueProperties properties, ObjectProvider<DelayedJobListenerEndpointRegistry> listeners) {
		return new UnhandledScheduleTopics(declared, () -> {
			DelayedJobListenerEndpointRegistry registry = listeners.getIfAvailable();
			return (registry != null) ? topics(registry) : null;
		}, properties.getListener().getHandledElsewhere());
	}

	private static List<String> topics(DelayedJobListenerEndpointRegistry registry) {
		return registry.getListenerContainers()
			.stream()
			.flatMap((container) -> container.getTopics().stream())
			.toList();
	}

	/**
	 * The meters of schedules, bound by Spring Boot when the application has a meter
	 * registry.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(MeterRegistry.class)
	static class ScheduleMetricsConfiguration {

		@Bean
		@ConditionalOnMissingBean
		ScheduleMetrics delayQueueScheduleMetrics() {
			return new ScheduleMetrics();
		}

	}

}
