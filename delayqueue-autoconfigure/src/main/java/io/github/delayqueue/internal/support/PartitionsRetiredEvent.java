package io.github.delayqueue.internal.support;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import io.github.delayqueue.internal.store.DelayQueueKeys;

import org.springframework.context.ApplicationEvent;

/**
 * Published by this instance's scheduler when it retired drained partitions that the
 * configuration no longer has: they left their topic's partition set, and the listeners
 * of their topics stop waiting on them now rather than at their next periodic look at
 * their queues. Listeners of other instances learn it at that look.
 *
 * @author delayqueue contributors
 */
public class PartitionsRetiredEvent extends ApplicationEvent {

	private final List<String> partitions;

	/**
	 * Create an event.
	 * @param source the scheduler that retired the partitions
	 * @param partitions the retired partitions' queue names
	 */
	public PartitionsRetiredEvent(Object source, List<String> partitions) {
		super(source);
		this.partitions = List.copyOf(partitions);
	}

	/**
	 * Return the queue names of the retired partitions.
	 * @return the queues, each named {@code topic~salt}
	 */
	public List<String> getPartitions() {
		return this.partitions;
	}

	/**
	 * Return the topics that the retired partitions belonged to.
	 * @return the topics
	 */
	public Set<String> getTopics() {
		Set<String> topics = new LinkedHashSet<>();
		this.partitions.forEach((queue) -> topics.add(DelayQueueKeys.topicOf(queue)));
		return topics;
	}

}
