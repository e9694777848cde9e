package io.github.delayqueue.internal.store;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import org.springframework.dao.ConcurrencyFailureException;

/**
 * Knows every queue of a topic: those its partitions are written to now, and those other
 * instances, or this one before a change of the number of partitions, wrote to. Senders
 * record their queues in the topic's partition set before writing to them, so that
 * consumers and schedulers keep delivering from a queue that is no longer written.
 * <p>
 * The set also shrinks: a partition that this instance's configuration no longer has
 * leaves it once drained ({@link #retireDrained(String)}), so that no listener waits on
 * it and no scheduler sweeps it for good. An instance configured otherwise may still
 * write to it, so leaving happens in steps that no concurrent send can slip past: the
 * partition is marked retired in its own slot by a script that finds every key of it
 * absent; a send meets that mark, writes nothing, and puts the partition back into the
 * set ({@link #reviveIfRetired}) before it sends again, counting the revival; and the
 * retired partitions leave the set only if no revival was counted since the retirement
 * began. So a partition holds a job only while it is in the set. A revived partition is
 * kept from being marked again for a minute, so that its sender's job gets in.
 *
 * @author delayqueue contributors
 */
public final class PartitionRegistry {

	/**
	 * The first element of an enqueue reply that wrote nothing, because the partition is
	 * retired; the second is the retirement mark.
	 */
	private static final long RETIRED = -2;

	/**
	 * How often a send puts a partition back before it gives up: each time, a retirement
	 * must have marked the partition again between the revival and the send.
	 */
	private static final int MAX_REVIVALS = 5;

	/**
	 * How long a revived partition is kept from being retired again, for its sender's job
	 * to arrive.
	 */
	private static final Duration REVIVAL_GRACE = Duration.ofMinutes(1);

	private final ScriptRunner scripts;

	private final DelayQueueKeys keys;

	/**
	 * Create a registry.
	 * @param scripts runs the commands
	 * @param keys names the keys and computes the layouts
	 */
	public PartitionRegistry(ScriptRunner scripts, DelayQueueKeys keys) {
		this.scripts = scripts;
		this.keys = keys;
	}

	/**
	 * Record the queues a topic's jobs are written to now; nothing for an unpartitioned
	 * topic, whose one queue is always known.
	 * @param topic the topic
	 * @return how many queues were recorded for the first time
	 */
	public long register(String topic) {
		List<String> queues = this.keys.queues(topic);
		if (queues.size() == 1) {
			return 0;
		}
		// The topic is named in the set of partitioned topics first, so that whoever
		// finds a queue in its partition set also finds the topic there.
		this.scripts.addToSet(this.keys.partitionedTopicSet(), topic);
		return this.scripts.addToSet(this.keys.partitionSet(topic),
				queues.subList(1, queues.size()).toArray(String[]::new));
	}

	/**
	 * Return every queue of a topic: those written to now, in partition order, then those
	 * recorded by any sender.
	 * @param topic the topic
	 * @return the queue names, the topic's own first
	 */
	public List<String> queues(String topic) {
		return queues(topic, true);
	}

	/**
	 * Return every queue of several topics, as {@link #queues(String)} does for one, with
	 * one read of the set of partitioned topics and one of the partition set of each of
	 * those only: an idle application's periodic look at its topics stays at two commands
	 * however many unpartitioned topics it has.
	 * @param topics the topics
	 * @return the queue names of each topic, in the order of the topics given
	 */
	public Map<String, List<String>> queues(Collection<String> topics) {
		Set<String> partitioned = this.scripts.members(this.keys.partitionedTopicSet());
		Map<String, List<String>> queues = new LinkedHashMap<>();
		for (String topic : topics) {
			queues.put(topic, queues(topic, partitioned.contains(topic)));
		}
		return queues;
	}

	private List<String> queues(String topic, boolean recorded) {
		List<String> written = this.keys.queues(topic);
		if (!recorded) {
			return written;
		}
		Set<String> queues = new LinkedHashSet<>(written);
		for (String queue : this.scripts.members(this.keys.partitionSet(topic))) {
			// Only queues of this topic: the set is ours, but its members come from
			// Redis.
			if (DelayQueueKeys.topicOf(queue).equals(topic)) {
				queues.add(queue);
			}
		}
		return new ArrayList<>(queues);
	}

