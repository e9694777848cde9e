package io.github.delayqueue.internal.scheduler;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

import io.github.delayqueue.internal.store.DelayQueueKeys;
import io.github.delayqueue.internal.store.JobStore;
import io.github.delayqueue.internal.support.TopicPolicies;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Purges each topic's dead jobs once they are older than the topic's retention. A topic
 * is purged every tenth of its retention, but no more often than once a minute and no
 * less often than every ten minutes: a dead job outlives its retention by that much at
 * most, and an idle topic with the default retention of 7 days costs one script call per
 * ten minutes.
 *
 * @author delayqueue contributors
 */
final class DeadJobRetention {

	private static final Log logger = LogFactory.getLog(DeadJobRetention.class);

	private static final Duration MIN_INTERVAL = Duration.ofMinutes(1);

	private static final Duration MAX_INTERVAL = Duration.ofMinutes(10);

	private final JobStore jobStore;

	private final TopicPolicies policies;

	private final Map<String, Long> nextPurge = new HashMap<>();

	DeadJobRetention(JobStore jobStore, TopicPolicies policies) {
		this.jobStore = jobStore;
		this.policies = policies;
	}

	/**
	 * Purge the topics whose turn came; a topic seen for the first time has its turn.
	 * @param queues the queues the scheduler tracks, of topics or partitions
	 * @param now the current time, on the {@link System#nanoTime()} scale
	 */
	void purgeDue(Set<String> queues, long now) {
		// The store purges every partition of a topic.
		Set<String> topics = new LinkedHashSet<>();
		queues.forEach((queue) -> topics.add(DelayQueueKeys.topicOf(queue)));
		for (String topic : topics) {
			Long next = this.nextPurge.get(topic);
			if (next != null && now - next < 0) {
				continue;
			}
			Duration retention = this.policies.forTopic(topic).deadRetention();
			long purged = this.jobStore.purgeDead(topic, retention);
			this.nextPurge.put(topic, now + interval(retention));
			if (purged > 0 && logger.isDebugEnabled()) {
				logger.debug("Purged " + purged + " dead job(s) of topic '" + topic + "' past their retention");
			}
		}
	}

	static long interval(Duration retention) {
		Duration tenth = retention.dividedBy(10);
		if (tenth.compareTo(MIN_INTERVAL) < 0) {
			return MIN_INTERVAL.toNanos();
		}
		return ((tenth.compareTo(MAX_INTERVAL) > 0) ? MAX_INTERVAL : tenth).toNanos();
	}

}
