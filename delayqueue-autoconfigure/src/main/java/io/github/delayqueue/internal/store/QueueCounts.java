package io.github.delayqueue.internal.store;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * Counts the jobs of every queue of one or many topics, with each queue's pause mark and,
 * when asked, the due time of its longest waiting ready job, in one pipelined round trip:
 * the call on a topic's own queue also reads its partition set, so that only queues
 * recorded there and not written to now (after a change of the number of partitions) cost
 * a second one. Nothing it is asked about is remembered.
 *
 * @author delayqueue contributors
 */
final class QueueCounts {

	// Where count-states puts what follows the four counts.
	private static final int PAUSED = 4;

	private static final int OLDEST_READY = 5;

	private static final int FIRST_MEMBER = 6;

	private final ScriptRunner scripts;

	private final DelayQueueKeys keys;

	private final JobLookup lookup;

	QueueCounts(ScriptRunner scripts, DelayQueueKeys keys, JobLookup lookup) {
		this.scripts = scripts;
		this.keys = keys;
		this.lookup = lookup;
	}

	/**
	 * Count every queue of each topic.
	 * @param topics the topics
	 * @return each topic's queues with their counts, the topic's own first, in the order
	 * of the topics given
	 */
	Map<String, List<Count>> of(Collection<String> topics) {
		List<ScriptRunner.Call> calls = new ArrayList<>();
		List<String> queueOfCall = new ArrayList<>();
		for (String topic : topics) {
			for (String queue : this.keys.lookupQueues(topic)) {
				calls.add(call(queue, queue.equals(topic) ? this.keys.partitionSet(topic) : null));
				queueOfCall.add(queue);
			}
		}
		List<List<Object>> replies = this.scripts.runPipelined(calls);
		Map<String, List<Count>> counts = new LinkedHashMap<>();
		List<ScriptRunner.Call> recordedCalls = new ArrayList<>();
		List<String> queueOfRecordedCall = new ArrayList<>();
		for (int i = 0; i < replies.size(); i++) {
			String queue = queueOfCall.get(i);
			String topic = DelayQueueKeys.topicOf(queue);
			List<Object> reply = replies.get(i);
			counts.computeIfAbsent(topic, (key) -> new ArrayList<>()).add(count(queue, reply));
			if (queue.equals(topic) && reply.size() > FIRST_MEMBER) {
				List<String> members = reply.subList(FIRST_MEMBER, reply.size()).stream().map(String::valueOf).toList();
				List<String> all = this.lookup.withRecorded(topic, members);
				for (String recorded : all.subList(this.keys.lookupQueues(topic).size(), all.size())) {
					recordedCalls.add(call(recorded, null));
					queueOfRecordedCall.add(recorded);
				}
			}
		}
		List<List<Object>> recordedReplies = this.scripts.runPipelined(recordedCalls);
		for (int i = 0; i < recordedReplies.size(); i++) {
			String queue = queueOfRecordedCall.get(i);
			counts.get(DelayQueueKeys.topicOf(queue)).add(count(queue, recordedReplies.get(i)));
		}
		return counts;
	}

	/**
	 * Count every queue of a topic.
	 * @param topic the topic
	 * @return its queues with their counts, its own first
	 */
	List<Count> of(String topic) {
		return of(List.of(topic)).get(topic);
	}

	private ScriptRunner.Call call(String queue, @Nullable String partitionSet) {
		TopicKeys k = this.keys.lookupTopic(queue);
		List<String> keys = new ArrayList<>(
				List.of(k.delayed(), k.ready(), k.claiming(), k.running(), k.dead(), k.ghosts(), k.paused(), k.jobs()));
		if (partitionSet != null) {
			keys.add(partitionSet);
		}
		return new ScriptRunner.Call(DelayQueueScript.COUNT_STATES, keys, List.of());
	}

	private static Count count(String queue, List<Object> reply) {
		return new Count(queue, ScriptRunner.asLong(reply.get(0)), ScriptRunner.asLong(reply.get(1)),
				ScriptRunner.asLong(reply.get(2)), ScriptRunner.asLong(reply.get(3)),
				ScriptRunner.asLong(reply.get(PAUSED)) == 1, ScriptRunner.asLong(reply.get(OLDEST_READY)));
	}

	/**
	 * One queue's counts.
	 *
	 * @param queue the queue
	 * @param delayed jobs in DELAYED
	 * @param ready jobs in READY
	 * @param running jobs in RUNNING
	 * @param dead jobs in DEAD
	 * @param paused whether the queue's pause mark is set
	 * @param oldestReadyDueMillis the due time of its longest waiting ready job, or -1
	 */
	record Count(String queue, long delayed, long ready, long running, long dead, boolean paused,
			long oldestReadyDueMillis) {

		/**
		 * Return how many jobs the queue holds in one state.
		 * @param state DELAYED, READY, RUNNING or DEAD: kept finished jobs are not
		 * counted here
		 * @return the count
		 */
		long in(StoredJob.State state) {
			return switch (state) {
				case DELAYED -> this.delayed;
				case READY -> this.ready;
				case RUNNING -> this.running;
				case DEAD -> this.dead;
				case COMPLETED, CANCELLED -> throw new IllegalStateException("Kept jobs are paged apart");
			};
		}

	}

}
