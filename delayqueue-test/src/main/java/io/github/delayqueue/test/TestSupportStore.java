package io.github.delayqueue.test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.delayqueue.internal.store.DelayQueueKeys;
import io.github.delayqueue.internal.store.LuaScript;
import io.github.delayqueue.internal.store.PartitionRegistry;
import io.github.delayqueue.internal.store.ScriptRunner;
import io.github.delayqueue.internal.store.TopicKeys;

/**
 * The Redis side of the test support, not used by the queue itself: moving a topic's due
 * times and time-to-run deadlines earlier, as if time had passed, and counting what a
 * topic still has to do now. Each reads or changes every queue of the topic (each
 * partition of a partitioned topic) with one script call per queue, all in one round
 * trip; each call is atomic for its queue.
 *
 * @author delayqueue contributors
 */
final class TestSupportStore {

	private static final String SCRIPTS = "io/github/delayqueue/test/scripts/";

	// DELAYED due times and RUNNING deadlines moved earlier.
	private static final LuaScript SHIFT_DUE = LuaScript.assemble(SCRIPTS, "shift-due");

	// What a queue still has to do now.
	private static final LuaScript COUNT_UNSETTLED = LuaScript.assemble(SCRIPTS, "count-unsettled");

	private final ScriptRunner scripts;

	private final DelayQueueKeys keys;

	private final PartitionRegistry partitions;

	/**
	 * Create the store.
	 * @param scripts runs the scripts
	 * @param keys names the keys
	 */
	TestSupportStore(ScriptRunner scripts, DelayQueueKeys keys) {
		this.scripts = scripts;
		this.keys = keys;
		this.partitions = new PartitionRegistry(scripts, keys);
	}

	/**
	 * Move a topic's times earlier: the due times of its DELAYED jobs (with the due and
	 * creation times in their records) and the deadlines of its RUNNING deliveries. No
	 * job changes state here; each queue that changed is published on the wake channel,
	 * so that schedulers sweep it at once.
	 * @param topic the topic
	 * @param delayedBy how much earlier DELAYED jobs fall due, zero or more; negative for
	 * as much as makes each queue's last DELAYED job due now
	 * @param runningBy how much earlier RUNNING deliveries' time to run ends, zero or
	 * more
	 * @return what changed in each queue of the topic
	 */
	List<ShiftedQueue> shift(String topic, Duration delayedBy, Duration runningBy) {
		List<String> queues = this.partitions.queues(topic);
		List<ScriptRunner.Call> calls = new ArrayList<>(queues.size());
		for (String queue : queues) {
			TopicKeys k = this.keys.lookupTopic(queue);
			calls.add(new ScriptRunner.Call(SHIFT_DUE, List.of(k.delayed(), k.jobs(), k.running()),
					List.of(String.valueOf(delayedBy.toMillis()), String.valueOf(runningBy.toMillis()),
							this.keys.wakeChannel(), queue)));
		}
		List<List<Object>> replies = this.scripts.runPipelined(calls);
		List<ShiftedQueue> shifted = new ArrayList<>(queues.size());
		for (int i = 0; i < queues.size(); i++) {
			List<Object> reply = replies.get(i);
			shifted.add(new ShiftedQueue(queues.get(i), ScriptRunner.asLong(reply.get(0)),
					ScriptRunner.asLong(reply.get(1)), ScriptRunner.asLong(reply.get(2)),
					ScriptRunner.asLong(reply.get(3)), ScriptRunner.asLong(reply.get(4)),
					ScriptRunner.asLong(reply.get(5))));
		}
		return shifted;
	}

	/**
	 * Count what a topic still has to do now, summed over its queues, each read
	 * consistently.
	 * @param topic the topic
	 * @return DELAYED jobs already due, READY jobs and RUNNING deliveries
	 */
	Unsettled unsettled(String topic) {
		List<String> queues = this.partitions.queues(topic);
		List<ScriptRunner.Call> calls = new ArrayList<>(queues.size());
		for (String queue : queues) {
			TopicKeys k = this.keys.lookupTopic(queue);
			calls.add(new ScriptRunner.Call(COUNT_UNSETTLED,
					List.of(k.delayed(), k.ready(), k.claiming(), k.running(), k.ghosts()), List.of()));
		}
		long due = 0;
		long ready = 0;
		long running = 0;
		for (List<Object> reply : this.scripts.runPipelined(calls)) {
			due += ScriptRunner.asLong(reply.get(0));
			ready += ScriptRunner.asLong(reply.get(1));
			running += ScriptRunner.asLong(reply.get(2));
		}
		return new Unsettled(due, ready, running);
	}

	/**
	 * What moving a queue's times changed.
	 *
	 * @param queue the queue: the topic's own, or one partition's
	 * @param delayedMoved DELAYED jobs whose due time moved
	 * @param nowDue of those, how many are due now
	 * @param earliestDueMillis the earliest due time of the queue's DELAYED jobs now, or
	 * -1 when it has none
	 * @param runningMoved RUNNING deliveries whose deadline moved
	 * @param earliestDeadlineMillis the earliest of their deadlines now, or -1
	 * @param nowMillis the Redis clock when the times moved
	 */
	record ShiftedQueue(String queue, long delayedMoved, long nowDue, long earliestDueMillis, long runningMoved,
			long earliestDeadlineMillis, long nowMillis) {

	}

	/**
	 * What a topic still has to do now.
	 *
	 * @param due DELAYED jobs whose due time has come, not yet moved to READY
	 * @param ready READY jobs, those being claimed included
	 * @param running RUNNING deliveries
	 */
	record Unsettled(long due, long ready, long running) {

		/**
		 * Tell whether nothing is left to do now.
		 * @return {@code true} if every count is zero
		 */
		boolean isIdle() {
			return this.due == 0 && this.ready == 0 && this.running == 0;
		}

	}

}