	/**
	 * Retire the partitions of a topic that this instance's configuration does not have
	 * and that hold nothing: they leave the topic's partition set, unless a send put one
	 * of them back meanwhile.
	 * @param topic the topic
	 * @return the queues that left the set, and how many of those the configuration does
	 * not have are still in it
	 */
	public Retirement retireDrained(String topic) {
		Set<String> written = Set.copyOf(this.keys.queues(topic));
		List<String> candidates = new ArrayList<>();
		for (String queue : this.scripts.members(this.keys.partitionSet(topic))) {
			if (DelayQueueKeys.topicOf(queue).equals(topic) && !written.contains(queue)) {
				candidates.add(queue);
			}
		}
		if (candidates.isEmpty()) {
			return Retirement.NONE;
		}
		String revivals = this.scripts.get(this.keys.partitionRevivals(topic));
		String mark = (revivals != null) ? revivals : "0";
		List<ScriptRunner.Call> calls = new ArrayList<>(candidates.size());
		for (String queue : candidates) {
			TopicKeys k = this.keys.topic(queue);
			calls.add(new ScriptRunner.Call(DelayQueueScript.RETIRE_PARTITION,
					List.of(k.jobs(), k.delayed(), k.ready(), k.claiming(), k.running(), k.dead(), k.attempts(),
							k.errors(), k.ghosts(), k.revived(), k.retired(), k.paused()),
					List.of(mark)));
		}
		List<List<Object>> replies = this.scripts.runPipelined(calls);
		List<String> retired = new ArrayList<>();
		for (int i = 0; i < candidates.size(); i++) {
			if (ScriptRunner.asLong(replies.get(i).get(0)) == 1) {
				retired.add(candidates.get(i));
			}
		}
		if (retired.isEmpty()) {
			return new Retirement(List.of(), candidates.size());
		}
		String[] args = new String[retired.size() + 1];
		args[0] = mark;
		for (int i = 0; i < retired.size(); i++) {
			args[i + 1] = retired.get(i);
		}
		long forgotten = ScriptRunner.asLong(
				this.scripts
					.run(DelayQueueScript.FORGET_PARTITIONS,
							List.of(this.keys.partitionSet(topic), this.keys.partitionRevivals(topic)), args)
					.get(0));
		return (forgotten > 0) ? new Retirement(retired, candidates.size() - retired.size())
				: new Retirement(List.of(), candidates.size());
	}

	/**
	 * Return the reply of an enqueue call to a queue, sending it again after putting the
	 * queue back into its topic's partition set whenever the reply says the queue was
	 * retired and nothing was written.
	 * @param queue the queue the call writes to
	 * @param reply the call's reply
	 * @param sendAgain sends the call again
	 * @return the reply of the call that wrote
	 * @throws ConcurrencyFailureException if the queue was retired again each time
	 */
	public List<Object> reviveIfRetired(String queue, List<Object> reply, Supplier<List<Object>> sendAgain) {
		List<Object> current = reply;
		for (int revivals = 0; isRetired(current); revivals++) {
			if (revivals == MAX_REVIVALS) {
				throw new ConcurrencyFailureException("Partition '" + queue + "' was retired again each of "
						+ MAX_REVIVALS + " times it was put back; nothing was written");
			}
			revive(queue, String.valueOf(current.get(1)));
			current = sendAgain.get();
		}
		return current;
	}

	private static boolean isRetired(List<Object> reply) {
		return reply.size() == 2 && reply.get(0) instanceof Long first && first == RETIRED;
	}

	private void revive(String queue, String mark) {
		String topic = DelayQueueKeys.topicOf(queue);
		boolean paused = ScriptRunner.asLong(
				this.scripts
					.run(DelayQueueScript.REVIVE_PARTITION, List.of(this.keys.partitionSet(topic),
							this.keys.partitionRevivals(topic), this.keys.topic(topic).paused()), queue)
					.get(0)) == 1;
		TopicKeys k = this.keys.topic(queue);
		this.scripts.run(DelayQueueScript.UNRETIRE_PARTITION, List.of(k.retired(), k.paused(), k.revived()), mark,
				paused ? "1" : "0", String.valueOf(REVIVAL_GRACE.toMillis()));
	}

	/**
	 * Return the topics that have a partition set.
	 * @return the topics
	 */
	public Set<String> partitionedTopics() {
		return this.scripts.members(this.keys.partitionedTopicSet());
	}

	/**
	 * What one retirement did: the partitions that left their topic's partition set, and
	 * how many that the configuration no longer has are still in it, because they hold
	 * jobs or a send put them back.
	 *
	 * @param retired the queues that left the set
	 * @param left how many queues not configured here are still in the set
	 */
	public record Retirement(List<String> retired, int left) {

		/**
		 * Nothing to retire.
		 */
		public static final Retirement NONE = new Retirement(List.of(), 0);

		/**
		 * Add another topic's retirement to this one.
		 * @param other the other retirement
		 * @return both together
		 */
		public Retirement plus(Retirement other) {
			if (other.retired.isEmpty() && other.left == 0) {
				return this;
			}
			List<String> both = new ArrayList<>(this.retired);
			both.addAll(other.retired);
			return new Retirement(List.copyOf(both), this.left + other.left);
		}

	}

}
