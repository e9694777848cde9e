package io.github.delayqueue.internal.schedule;

import java.util.List;

import io.github.delayqueue.internal.store.TopicKeys;

/**
 * Names the Redis keys of recurring schedules. What decides a tick lives in the hash tag
 * of the schedule's topic, beside the topic's jobs, so that one script claims a tick and
 * writes its job on a Redis Cluster too: {@code {prefix:topic}:schedules} (definitions),
 * {@code :schedule-states} and {@code :schedule-log:<id>}. What instances declare, and
 * which topic each schedule belongs to, shares the hash tag {@code {prefix:~schedules}},
 * which no topic's keys use.
 *
 * @author delayqueue contributors
 */
final class ScheduleKeys {

	private final String prefix;

	ScheduleKeys(String prefix) {
		this.prefix = prefix;
	}

	/**
	 * The hash of every schedule's id to its topic.
	 * @return the key
	 */
	String registry() {
		return global() + "registry";
	}

	/**
	 * The hash of every schedule's id to its declarations, see
	 * {@code declare-schedules.lua}.
	 * @return the key
	 */
	String declarations() {
		return global() + "declarations";
	}

	/**
	 * The hash of {@code "<id> <hash>"} to a declared definition's JSON.
	 * @return the key
	 */
	String declaredDefinitions() {
		return global() + "definitions";
	}

	/**
	 * The hash of each running instance to its latest renewal of its declarations, see
	 * {@code declare-schedules.lua}.
	 * @return the key
	 */
	String renewals() {
		return global() + "renewals";
	}

	/**
	 * The hash of each set of declared definitions to its entries {@code "<id> <hash>"}.
	 * @return the key
	 */
	String declaredSets() {
		return global() + "declared-sets";
	}

	/**
	 * The keys of {@code declare-schedules.lua}, in its order.
	 * @return the keys
	 */
	List<String> declarationKeys() {
		return List.of(declarations(), declaredDefinitions(), registry(), renewals(), declaredSets());
	}

	/**
	 * The pub/sub channel on which a schedule's id is published when its definition,
	 * pause or topic changed, so that the tick loops of other instances read it again.
	 * @return the channel
	 */
	String changeChannel() {
		return this.prefix + ":schedules";
	}

	/**
	 * The hash of the definitions that hold for a topic's schedules, id to JSON.
	 * @param topic the topic
	 * @return the key
	 */
	String definitions(String topic) {
		return base(topic) + "schedules";
	}

	/**
	 * The hash of a topic's schedules' states, see {@code lib/schedules.lua}.
	 * @param topic the topic
	 * @return the key
	 */
	String states(String topic) {
		return base(topic) + "schedule-states";
	}

	/**
	 * The list of a schedule's latest ticks, newest first.
	 * @param topic the topic
	 * @param id the schedule's id
	 * @return the key
	 */
	String log(String topic, String id) {
		return base(topic) + "schedule-log:" + id;
	}

	/**
	 * The keys of the topic's first queue, where ticks' jobs are written: the topic's own
	 * keys, in its own hash tag, whatever its number of partitions.
	 * @param topic the topic
	 * @return the keys
	 */
	TopicKeys queue(String topic) {
		return TopicKeys.of(this.prefix, topic);
	}

	// No topic name holds '~' (partitions' queues put it after the topic's name), so no
	// topic's keys share this hash tag; the starter's own-command filter knows its form.
	private String global() {
		return "{" + this.prefix + ":~schedules}:";
	}

	private String base(String topic) {
		return "{" + this.prefix + ":" + topic + "}:";
	}

}
