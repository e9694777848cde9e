package io.github.delayqueue.internal.store;

import java.util.List;

/**
 * The Redis keys of one topic. They share one hash tag, {@code {prefix:topic}}, so that
 * every script of a topic runs in a single Redis Cluster slot.
 *
 * @param topic the topic
 * @param jobs hash of job id to job record
 * @param delayed sorted set of job id to due time (ms)
 * @param ready list of due job ids, consumed from its right end
 * @param claiming list of ids a consumer moved out of {@code ready} and is about to claim
 * @param running sorted set of job id to time-to-run deadline (ms)
 * @param dead sorted set of job id to time of death (ms)
 * @param attempts hash of job id to deliveries made
 * @param errors hash of job id to last error
 * @author delayqueue contributors
 */
public record TopicKeys(String topic, String jobs, String delayed, String ready, String claiming, String running,
		String dead, String attempts, String errors) {

	/**
	 * Create the keys of a topic.
	 * @param prefix the key prefix
	 * @param topic the topic
	 * @return the keys
	 */
	public static TopicKeys of(String prefix, String topic) {
		String base = "{" + prefix + ":" + topic + "}:";
		return new TopicKeys(topic, base + "jobs", base + "delayed", base + "ready", base + "claiming",
				base + "running", base + "dead", base + "attempts", base + "errors");
	}

	/**
	 * The hash counting ghosts: entries of the ready and claiming lists left behind by a
	 * cancelled or rescheduled READY job, which the claim script drops instead of
	 * delivering. Field id holds that id's ghost entries, the empty field (no job id is
	 * empty) their total; the hash exists only while a ghost is left.
	 * @return the key, in the topic's hash tag
	 */
	public String ghosts() {
		return base() + "ghosts";
	}

	/**
	 * The hash of the jobs that replace RUNNING ones: a send with
	 * {@code IfPending.REPLACE} that finds its job running stores the new version here,
	 * as a full record, and it takes the job's place when that delivery ends, however it
	 * ends. Field id, value the record.
	 * @return the key, in the topic's hash tag
	 */
	public String successors() {
		return base() + "successors";
	}

	/**
	 * The hash of finished jobs kept for the topic's completed retention: field id, value
	 * {@code outcome|finished ms in base 36|attempts|instance|record}, outcome {@code C}
	 * (completed) or {@code X} (cancelled). Exists only while retention keeps a job.
	 * @return the key, in the topic's hash tag
	 */
	public String finished() {
		return base() + "finished";
	}

	/**
	 * The list of the completed jobs kept, in the order they completed: one element per
	 * call that kept jobs, holding the time they completed (ms) and their ids.
	 * @return the key, in the topic's hash tag
	 */
	public String completed() {
		return base() + "finished:completed";
	}

	/**
	 * The list of the cancelled jobs kept, like {@link #completed()}.
	 * @return the key, in the topic's hash tag
	 */
	public String cancelled() {
		return base() + "finished:cancelled";
	}

	/**
	 * The hash counting the finished jobs kept of each outcome, fields {@code C} and
	 * {@code X} as in {@link #finished()}.
	 * @return the key, in the topic's hash tag
	 */
	public String finishedCounts() {
		return base() + "finished:counts";
	}

	/**
	 * The hash of the ids kept with an end that replaced an earlier kept end of the same
	 * id: field id, value the time of the later end (ms), so that dropping the earlier
	 * one leaves it.
	 * @return the key, in the topic's hash tag
	 */
	public String finishedAgain() {
		return base() + "finished:again";
	}

	/**
	 * The keys of the kept finished jobs, in the order the scripts that keep them take
	 * them.
	 * @return finished, completed, cancelled, counts and again
	 */
	public List<String> keptKeys() {
		return List.of(finished(), completed(), cancelled(), finishedCounts(), finishedAgain());
	}

	/**
	 * The start of the name of each job's timeline, a list of the steps the job may
	 * outlive the step log with, kept while the topic's {@code timeline} is on (see
	 * {@link JobHistoryPolicy}): the scripts append the job id to it, and
	 * {@code /log:<slot start ms>} for the step log's slots, which no job id can name (an
	 * id holds no {@code /}).
	 * @return the prefix, in the topic's hash tag
	 */
	public String timelinePrefix() {
		return base() + "timeline:";
	}

	/**
	 * The list of one job's timeline, see {@link #timelinePrefix()}.
	 * @param id the job id
	 * @return the key, in the topic's hash tag
	 */
	public String timeline(String id) {
		return timelinePrefix() + id;
	}

	/**
	 * The index of the queue's step log: a sorted set of the start times of its slots,
	 * see {@link #timelinePrefix()}.
	 * @return the key, in the topic's hash tag
	 */
	public String timelineLogSlots() {
		return timelinePrefix() + "/log-slots";
	}

	/**
	 * Return the key whose presence marks the topic as paused: listeners claim none of
	 * its jobs while it exists.
	 * @return the key, in the topic's hash tag
	 */
	public String paused() {
		return base() + "paused";
	}

	/**
	 * Return the key whose presence marks a partition as retired: drained and out of its
	 * topic's partition set, see {@link PartitionRegistry#retireDrained(String)}. Sends
	 * to it put it back first.
	 * @return the key, in the partition's hash tag
	 */
	public String retired() {
		return base() + "retired";
	}

	/**
	 * Return the key whose presence, for a short while after a sender put a retired
	 * partition back, keeps it from being retired again before the sender's job is in.
	 * @return the key, in the partition's hash tag
	 */
	public String revived() {
		return base() + "revived";
	}

	/**
	 * The key of one claiming thread's receipt of its last claim, a string that lives as
	 * long as the claim's deliveries.
	 * @param claimant names the claiming thread
	 * @return the key, in the topic's hash tag
	 */
	public String claimReceipt(String claimant) {
		return base() + "claim-receipt:" + claimant;
	}

	/**
	 * Return the counts of a topic's recent handler starts under its rate limit: a list
	 * of one entry per time bucket that had a start, each its first millisecond by the
	 * Redis clock and a running total of starts (see {@code acquire-permits.lua}). One
	 * per topic, under the keys of its first queue.
	 * @return the key, in the topic's hash tag
	 */
	public String startCounts() {
		return base() + "start-counts";
	}

	/**
	 * Return a topic's global concurrency permits: a sorted set of one member per
	 * delivery that holds one, scored by the delivery's time-to-run deadline in epoch ms
	 * by the Redis clock, after which the permit is free again. One per topic, under the
	 * keys of its first queue.
	 * @return the key, in the topic's hash tag
	 */
	public String permits() {
		return base() + "permits";
	}

	/**
	 * Return the line of listeners that a topic's global concurrency refused, waiting for
	 * their turn at a permit: a sorted set of listener names scored by when each joined,
	 * in epoch ms by the Redis clock (see {@code acquire-permits.lua}). One per topic,
	 * under the keys of its first queue.
	 * @return the key, in the topic's hash tag
	 */
	public String permitTurns() {
		return base() + "permit-turns";
	}

	/**
	 * Return when each listener in a topic's line for permits last asked for one, see
	 * {@link #permitTurns()}: a listener that stopped asking leaves the line.
	 * @return the key, in the topic's hash tag
	 */
	public String permitTurnsSeen() {
		return base() + "permit-turns-seen";
	}

	/**
	 * Return the key whose presence holds a whole topic back for a while (a partner asked
	 * to wait): no delivery of it is admitted until the key expires. One per topic, under
	 * the keys of its first queue.
	 * @return the key, in the topic's hash tag
	 */
	public String held() {
		return base() + "held";
	}

	// The hash tag and separator every key of the topic starts with.
	private String base() {
		return this.jobs.substring(0, this.jobs.length() - "jobs".length());
	}

}
