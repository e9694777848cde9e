package io.github.delayqueue.internal.store;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The Redis side of consuming jobs: waiting for a ready job, claiming it, and settling
 * each delivery (acknowledge, retry, bury, release). Settling is fenced by the delivery's
 * attempt number, so a settlement for an expired delivery changes nothing. Claims and
 * waits work on queues: a topic's own, or one partition of a partitioned topic (see
 * {@link #queues(java.util.Collection)}); deliveries report their topic.
 *
 * @author delayqueue contributors
 */
public final class JobClaims {

	/**
	 * The most deliveries {@link #ack(String, List)} takes at once: the script passes the
	 * ids to variadic commands, and Lua unpacks a few thousand values at most.
	 */
	public static final int MAX_ACK_BATCH = 1000;

	/**
	 * Most jobs one claim takes from the ready list, whatever count it asks for:
	 * {@code claim.lua} holds to this bound, so that no claim can fail half-way for want
	 * of room in Lua.
	 */
	public static final int MAX_CLAIM_BATCH = 1000;

	private static final String PAUSED = "paused";

	private final ScriptRunner scripts;

	private final DelayQueueKeys keys;

	// Names this instance's claim receipts; each claiming thread keeps its own.
	private final String claimant = Long.toString(new SecureRandom().nextLong() & Long.MAX_VALUE, 36);

	private final AtomicLong claimCalls = new AtomicLong();

	private final PartitionRegistry partitions;

	private volatile JobHistory history = JobHistory.OFF;

	private final TopicLimiter limiter;

	/**
	 * Create the consumer side of the store.
	 * @param scripts runs the scripts
	 * @param keys names the keys
	 */
	public JobClaims(ScriptRunner scripts, DelayQueueKeys keys) {
		this.scripts = scripts;
		this.keys = keys;
		this.partitions = new PartitionRegistry(scripts, keys);
		this.limiter = new TopicLimiter(scripts, keys);
	}

	/**
	 * Return the limits of topics across instances, for claims of topics that have some.
	 * @return the limiter
	 */
	public TopicLimiter limiter() {
		return this.limiter;
	}

	/**
	 * Set what each topic keeps of the jobs its deliveries complete, and which topics
	 * record the timelines of the jobs it moves; nothing unless set.
	 * @param history the topics' history settings
	 */
	public void setJobHistory(JobHistory history) {
		this.history = history;
	}

	/**
	 * Return the queues a topic's jobs are written to now, by this instance's number of
	 * partitions; no call to Redis.
	 * @param topic the topic
	 * @return the queue names, the topic's own first
	 */
	public List<String> writtenQueues(String topic) {
		return this.keys.queues(topic);
	}

	/**
	 * Return every queue of several topics, those written under another number of
	 * partitions included, see {@link PartitionRegistry#queues(java.util.Collection)}.
	 * @param topics the topics
	 * @return the queue names of each topic, the topic's own first
	 */
	public Map<String, List<String>> queues(Collection<String> topics) {
		return this.partitions.queues(topics);
	}

	/**
	 * Open a connection for one consumer's blocking waits. It comes straight from the
	 * application's Lettuce client, outside any connection pool, whenever that client can
	 * open connections by itself; otherwise from the connection factory.
	 * @return the wait; the caller closes it
	 */
	public ReadyWait openReadyWait() {
		RedisConnectionFactory factory = this.scripts.redis().getRequiredConnectionFactory();
		if (factory instanceof LettuceConnectionFactory lettuce && lettuce.getNativeClient() != null) {
			ReadyWait wait = LettuceReadyWait.open(lettuce.getNativeClient(), this.keys, this.scripts.redis());
			if (wait != null) {
				return wait;
			}
		}
		return new SpringReadyWait(factory, this.keys, this.scripts.redis());
	}

	/**
	 * Claim jobs of a queue: the one a consumer moved into the claiming list, if any, and
	 * up to {@code count} more straight from the ready list.
	 * @param queue the queue
	 * @param movedId the id from {@link ReadyWait#awaitReady}, or {@code null}
	 * @param count most jobs to take from the ready list, at most
	 * {@link #MAX_CLAIM_BATCH} of them in one call
	 * @param ttr the topic's time to run, for jobs without their own
	 * @return the claimed jobs; if Redis ran this call twice, because a client resent it
	 * after its reply was lost, the jobs of the first run
	 */
	public Claim claim(String queue, @Nullable String movedId, int count, Duration ttr) {
		return claim(newClaim(queue, movedId, count, ttr));
	}

	/**
	 * Prepare a claim of a queue, see {@link #claim(String, String, int, Duration)}, with
	 * a token of its own. Run it with {@link #claim(ClaimCall)}; should its reply be lost
	 * (a timeout, a dropped connection), run the same call again before the claiming
	 * thread claims anything else from that queue: Redis may have run it, and the same
	 * token then hands over the jobs that run claimed instead of leaving them running,
	 * unseen, until their time to run ends.
	 * @param queue the queue
	 * @param movedId the id from {@link ReadyWait#awaitReady}, or {@code null}
	 * @param count most jobs to take from the ready list
	 * @param ttr the topic's time to run, for jobs without their own
	 * @return the call, not yet sent
	 */
	public ClaimCall newClaim(String queue, @Nullable String movedId, int count, Duration ttr) {
		return newClaim(queue, movedId, count, ttr, List.of());
	}

	/**
	 * Prepare a claim of a queue that passes over some groups' turns, see
	 * {@link #newClaim(String, String, int, Duration)}.
	 * @param queue the queue
	 * @param movedId the id from {@link ReadyWait#awaitReady}, or {@code null}
	 * @param count most jobs to take from the ready list
	 * @param ttr the topic's time to run, for jobs without their own
	 * @param heldGroups the groups whose jobs are not to be taken now, as their own
	 * limits admit none
	 * @return the call, not yet sent
	 */
	public ClaimCall newClaim(String queue, @Nullable String movedId, int count, Duration ttr,
			List<String> heldGroups) {
		return new ClaimCall(queue, movedId, count, ttr, this.claimant + "-" + Thread.currentThread().getId(),
				Long.toString(this.claimCalls.incrementAndGet(), 36), heldGroups);
	}

	/**
	 * Run a claim prepared by {@link #newClaim}, the first time or again after its reply
	 * was lost.
	 * @param call the call
	 * @return the claimed jobs; for a call that Redis ran before, the jobs of that run
	 * that are still its deliveries
	 */
	public Claim claim(ClaimCall call) {
		TopicKeys k = this.keys.topic(call.queue());
		String topic = DelayQueueKeys.topicOf(call.queue());
		List<Object> reply = this.scripts.run(DelayQueueScript.CLAIM,
				List.of(k.ready(), k.claiming(), k.running(), k.jobs(), k.attempts(), k.claimReceipt(call.claimant()),
						k.ghosts(), k.paused()),
				(call.movedId() != null) ? call.movedId() : "", String.valueOf(call.count()),
				String.valueOf(call.ttr().toMillis()), call.token(), this.history.timelineArgument(k),
				String.join(" ", call.heldGroups()));
		long now = ScriptRunner.asLong(reply.get(0));
		// A reply of two elements cannot hold jobs (three elements each): the topic is
		// paused.
		if (reply.size() == 2 && PAUSED.equals(reply.get(1))) {
			return new Claim(now, List.of(), true);
		}
		List<ClaimedJob> jobs = new ArrayList<>((reply.size() - 1) / 3);
		for (int i = 1; i + 2 < reply.size(); i += 3) {
			jobs.add(new ClaimedJob(topic, call.queue(), (String) reply.get(i),
					(int) ScriptRunner.asLong(reply.get(i + 1)), (String) reply.get(i + 2)));
		}
		return new Claim(now, jobs, false);
	}

	/**
	 * Tell whether a queue is paused now, by its pause mark, which claims check too.
	 * @param queue the queue
	 * @return {@code true} if paused
	 */
	public boolean isPaused(String queue) {
		return this.scripts.exists(this.keys.topic(queue).paused());
	}

	/**
	 * Acknowledge deliveries of one queue in one round trip: the jobs are done and
	 * deleted. Each is fenced on its own.
	 * @param queue the queue of every delivery
	 * @param jobs the deliveries, at most {@link #MAX_ACK_BATCH}
	 * @return for each delivery, in order, {@code false} if it had expired (fenced)
	 */
	public boolean[] ack(String queue, List<ClaimedJob> jobs) {
		return ack(queue, jobs, null);
	}

	/**
	 * Acknowledge deliveries of one queue in one round trip, see
	 * {@link #ack(String, List)}. A delivery whose deadline is still ahead is never
	 * fenced, so an acknowledgement that a client sent again after its reply was lost,
	 * and that Redis had run, reports the delivery as acknowledged.
	 * @param queue the queue of every delivery
	 * @param jobs the deliveries, at most {@link #MAX_ACK_BATCH}
	 * @param deadlines each delivery's time-to-run deadline in epoch ms by the Redis
	 * clock (the claim's time plus the job's time to run), or {@code null} if unknown
	 * @return for each delivery, in order, {@code false} if it had expired (fenced)
	 */
	public boolean[] ack(String queue, List<ClaimedJob> jobs, long @Nullable [] deadlines) {
		if (jobs.size() > MAX_ACK_BATCH) {
			throw new IllegalArgumentException(
					"At most " + MAX_ACK_BATCH + " deliveries are acknowledged at once, not " + jobs.size());
		}
		TopicKeys k = this.keys.topic(queue);
		String[] args = new String[4 + jobs.size() * 3];
		args[0] = this.keys.wakeChannel();
		args[1] = queue;
		args[2] = this.history.finishedArgument(DelayQueueKeys.topicOf(queue));
		args[3] = this.history.timelineArgument(k);
		int i = 4;
		for (int j = 0; j < jobs.size(); j++) {
			ClaimedJob job = jobs.get(j);
			if (!job.queue().equals(queue)) {
				throw new IllegalArgumentException(
						"Delivery of job '" + job.id() + "' is of queue '" + job.queue() + "', not '" + queue + "'");
			}
			args[i++] = job.id();
			args[i++] = String.valueOf(job.attempt());
			args[i++] = (deadlines != null) ? String.valueOf(deadlines[j]) : "-1";
		}
		List<String> keys = new ArrayList<>(
				List.of(k.running(), k.jobs(), k.attempts(), k.errors(), k.delayed(), k.ready(), k.successors()));
		keys.addAll(k.keptKeys());
		List<Object> reply = this.scripts.run(DelayQueueScript.ACK, keys, args);
		boolean[] acknowledged = new boolean[jobs.size()];
		for (int j = 0; j < acknowledged.length; j++) {
			acknowledged[j] = ScriptRunner.asLong(reply.get(j)) == 1;
		}
		return acknowledged;
	}

	/**
	 * Schedule another attempt after a failed delivery.
	 * @param job the delivery
	 * @param delay the wait before the next attempt
	 * @param error the failure, kept as the last error
	 * @return the new due time in epoch ms, or -1 if the delivery had expired (fenced)
	 */
	public long retry(ClaimedJob job, Duration delay, String error) {
		return retry(job, delay, error, -1);
	}

	/**
	 * Schedule another attempt after a failed delivery, see
	 * {@link #retry(ClaimedJob, Duration, String)}; a retry that a client sent again
	 * after its reply was lost, and that Redis had run, reports the due time of that run.
	 * @param job the delivery
	 * @param delay the wait before the next attempt
	 * @param error the failure, kept as the last error
	 * @param deadline the delivery's time-to-run deadline in epoch ms by the Redis clock,
	 * or -1 if unknown
	 * @return the new due time in epoch ms, or -1 if the delivery had expired (fenced)
	 */
	public long retry(ClaimedJob job, Duration delay, String error, long deadline) {
		return retry(job, delay, error, deadline, false);
	}

	/**
	 * Have a delivery's job run again after a wait, its attempt given back: it was
	 * refused for a while (a partner's rate limit), it did not fail. Fenced and safe to
	 * send again as {@link #retry(ClaimedJob, Duration, String, long)} is.
	 * @param job the delivery
	 * @param wait the wait before the job runs again
	 * @param reason why, kept as the last error
	 * @param deadline the delivery's time-to-run deadline in epoch ms by the Redis clock,
	 * or -1 if unknown
	 * @return the new due time in epoch ms, or -1 if the delivery had expired (fenced)
	 */
	public long postpone(ClaimedJob job, Duration wait, String reason, long deadline) {
		return retry(job, wait, reason, deadline, true);
	}

	private long retry(ClaimedJob job, Duration delay, String error, long deadline, boolean uncounted) {
		TopicKeys k = this.keys.topic(job.queue());
		List<Object> reply = this.scripts.run(DelayQueueScript.RETRY,
				List.of(k.running(), k.delayed(), k.ready(), k.jobs(), k.attempts(), k.errors(), k.successors()),
				job.id(), String.valueOf(job.attempt()), String.valueOf(delay.toMillis()), error,
				this.keys.wakeChannel(), job.queue(), String.valueOf(deadline), uncounted ? "1" : "0",
				this.history.timelineArgument(k));
		return (ScriptRunner.asLong(reply.get(0)) == 1) ? ScriptRunner.asLong(reply.get(1)) : -1;
	}

	/**
	 * Make a delivery's job dead.
	 * @param job the delivery
	 * @param error why, kept as the last error
	 * @return {@code false} if the delivery had expired (fenced)
	 */
	public boolean bury(ClaimedJob job, String error) {
		return bury(job, error, -1);
	}

	/**
	 * Make a delivery's job dead, see {@link #bury(ClaimedJob, String)}; a burial that a
	 * client sent again after its reply was lost, and that Redis had run, reports the job
	 * buried. A job replaced while it ran does not die: its new version takes its place.
	 * @param job the delivery
	 * @param error why, kept as the last error
	 * @param deadline the delivery's time-to-run deadline in epoch ms by the Redis clock,
	 * or -1 if unknown
	 * @return {@code false} if the delivery had expired (fenced), or a new version of the
	 * job took its place
	 */
	public boolean bury(ClaimedJob job, String error, long deadline) {
		TopicKeys k = this.keys.topic(job.queue());
		return ScriptRunner.asLong(
				this.scripts
					.run(DelayQueueScript.BURY,
							List.of(k.running(), k.dead(), k.attempts(), k.errors(), k.jobs(), k.delayed(), k.ready(),
									k.successors()),
							job.id(), String.valueOf(job.attempt()), error, String.valueOf(deadline),
							this.keys.wakeChannel(), job.queue(), this.history.timelineArgument(k))
					.get(0)) == 1;
	}

	/**
	 * Extend a delivery's time to run to {@code ttr} from now by the Redis clock; never
	 * shortens it. Fenced like the acknowledgement, and refused once the deadline passed.
	 * @param job the delivery
	 * @param ttr how long from now it may still run
	 * @return the delivery's deadline in epoch ms by the Redis clock after the call, or
	 * -1 if refused
	 */
	public long extendTtr(ClaimedJob job, Duration ttr) {
		TopicKeys k = this.keys.topic(job.queue());
		return ScriptRunner.asLong(
				this.scripts
					.run(DelayQueueScript.EXTEND_TTR, List.of(k.running(), k.attempts()), job.id(),
							String.valueOf(job.attempt()), String.valueOf(ttr.toMillis()))
					.get(0));
	}

	/**
	 * Hand a claimed but unstarted delivery back to the front of the ready list,
	 * uncounted.
	 * @param job the delivery
	 * @return {@code false} if the delivery had expired (fenced)
	 */
	public boolean release(ClaimedJob job) {
		TopicKeys k = this.keys.topic(job.queue());
		return ScriptRunner.asLong(
				this.scripts
					.run(DelayQueueScript.RELEASE,
							List.of(k.running(), k.ready(), k.attempts(), k.jobs(), k.delayed(), k.errors(),
									k.successors()),
							job.id(), String.valueOf(job.attempt()), this.keys.wakeChannel(), job.queue(),
							this.history.timelineArgument(k))
					.get(0)) == 1;
	}

	/**
	 * Hand ids that were moved into the claiming list, but will not be claimed, back to
	 * the front of the ready list.
	 * @param queue the queue
	 * @param ids the ids
	 * @return how many were handed back
	 */
	public long unclaim(String queue, List<String> ids) {
		TopicKeys k = this.keys.topic(queue);
		long requeued = 0;
		// Each id costs the script a search of the claiming list: bounded slices
		// keep every call short.
		for (int from = 0; from < ids.size(); from += MAX_ACK_BATCH) {
			List<String> slice = ids.subList(from, Math.min(from + MAX_ACK_BATCH, ids.size()));
			requeued += ScriptRunner.asLong(this.scripts
				.run(DelayQueueScript.REQUEUE_ORPHANS, List.of(k.claiming(), k.ready()), slice.toArray(String[]::new))
				.get(0));
		}
		return requeued;
	}

	/**
	 * One claim call, with the token that lets it be run again safely.
	 *
	 * @param queue the queue
	 * @param movedId the id a consumer moved into the claiming list, or {@code null}
	 * @param count most jobs to take from the ready list
	 * @param ttr the topic's time to run, for jobs without their own
	 * @param claimant names the receipt the call leaves in Redis: one per claiming thread
	 * @param token the call's token, unique to its claimant
	 * @param heldGroups the groups whose turns the call passes over
	 */
	public record ClaimCall(String queue, @Nullable String movedId, int count, Duration ttr, String claimant,
			String token, List<String> heldGroups) {

	}

	/**
	 * The outcome of a claim.
	 *
	 * @param redisNow the Redis clock when the jobs were claimed, in epoch ms
	 * @param jobs the claimed jobs; an attempt of -1 marks an id whose record vanished
	 * @param paused whether the topic is paused, in which case nothing was claimed and a
	 * moved id went back to the ready list
	 */
	public record Claim(long redisNow, List<ClaimedJob> jobs, boolean paused) {

	}

	/**
	 * One delivery of a job.
	 *
	 * @param topic the topic
	 * @param queue the queue it was claimed from: the topic, or a partition of it
	 * @param id the job id
	 * @param attempt the delivery's number, its fencing token
	 * @param record the stored record
	 */
	public record ClaimedJob(String topic, String queue, String id, int attempt, String record) {

	}

}
