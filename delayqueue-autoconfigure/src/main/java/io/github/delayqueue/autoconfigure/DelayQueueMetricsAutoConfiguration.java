package io.github.delayqueue.autoconfigure;

import io.github.delayqueue.internal.actuate.DelayQueueMetrics;
import io.github.delayqueue.internal.store.JobStore;
import io.github.delayqueue.internal.support.DelayQueueThreads;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the delay queue's Micrometer meters. Spring Boot binds the
 * {@link DelayQueueMetrics} binder to the application's meter registry; the template, the
 * scheduler and the listener containers feed it as a job event listener.
 *
 * @author delayqueue contributors
 */
// Boot's metrics auto-configurations are named, not referenced: they may be absent.
@AutoConfiguration(after = DelayQueueAutoConfiguration.class, afterName = {
		"org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
		"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
		"org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration" })
@ConditionalOnClass({ MeterRegistry.class, MetricsAutoConfiguration.class })
@ConditionalOnBean({ JobStore.class, MeterRegistry.class })
public final class DelayQueueMetricsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	DelayQueueMetrics delayQueueMetrics(JobStore jobStore, DelayQueueThreads threads) {
		DelayQueueMetrics metrics = new DelayQueueMetrics(jobStore);
		metrics.setThreads(threads);
		return metrics;
	}

}
