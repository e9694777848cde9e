package io.github.delayqueue.store;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Names every Redis key and channel the delay queue uses, all carrying one prefix:
 * channels start with it, and a topic's keys start with it inside their hash tag,
 * {@code {prefix:topic}:...}.
 *
 * @author delayqueue contributors
 */
public final class DelayQueueKeys {

	private final String prefix;

	private final Map<String, TopicKeys> topics = new ConcurrentHashMap<>();

	/**
	 * Create the key names for a prefix.
	 * @param prefix the prefix every key starts with
	 */
	public DelayQueueKeys(String prefix) {
		this.prefix = prefix;
	}

	/**
	 * Return the keys of a topic.
	 * @param topic the topic
	 * @return its keys
	 */
	public TopicKeys topic(String topic) {
		return this.topics.computeIfAbsent(topic, (name) -> TopicKeys.of(this.prefix, name));
	}

	/**
	 * Return the set that lists every topic that has or had jobs.
	 * @return the key
	 */
	public String topicSet() {
		return this.prefix + ":topics";
	}

	/**
	 * Return the pub/sub channel on which a topic's name is published when it gets a job
	 * due earlier than any it had, so that schedulers wake up.
	 * @return the channel
	 */
	public String wakeChannel() {
		return this.prefix + ":wake";
	}

	/**
	 * Return the pub/sub channel on which a topic's name is published when a consumer
	 * claimed jobs of it, at most once per {@code scheduler.max-sleep} per instance, so
	 * that schedulers look for the new time-to-run deadlines soon.
	 * @return the channel
	 */
	public String claimChannel() {
		return this.prefix + ":claimed";
	}

}
