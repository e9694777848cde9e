package io.github.delayqueue.internal.store;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToIntFunction;

/**
 * Names every Redis key and channel the delay queue uses, all carrying one prefix:
 * channels start with it, and a topic's keys start with it inside their hash tag,
 * {@code {prefix:topic}:...}.
 * <p>
 * A topic with N partitions keeps its jobs in N queues, each a set of keys under a hash
 * tag of its own (see {@link #queues(String)}); everything below the public API works on
 * queue names, and an unpartitioned topic's one queue is named like the topic.
 *
 * @author delayqueue contributors
 */
public final class DelayQueueKeys {

	private final String prefix;

	/**
	 * Most partitions a topic may have.
	 */
	public static final int MAX_PARTITIONS = 1024;

	private final ToIntFunction<String> partitionCount;

	private final Map<String, TopicKeys> topics = new ConcurrentHashMap<>();

	private final Map<String, Layout> layouts = new ConcurrentHashMap<>();

	/**
	 * Create the key names for a prefix, every topic unpartitioned.
	 * @param prefix the prefix every key starts with
	 */
	public DelayQueueKeys(String prefix) {
		this(prefix, (topic) -> 1);
	}

	/**
	 * Create the key names for a prefix.
	 * @param prefix the prefix every key starts with
	 * @param partitionCount the number of partitions of a topic, 1 to
	 * {@link #MAX_PARTITIONS}
	 */
	public DelayQueueKeys(String prefix, ToIntFunction<String> partitionCount) {
		this.prefix = prefix;
		this.partitionCount = partitionCount;
	}

	/**
	 * Return the keys of a queue: of a topic, or of one partition of it.
	 * @param queue the queue name, from {@link #queues(String)} or
	 * {@link #queueOf(String, String)}; a topic's name is the name of its first queue
	 * @return its keys
	 */
	public TopicKeys topic(String queue) {
		return this.topics.computeIfAbsent(queue, (name) -> TopicKeys.of(this.prefix, name));
	}

	/**
	 * Return the keys of a queue as {@link #topic(String)} does, without remembering them
	 * when they were not remembered yet: for requests that may name any topic, an unknown
	 * one included, and must not grow what this instance keeps per topic.
	 * @param queue the queue name
	 * @return its keys
	 */
	public TopicKeys lookupTopic(String queue) {
		TopicKeys known = this.topics.get(queue);
		return (known != null) ? known : TopicKeys.of(this.prefix, queue);
	}

	/**
	 * Return the queues that jobs of a topic are written to, by its number of partitions
	 * now: the topic itself when it has one. Queues written under another number (before
	 * a change of it, or by an instance configured otherwise) are listed in
	 * {@link #partitionSet(String)}.
	 * @param topic the topic
	 * @return the queue names, the topic's own first
	 */
	public List<String> queues(String topic) {
		return layout(topic).layout().queues();
	}

	/**
	 * Return the queues of a topic as {@link #queues(String)} does, without remembering
	 * the layout of a topic not seen yet, see {@link #lookupTopic(String)}.
	 * @param topic the topic
	 * @return the queue names, the topic's own first
	 */
	public List<String> lookupQueues(String topic) {
		return lookupLayout(topic).queues();
	}

	/**
	 * Return the queue a job id of a topic is written to as
	 * {@link #queueOf(String, String)} does, without remembering the layout of a topic
	 * not seen yet, see {@link #lookupTopic(String)}.
	 * @param topic the topic
	 * @param id the job id
	 * @return the queue name
	 */
	public String lookupQueueOf(String topic, String id) {
		return lookupLayout(topic).queueOf(id);
	}

	private TopicPartitionLayout lookupLayout(String topic) {
		int partitions = this.partitionCount.applyAsInt(topic);
		Layout known = this.layouts.get(topic);
		return (known != null && known.partitions() == partitions) ? known.layout()
				: TopicPartitionLayout.of(this.prefix, topic, partitions);
	}

	/**
	 * Return how many queues' keys and topics' layouts are remembered.
	 * @return the sum of both
	 */
	int remembered() {
		return this.topics.size() + this.layouts.size();
	}

	/**
	 * Return the queue that a job id of a topic is written to.
	 * @param topic the topic
	 * @param id the job id
	 * @return the queue name
	 */
	public String queueOf(String topic, String id) {
		Layout layout = this.layouts.get(topic);
		if (layout == null) {
			layout = layout(topic);
		}
		return layout.layout().queueOf(id);
	}

	/**
	 * Tell whether a topic has more than one partition.
	 * @param topic the topic
	 * @return {@code true} if its jobs are written to several queues
	 */
	public boolean isPartitioned(String topic) {
		return layout(topic).partitions() > 1;
	}

	// The layout follows the partition count: recomputed should the count read differ.
	private Layout layout(String topic) {
		int partitions = this.partitionCount.applyAsInt(topic);
		Layout layout = this.layouts.get(topic);
		if (layout == null || layout.partitions() != partitions) {
			layout = new Layout(partitions, TopicPartitionLayout.of(this.prefix, topic, partitions));
			this.layouts.put(topic, layout);
		}
		return layout;
	}

	/**
	 * Return the topic a queue belongs to.
	 * @param queue the queue name
	 * @return the topic
	 */
	public static String topicOf(String queue) {
		int separator = queue.indexOf(TopicPartitionLayout.SEPARATOR);
		return (separator < 0) ? queue : queue.substring(0, separator);
	}

	/**
	 * Return the set that lists every queue of a topic other than its first that a sender
	 * has written to, so that consumers and schedulers find them all, whatever number of
	 * partitions each instance has. It lives in the topic's own hash tag.
	 * @param topic the topic
	 * @return the key
	 */
	public String partitionSet(String topic) {
		return "{" + this.prefix + ":" + topic + "}:partitions";
	}

	/**
	 * Return the counter of a topic's partitions that senders put back into its partition
	 * set after they had been retired, so that a retirement that began before such a
	 * revival takes nothing out of the set. It lives in the topic's own hash tag, beside
	 * the set.
	 * @param topic the topic
	 * @return the key
	 */
	public String partitionRevivals(String topic) {
		return "{" + this.prefix + ":" + topic + "}:partitions-revived";
	}

	private record Layout(int partitions, TopicPartitionLayout layout) {

	}

	/**
	 * Return the set that lists every topic that has or had jobs.
	 * @return the key
	 */
	public String topicSet() {
		return this.prefix + ":topics";
	}

	/**
	 * Return the hash of the topics seen empty and without listeners, topic to the Redis
	 * time they were first seen so (see
	 * {@link io.github.delayqueue.internal.presence.EmptyTopicPruner}).
	 * @return the key
	 */
	public String topicsEmptySince() {
		return this.prefix + ":topics-empty-since";
	}

	/**
	 * Return the set of the topics that have a partition set (see
	 * {@link #partitionSet(String)}), so that a look at every topic's queues reads only
	 * those sets, not one per topic.
	 * @return the key
	 */
	public String partitionedTopicSet() {
		return this.prefix + ":partitioned-topics";
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
