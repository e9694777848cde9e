package io.github.delayqueue.internal.presence;

import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import io.github.delayqueue.internal.store.DelayQueueKeys;
import io.github.delayqueue.internal.store.JobStore;
import io.github.delayqueue.internal.store.ScriptRunner;
import io.github.delayqueue.internal.store.StateCounts;
import io.github.delayqueue.internal.support.TopicPolicies;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Forgets topics nobody uses any more: the set of topics only ever grows, and every topic
 * in it costs a sweep, a gauge and a line in the endpoint. A topic that has no job and no
 * listener on any instance is marked, in the hash {@code <prefix>:topics-empty-since}
 * (topic to the Redis time it was first seen so); a topic seen with a job or a listener
 * loses its mark, as does a topic a sender registers (once a minute at most while it
 * sends); one that stays marked for longer than its dead-letter retention leaves the set
 * of topics. It returns when a job is sent to it or a listener starts on it: a sender
 * counts a topic as registered for a minute after it registered it, which clears the
 * mark, so with a retention over a minute no send finds the topic gone while it still
 * counts it as registered.
 *
 * @author delayqueue contributors
 */
public class EmptyTopicPruner {

	/**
	 * How often a beat prunes unless told otherwise.
	 */
	public static final Duration DEFAULT_INTERVAL = Duration.ofHours(1);

	private static final Log logger = LogFactory.getLog(EmptyTopicPruner.class);

	private final JobStore store;

	private final ScriptRunner scripts;

	private final StringRedisTemplate redis;

	private final String topicSet;

	private final String emptySince;

	private final ListenerPresence presence;

	private final TopicPolicies policies;

	private final long intervalNanos;

	private long lastRun;

	private boolean ran;

	/**
	 * Create a pruner.
	 * @param store reads the topics and their counts
	 * @param scripts where the set of topics and the marks live, and the clock they are
	 * marked by
	 * @param keys names the set of topics
	 * @param keyPrefix the prefix of every key, which names the marks
	 * @param presence tells which topics have a listener
	 * @param policies tell each topic's dead-letter retention
	 * @param interval how often {@link #pruneIfDue()} prunes
	 */
	public EmptyTopicPruner(JobStore store, ScriptRunner scripts, DelayQueueKeys keys, String keyPrefix,
			ListenerPresence presence, TopicPolicies policies, Duration interval) {
		this.store = store;
		this.scripts = scripts;
		this.redis = scripts.redis();
		this.topicSet = keys.topicSet();
		this.emptySince = keyPrefix + ":topics-empty-since";
		this.presence = presence;
		this.policies = policies;
		this.intervalNanos = interval.toNanos();
	}

	/**
	 * Prune unless the last pruning was less than an interval ago.
	 */
	public synchronized void pruneIfDue() {
		long now = System.nanoTime();
		if (this.ran && now - this.lastRun < this.intervalNanos) {
			return;
		}
		this.ran = true;
		this.lastRun = now;
		Set<String> pruned = prune();
		if (!pruned.isEmpty()) {
			logger.info("Forgot topics without jobs and listeners for their dead-letter retention: " + pruned);
		}
	}

	/**
	 * Mark the topics that are empty and have no listener, unmark the others, and remove
	 * from the set of topics those marked for longer than their dead-letter retention.
	 * @return the topics removed
	 */
	public Set<String> prune() {
		Set<String> listened = new HashSet<>();
		this.presence.read().forEach((instance) -> instance.listeners().forEach((l) -> listened.addAll(l.topics())));
		Map<Object, Object> marks = this.redis.opsForHash().entries(this.emptySince);
		long now = this.scripts.serverTime();
		Set<String> topics = this.store.topics();
		Set<String> removed = new TreeSet<>();
		for (String topic : topics) {
			if (listened.contains(topic) || !isEmpty(this.store.stats(topic))) {
				if (marks.containsKey(topic)) {
					this.redis.opsForHash().delete(this.emptySince, topic);
				}
				continue;
			}
			Object since = marks.get(topic);
			if (since == null) {
				this.redis.opsForHash().putIfAbsent(this.emptySince, topic, String.valueOf(now));
			}
			else if (now
					- Long.parseLong(String.valueOf(since)) > this.policies.forTopic(topic).deadRetention().toMillis()
					&& forget(topic, String.valueOf(since))) {
				removed.add(topic);
			}
		}
		// Marks of topics that left the set some other way.
		Object[] orphans = marks.keySet().stream().filter((topic) -> !topics.contains(topic)).toArray();
		if (orphans.length > 0) {
			this.redis.opsForHash().delete(this.emptySince, orphans);
		}
		return removed;
	}

	// Takes the topic out of the set unless a send registered it since it was marked.
	private boolean forget(String topic, String since) {
		this.redis.opsForSet().remove(this.topicSet, topic);
		// A send between the count and the removal would leave a topic with jobs out of
		// the set, and its sender, which counts it as registered for a while, would not
		// put it back: look again, at the jobs and at the mark (a registration removes
		// it), and put the topic back. (The set and the topic's keys live in different
		// cluster slots, so no script can do both at once.)
		Object still = this.redis.opsForHash().get(this.emptySince, topic);
		if (!since.equals(still) || !isEmpty(this.store.stats(topic))) {
			this.redis.opsForSet().add(this.topicSet, topic);
			return false;
		}
		this.redis.opsForHash().delete(this.emptySince, topic);
		return true;
	}

	private static boolean isEmpty(StateCounts stats) {
		return stats.delayed() == 0 && stats.ready() == 0 && stats.running() == 0 && stats.dead() == 0;
	}

}
