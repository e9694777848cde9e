package io.github.delayqueue.actuate;

import java.util.LinkedHashMap;
import java.util.Map;

import io.github.delayqueue.core.JobStore;
import io.github.delayqueue.core.TopicStats;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Health of the delay queue: up when its Redis answers, with each topic's counts as
 * details; down when Redis cannot be reached.
 *
 * @author delayqueue contributors
 */
public class DelayQueueHealthIndicator extends AbstractHealthIndicator {

	private final JobStore store;

	/**
	 * Create the indicator.
	 * @param store where the topics and their counts are read
	 */
	public DelayQueueHealthIndicator(JobStore store) {
		super("Delay queue health check failed");
		this.store = store;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		// Reading the topics proves Redis answers; no separate PING is needed.
		for (String topic : this.store.topics()) {
			TopicStats stats = this.store.stats(topic);
			Map<String, Long> counts = new LinkedHashMap<>();
			counts.put("delayed", stats.delayed());
			counts.put("ready", stats.ready());
			counts.put("running", stats.running());
			counts.put("dead", stats.dead());
			builder.withDetail(topic, counts);
		}
		builder.up();
	}

}
