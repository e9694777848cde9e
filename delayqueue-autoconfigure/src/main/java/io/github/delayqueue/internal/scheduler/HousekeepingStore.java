package io.github.delayqueue.internal.scheduler;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.github.delayqueue.internal.store.DelayQueueKeys;
import io.github.delayqueue.internal.store.DelayQueueScript;
import io.github.delayqueue.internal.store.JobHistoryPolicy;
import io.github.delayqueue.internal.store.PartitionRegistry;
import io.github.delayqueue.internal.store.ScriptRunner;
import io.github.delayqueue.internal.store.TopicKeys;

/**
 * The Redis side of the scheduler: promoting due jobs and requeueing expired deliveries
 * of a queue (a topic, or a partition of one) in one script call, handing orphaned claims
 * back, listing the topics, retiring drained partitions, and publishing heartbeats.
 *
 * @author delayqueue contributors
 */
final class HousekeepingStore {

	private final ScriptRunner scripts;

	private final DelayQueueKeys keys;

	private final PartitionRegistry partitions;

	HousekeepingStore(ScriptRunner scripts, DelayQueueKeys keys) {
		this.scripts = scripts;
		this.keys = keys;
		this.partitions = new PartitionRegistry(scripts, keys);
	}

	/**
	 * Sweep a queue.
	 * @param topic the queue
	 * @param batchSize most jobs moved per transition
	 * @param maxAttempts the topic's max attempts
	 * @param history what the topic keeps of its jobs' past: its timeline steps record no
	 * instance, as whichever instance sweeps a topic makes its moves
	 * @return what the sweep did
	 */
	TopicSweep sweep(String topic, int batchSize, int maxAttempts, JobHistoryPolicy history) {
		TopicKeys k = this.keys.topic(topic);
		List<Object> reply = this.scripts.run(DelayQueueScript.SWEEP,
				List.of(k.delayed(), k.ready(), k.running(), k.dead(), k.jobs(), k.attempts(), k.errors(),
						k.successors()),
				String.valueOf(batchSize), String.valueOf(maxAttempts), history.timelineArgument(k, ""));
		List<String> deadIds = (reply.size() > 8)
				? reply.subList(8, reply.size()).stream().map(String::valueOf).toList() : List.of();
		return new TopicSweep(asInt(reply.get(0)), ScriptRunner.asLong(reply.get(1)), asInt(reply.get(2)),
				asInt(reply.get(3)), asInt(reply.get(4)), ScriptRunner.asLong(reply.get(5)),
				ScriptRunner.asLong(reply.get(6)), asInt(reply.get(7)), deadIds);
	}

	List<String> claiming(String topic) {
		List<String> ids = this.scripts.redis().opsForList().range(this.keys.topic(topic).claiming(), 0, -1);
		return (ids != null) ? ids : List.of();
	}

	long requeueOrphans(String topic, List<String> ids) {
		if (ids.isEmpty()) {
			return 0;
		}
		TopicKeys k = this.keys.topic(topic);
		return ScriptRunner.asLong(this.scripts
			.run(DelayQueueScript.REQUEUE_ORPHANS, List.of(k.claiming(), k.ready()), ids.toArray(String[]::new))
			.get(0));
	}

	void publishHeartbeat() {
		// An empty body names no topic: it only shows that the channel carries messages.
		this.scripts.redis().convertAndSend(this.keys.claimChannel(), "");
	}

	/**
	 * Return every queue of every topic: each topic's own and those of its partitions.
	 * @return the queue names
	 */
	List<String> queues() {
		var members = this.scripts.redis().opsForSet().members(this.keys.topicSet());
		if (members == null) {
			return List.of();
		}
		List<String> queues = new ArrayList<>();
		this.partitions.queues(members).values().forEach(queues::addAll);
		return queues;
	}

	/**
	 * Retire the drained partitions that this instance's configuration no longer has, of
	 * every partitioned topic, see {@link PartitionRegistry#retireDrained(String)}.
	 * @return the queues that left their topic's partition set, and how many of those the
	 * configuration no longer has are left in theirs
	 */
	PartitionRegistry.Retirement retireDrainedPartitions() {
		PartitionRegistry.Retirement all = PartitionRegistry.Retirement.NONE;
		for (String topic : this.partitions.partitionedTopics()) {
			all = all.plus(this.partitions.retireDrained(topic));
		}
		return all;
	}

	/**
	 * Tell whether a queue is one that this instance writes a topic's jobs to.
	 * @param queue the queue
	 * @return {@code true} if it is in its topic's layout here
	 */
	boolean isWrittenHere(String queue) {
		return this.keys.queues(DelayQueueKeys.topicOf(queue)).contains(queue);
	}

	private static int asInt(Object value) {
		return (int) ScriptRunner.asLong(value);
	}

	/**
	 * What one sweep of a topic did and found.
	 *
	 * @param promoted jobs moved from DELAYED to READY
	 * @param nextDue next due time in DELAYED, or -1
	 * @param requeued expired deliveries put back to READY
	 * @param dead expired deliveries with no attempts left, now DEAD
	 * @param vanished running ids without a record, dropped
	 * @param nextDeadline next time-to-run deadline in RUNNING, or -1
	 * @param redisNow the Redis clock at the sweep, or -1 if the sweep found both sorted
	 * sets empty and did not read it
	 * @param redisMicros microseconds past {@code redisNow}'s millisecond
	 * @param deadIds the ids of the jobs made dead
	 */
	record TopicSweep(int promoted, long nextDue, int requeued, int dead, int vanished, long nextDeadline,
			long redisNow, int redisMicros, List<String> deadIds) {

		TopicSweep(int promoted, long nextDue, int requeued, int dead, int vanished, long nextDeadline, long redisNow,
				int redisMicros) {
			this(promoted, nextDue, requeued, dead, vanished, nextDeadline, redisNow, redisMicros, List.of());
		}

		/**
		 * Return how long after this sweep ran its next event comes due, to the
		 * microsecond: a wake-up rounded to the millisecond would come on average half a
		 * millisecond late.
		 * @return nanoseconds, zero if the event is due
		 */
		long nanosUntilNextEvent() {
			long nanos = TimeUnit.MILLISECONDS.toNanos(nextEvent() - this.redisNow)
					- TimeUnit.MICROSECONDS.toNanos(this.redisMicros);
			return Math.max(0, nanos);
		}

		long nextEvent() {
			if (this.nextDue < 0) {
				return this.nextDeadline;
			}
			return (this.nextDeadline < 0) ? this.nextDue : Math.min(this.nextDue, this.nextDeadline);
		}

	}

}
