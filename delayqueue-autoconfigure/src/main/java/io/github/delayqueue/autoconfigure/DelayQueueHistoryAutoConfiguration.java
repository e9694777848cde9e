package io.github.delayqueue.autoconfigure;

import java.time.Clock;

import io.github.delayqueue.internal.history.ThroughputCounters;
import io.github.delayqueue.internal.history.ThroughputFlusher;
import io.github.delayqueue.internal.history.ThroughputHistory;
import io.github.delayqueue.internal.store.JobStore;
import io.github.delayqueue.internal.store.ScriptRunner;
import io.github.delayqueue.internal.support.DelayQueueThreads;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the throughput history: every instance counts what happens to
 * jobs and writes the counts to Redis every few seconds, so that any instance can chart
 * them. Switched off with {@code delayqueue.history.enabled=false}.
 *
 * @author delayqueue contributors
 */
@AutoConfiguration(after = DelayQueueAutoConfiguration.class)
@ConditionalOnBean(JobStore.class)
@ConditionalOnProperty(prefix = "delayqueue.history", name = "enabled", matchIfMissing = true)
public final class DelayQueueHistoryAutoConfiguration {

	@Bean
	ThroughputCounters delayQueueThroughputCounters() {
		return new ThroughputCounters();
	}

	@Bean
	ThroughputHistory delayQueueThroughputHistory(ScriptRunner scriptRunner, DelayQueueProperties properties) {
		return new ThroughputHistory(scriptRunner.redis(), properties.getKeyPrefix(), Clock.systemUTC());
	}

	@Bean
	ThroughputFlusher delayQueueThroughputFlusher(ThroughputCounters counters, ThroughputHistory history,
			DelayQueueProperties properties, DelayQueueThreads threads) {
		ThroughputFlusher flusher = new ThroughputFlusher(counters, history,
				properties.getHistory().getFlushInterval());
		flusher.setThreads(threads);
		return flusher;
	}

}
