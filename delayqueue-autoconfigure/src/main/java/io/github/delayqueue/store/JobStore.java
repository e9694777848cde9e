package io.github.delayqueue.store;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

import io.github.delayqueue.core.JobInfo;
import io.github.delayqueue.core.JobState;
import io.github.delayqueue.core.TopicStats;
import org.jspecify.annotations.Nullable;

/**
 * The Redis side of sending and managing jobs: each method is one script call (or one
 * pipelined round trip of them), so each change is atomic per topic, or per partition of
 * a partitioned topic. Methods take topics and report topics: a job by id is looked for
 * in the partition its id maps to, then in the topic's other queues; counts and bulk
 * operations cover every queue of the topic.
 *
 * @author delayqueue contributors
 */
public final class JobStore {

	/**
	 * Most jobs one script call reads or changes for a management operation.
	 */
	private static final int MANAGEMENT_BATCH = 500;

	/**
	 * Most dead jobs one script call reads; {@link #deadJobs} pages past it.
	 */
	public static final int MAX_READ_PAGE = 1000;

	private final ScriptRunner scripts;

	private final DelayQueueKeys keys;

	private final JobRecordCodec codec;

	private final byte[] wakeChannel;

	private final PartitionRegistry partitions;

	private final Map<String, EnqueueTarget> enqueueTargets = new ConcurrentHashMap<>();

	/**
	 * Create a store.
	 * @param scripts runs the scripts
	 * @param keys names the keys
	 * @param codec decodes stored records
	 */
	public JobStore(ScriptRunner scripts, DelayQueueKeys keys, JobRecordCodec codec) {
		this.scripts = scripts;
		this.keys = keys;
		this.codec = codec;
		this.wakeChannel = bytes(keys.wakeChannel());
		this.partitions = new PartitionRegistry(scripts, keys);
	}

	/**
	 * Enqueue one job with one script call.
	 * @param topic the topic
	 * @param job the job
	 * @return the outcome
	 */
	public EnqueueOutcome enqueue(String topic, EncodedJob job) {
		String queue = this.keys.queueOf(topic, job.id());
		EnqueueTarget target = this.enqueueTargets.get(queue);
		if (target == null) {
			target = this.enqueueTargets.computeIfAbsent(queue, this::enqueueTarget);
		}
		byte[][] args = { this.wakeChannel, target.topic(), bytes(job.id()), bytes(job.due()), bytes(job.tail()) };
		return outcome(this.scripts.run(DelayQueueScript.ENQUEUE, target.keys(), args));
	}

	// A single send's keys, encoded once per queue rather than on every call. The wake-up
	// names the queue, so that schedulers sweep only the partition that changed.
	private EnqueueTarget enqueueTarget(String queue) {
		TopicKeys k = this.keys.topic(queue);
		return new EnqueueTarget(new byte[][] { bytes(k.jobs()), bytes(k.delayed()), bytes(k.ready()), bytes(k.dead()),
				bytes(k.attempts()), bytes(k.errors()) }, bytes(queue));
	}

	/**
	 * Enqueue several groups of jobs, one script call per group (per partition of a
	 * partitioned topic), all in one round trip.
	 * @param groups the groups, each of one topic
	 * @return each group's outcome, in order
	 */
	public List<EnqueueOutcome> enqueue(List<EnqueueGroup> groups) {
		List<ScriptRunner.Call> calls = new ArrayList<>(groups.size());
		List<Integer> groupOfCall = new ArrayList<>(groups.size());
		for (int g = 0; g < groups.size(); g++) {
			for (Map.Entry<String, List<EncodedJob>> slice : byQueue(groups.get(g)).entrySet()) {
				calls.add(enqueueCall(slice.getKey(), slice.getValue()));
				groupOfCall.add(g);
			}
		}
		List<List<Object>> replies = (calls.size() == 1) ? List.of(this.scripts.run(DelayQueueScript.ENQUEUE,
				calls.get(0).keys(), calls.get(0).args().toArray(String[]::new))) : this.scripts.runPipelined(calls);
		List<List<String>> duplicates = new ArrayList<>(groups.size());
		long[] earliest = new long[groups.size()];
		for (int g = 0; g < groups.size(); g++) {
			duplicates.add(new ArrayList<>());
			earliest[g] = -1;
		}
		for (int i = 0; i < replies.size(); i++) {
			int g = groupOfCall.get(i);
			EnqueueOutcome outcome = outcome(replies.get(i));
			duplicates.get(g).addAll(outcome.duplicates());
			long due = outcome.earliestDelayedDue();
			if (due >= 0 && (earliest[g] < 0 || due < earliest[g])) {
				earliest[g] = due;
			}
		}
		List<EnqueueOutcome> outcomes = new ArrayList<>(groups.size());
		for (int g = 0; g < groups.size(); g++) {
			outcomes.add(new EnqueueOutcome(duplicates.get(g), earliest[g]));
		}
		return outcomes;
	}

	private Map<String, List<EncodedJob>> byQueue(EnqueueGroup group) {
		if (!this.keys.isPartitioned(group.topic())) {
			return Map.of(group.topic(), group.jobs());
		}
		Map<String, List<EncodedJob>> slices = new LinkedHashMap<>();
		for (EncodedJob job : group.jobs()) {
			slices.computeIfAbsent(this.keys.queueOf(group.topic(), job.id()), (queue) -> new ArrayList<>()).add(job);
		}
		return slices;
	}

	private ScriptRunner.Call enqueueCall(String queue, List<EncodedJob> jobs) {
		TopicKeys k = this.keys.topic(queue);
		List<String> args = new ArrayList<>(2 + jobs.size() * 3);
		args.add(this.keys.wakeChannel());
		args.add(queue);
		for (EncodedJob job : jobs) {
			args.add(job.id());
			args.add(job.due());
			args.add(job.tail());
		}
		return new ScriptRunner.Call(DelayQueueScript.ENQUEUE,
				List.of(k.jobs(), k.delayed(), k.ready(), k.dead(), k.attempts(), k.errors()), args);
	}

	private static EnqueueOutcome outcome(List<Object> reply) {
		List<String> duplicates = (reply.size() == 1) ? List.of()
				: reply.subList(1, reply.size()).stream().map(String::valueOf).toList();
		return new EnqueueOutcome(duplicates, ScriptRunner.asLong(reply.get(0)));
	}

	/**
	 * Remember a topic in the set of all topics, and the queues its partitions are
	 * written to in its partition set; before the first write to a queue, so that
	 * consumers and schedulers find it. A queue recorded now of a paused topic is paused
	 * too.
	 * @param topic the topic
	 */
	public void registerTopic(String topic) {
		this.scripts.addToSet(this.keys.topicSet(), topic);
		if (this.partitions.register(topic) > 0 && isPaused(topic)) {
			setPaused(topic, true);
		}
	}

	/**
	 * Return every queue of a topic, see {@link PartitionRegistry#queues(String)}.
	 * @param topic the topic
	 * @return the queue names, the topic's own first
	 */
	public List<String> queues(String topic) {
		return this.partitions.queues(topic);
	}

	/**
	 * Pause or resume a topic, every queue of it: while paused, claims take none of its
	 * jobs.
	 * @param topic the topic
	 * @param paused {@code true} to pause, {@code false} to resume
	 */
	public void setPaused(String topic, boolean paused) {
		for (String queue : this.partitions.queues(topic)) {
			String key = this.keys.topic(queue).paused();
			if (paused) {
				this.scripts.set(key, "1");
			}
			else {
				this.scripts.delete(key);
			}
		}
	}

	/**
	 * Tell whether a topic is paused, by its first queue, which every pause and resume
	 * changes.
	 * @param topic the topic
	 * @return {@code true} if paused
	 */
	public boolean isPaused(String topic) {
		return this.scripts.exists(this.keys.topic(topic).paused());
	}

	/**
	 * Return every topic remembered.
	 * @return the topics, sorted
	 */
	public Set<String> topics() {
		return new TreeSet<>(this.scripts.members(this.keys.topicSet()));
	}

	/**
	 * Remove a delayed or ready job.
	 * @param topic the topic
	 * @param id the job id
	 * @return whether it was removed
	 */
	public boolean cancel(String topic, String id) {
		return byId(topic, id, (queue) -> {
			TopicKeys k = this.keys.topic(queue);
			return ScriptRunner.asLong(
					this.scripts
						.run(DelayQueueScript.CANCEL,
								List.of(k.jobs(), k.delayed(), k.running(), k.dead(), k.attempts(), k.errors(),
										k.ghosts()),
								id)
						.get(0)) == 1;
		}, Boolean::booleanValue);
	}

	/**
	 * Apply an operation by id to the queue the id maps to, and should it not find the
	 * job there, to the topic's other queues: a job sent before a change of the number of
	 * partitions may sit in another.
	 */
	private <T> T byId(String topic, String id, Function<String, T> inQueue, Predicate<T> found) {
		String home = this.keys.queueOf(topic, id);
		T result = inQueue.apply(home);
		if (found.test(result)) {
			return result;
		}
		for (String queue : this.partitions.queues(topic)) {
			if (!queue.equals(home)) {
				T other = inQueue.apply(queue);
				if (found.test(other)) {
					return other;
				}
			}
		}
		return result;
	}

	/**
	 * Give a delayed or ready job a new due time.
	 * @param topic the topic
	 * @param id the job id
	 * @param delay the delay from now
	 * @return the new due time in epoch ms, or -1 if the job was not delayed or ready
	 */
	public long reschedule(String topic, String id, Duration delay) {
		return byId(topic, id, (queue) -> {
			TopicKeys k = this.keys.topic(queue);
			List<Object> reply = this.scripts.run(DelayQueueScript.RESCHEDULE,
					List.of(k.jobs(), k.delayed(), k.ready(), k.running(), k.dead(), k.ghosts()), id,
					String.valueOf(delay.toMillis()), this.keys.wakeChannel(), queue);
			return (ScriptRunner.asLong(reply.get(0)) == 1) ? ScriptRunner.asLong(reply.get(1)) : -1L;
		}, (due) -> due >= 0);
	}

	/**
	 * Look a job up.
	 * @param topic the topic
	 * @param id the job id
	 * @return the job, or empty when gone
	 */
	public Optional<JobInfo> find(String topic, String id) {
		return byId(topic, id, (queue) -> {
			TopicKeys k = this.keys.topic(queue);
			List<Object> reply = this.scripts.run(DelayQueueScript.FIND,
					List.of(k.jobs(), k.delayed(), k.running(), k.dead(), k.attempts(), k.errors()), id);
			if (reply.isEmpty()) {
				return Optional.<JobInfo>empty();
			}
			return Optional.of(info(topic, id, (String) reply.get(0), JobState.valueOf((String) reply.get(1)),
					(int) ScriptRunner.asLong(reply.get(2)), (String) reply.get(3)));
		}, Optional::isPresent);
	}

	/**
	 * Count a topic's jobs per state.
	 * @param topic the topic
	 * @return the counts
	 */
	public TopicStats stats(String topic) {
		return state(topic).stats();
	}

	/**
	 * Count a topic's jobs per state and tell whether it is paused, in one consistent
	 * read per queue, summed over the topic's queues.
	 * @param topic the topic
	 * @return the counts and the pause
	 */
	public TopicState state(String topic) {
		return sum(topic, countStates(this.partitions.queues(topic)));
	}

	/**
	 * Count several topics' jobs per state and tell whether each is paused, as
	 * {@link #state(String)} does for one, with one consistent read per queue, all in one
	 * round trip (plus the reads that find the queues of partitioned topics).
	 * @param topics the topics
	 * @return the counts and the pause of each topic, in the order of the topics given
	 */
	public Map<String, TopicState> states(Collection<String> topics) {
		if (topics.isEmpty()) {
			return Map.of();
		}
		Map<String, List<String>> queues = this.partitions.queues(topics);
		List<List<Object>> replies = countStates(queues.values().stream().flatMap(List::stream).toList());
		Map<String, TopicState> states = new LinkedHashMap<>();
		int next = 0;
		for (Map.Entry<String, List<String>> topic : queues.entrySet()) {
			int count = topic.getValue().size();
			states.put(topic.getKey(), sum(topic.getKey(), replies.subList(next, next + count)));
			next += count;
		}
		return states;
	}

	// The counts of a topic's queues added up; the first queue tells the pause.
	private static TopicState sum(String topic, List<List<Object>> replies) {
		long[] counts = new long[4];
		for (List<Object> reply : replies) {
			for (int i = 0; i < counts.length; i++) {
				counts[i] += ScriptRunner.asLong(reply.get(i));
			}
		}
		return new TopicState(new TopicStats(topic, counts[0], counts[1], counts[2], counts[3]),
				ScriptRunner.asLong(replies.get(0).get(4)) == 1);
	}

	// One count per queue, in one round trip: {delayed, ready, running, dead, paused}.
	private List<List<Object>> countStates(List<String> queues) {
		List<ScriptRunner.Call> calls = new ArrayList<>(queues.size());
		for (String queue : queues) {
			TopicKeys k = this.keys.topic(queue);
			calls.add(new ScriptRunner.Call(DelayQueueScript.COUNT_STATES,
					List.of(k.delayed(), k.ready(), k.claiming(), k.running(), k.dead(), k.ghosts(), k.paused()),
					List.of()));
		}
		if (calls.size() == 1) {
			return List.of(this.scripts.run(DelayQueueScript.COUNT_STATES, calls.get(0).keys()));
		}
		return this.scripts.runPipelined(calls);
	}

	/**
	 * Read a page of dead jobs, at most {@link #MAX_READ_PAGE} per script call: a larger
	 * page is read in several calls, so that no call holds Redis for long, and is then
	 * not one atomic snapshot.
	 * @param topic the topic
	 * @param offset how many to skip
	 * @param count how many at most
	 * @return the jobs
	 */
	public List<JobInfo> deadJobs(String topic, int offset, int count) {
		return jobs(topic, JobState.DEAD, offset, count);
	}

	/**
	 * Read a page of a topic's jobs in one state, oldest first (by due time, time-to-run
	 * deadline or time of death; READY jobs in the order they will be claimed), at most
	 * {@link #MAX_READ_PAGE} per script call. Each call costs Redis O(log N + page) for
	 * DELAYED, RUNNING and DEAD, and O(offset + page) for READY. A partitioned topic's
	 * pages run through its queues one after the other, each skipped whole while the
	 * offset covers its count in the state.
	 * @param topic the topic
	 * @param state the state
	 * @param offset how many to skip
	 * @param count how many at most
	 * @return the jobs
	 */
	public List<JobInfo> jobs(String topic, JobState state, int offset, int count) {
		List<String> queues = this.partitions.queues(topic);
		if (queues.size() == 1) {
			return jobsOf(topic, topic, state, offset, count);
		}
		// The pages of a partitioned topic run through its queues one after the other.
		List<List<Object>> counts = countStates(queues);
		int stateIndex = switch (state) {
			case DELAYED -> 0;
			case READY -> 1;
			case RUNNING -> 2;
			case DEAD -> 3;
		};
		List<JobInfo> jobs = new ArrayList<>(Math.min(count, MAX_READ_PAGE));
		long skip = offset;
		for (int i = 0; i < queues.size() && jobs.size() < count; i++) {
			long size = ScriptRunner.asLong(counts.get(i).get(stateIndex));
			if (skip >= size) {
				skip -= size;
				continue;
			}
			jobs.addAll(jobsOf(topic, queues.get(i), state, (int) skip, count - jobs.size()));
			skip = 0;
		}
		return jobs;
	}

	private List<JobInfo> jobsOf(String topic, String queue, JobState state, int offset, int count) {
		TopicKeys k = this.keys.topic(queue);
		String source = switch (state) {
			case DELAYED -> k.delayed();
			case READY -> k.ready();
			case RUNNING -> k.running();
			case DEAD -> k.dead();
		};
		List<String> scriptKeys = List.of(source, k.jobs(), k.attempts(), k.errors(), k.delayed(), k.running(),
				k.dead());
		String kind = (state == JobState.READY) ? "list" : "zset";
		List<JobInfo> jobs = new ArrayList<>(Math.min(count, MAX_READ_PAGE));
		long next = offset;
		int left = count;
		while (left > 0) {
			int wanted = Math.min(left, MAX_READ_PAGE);
			List<Object> reply = this.scripts.run(DelayQueueScript.READ_PAGE, scriptKeys, kind, String.valueOf(next),
					String.valueOf(wanted));
			for (int i = 0; i + 4 < reply.size(); i += 5) {
				jobs.add(info(topic, (String) reply.get(i), (String) reply.get(i + 1), state,
						(int) ScriptRunner.asLong(reply.get(i + 2)), (String) reply.get(i + 3)));
			}
			// READY pages drop ghost entries, so a short page does not mean the end.
			if (reply.isEmpty() || (state != JobState.READY && reply.size() / 5 < wanted)) {
				break;
			}
			next += wanted;
			left -= reply.size() / 5;
		}
		return jobs;
	}

	/**
	 * Requeue one dead job, or all of them.
	 * @param topic the topic
	 * @param id the job id, or {@code null} for all
	 * @return how many were requeued
	 */
	public long requeueDead(String topic, @Nullable String id) {
		if (id != null) {
			return byId(topic, id, (queue) -> requeueDeadIn(queue, id), (requeued) -> requeued > 0);
		}
		return sumOverQueues(topic, (queue) -> requeueDeadIn(queue, null));
	}

	private long sumOverQueues(String topic, ToLongFunction<String> perQueue) {
		long total = 0;
		for (String queue : this.partitions.queues(topic)) {
			total += perQueue.applyAsLong(queue);
		}
		return total;
	}

	private long requeueDeadIn(String queue, @Nullable String id) {
		TopicKeys k = this.keys.topic(queue);
		List<String> scriptKeys = List.of(k.dead(), k.ready(), k.jobs(), k.attempts());
		String batch = String.valueOf(MANAGEMENT_BATCH);
		if (id != null) {
			return ScriptRunner.asLong(this.scripts.run(DelayQueueScript.REQUEUE_DEAD, scriptKeys, id, batch).get(0));
		}
		long total = 0;
		long moved;
		do {
			moved = ScriptRunner.asLong(this.scripts.run(DelayQueueScript.REQUEUE_DEAD, scriptKeys, "", batch).get(0));
			total += moved;
		}
		while (moved == MANAGEMENT_BATCH);
		return total;
	}

	/**
	 * Purge dead jobs that died at least a given time ago, in bounded batches.
	 * @param topic the topic
	 * @param olderThan the age, or {@code null} for all dead jobs
	 * @return how many were purged
	 */
	public long purgeDead(String topic, @Nullable Duration olderThan) {
		return sumOverQueues(topic, (queue) -> purgeDeadIn(queue, olderThan));
	}

	private long purgeDeadIn(String queue, @Nullable Duration olderThan) {
		TopicKeys k = this.keys.topic(queue);
		List<String> scriptKeys = List.of(k.dead(), k.jobs(), k.attempts(), k.errors());
		String cutoff = (olderThan != null) ? String.valueOf(olderThan.toMillis()) : "+inf";
		long total = 0;
		long purged;
		do {
			purged = ScriptRunner.asLong(
					this.scripts.run(DelayQueueScript.PURGE_DEAD, scriptKeys, cutoff, String.valueOf(MANAGEMENT_BATCH))
						.get(0));
			total += purged;
		}
		while (purged == MANAGEMENT_BATCH);
		return total;
	}

	/**
	 * Purge one dead job, whenever it died.
	 * @param topic the topic
	 * @param id the job id
	 * @return whether the job was dead and is now gone
	 */
	public boolean purgeDeadJob(String topic, String id) {
		return byId(topic, id, (queue) -> {
			TopicKeys k = this.keys.topic(queue);
			return ScriptRunner.asLong(
					this.scripts
						.run(DelayQueueScript.PURGE_DEAD, List.of(k.dead(), k.jobs(), k.attempts(), k.errors()), "+inf",
								"1", id)
						.get(0)) == 1;
		}, Boolean::booleanValue);
	}

	private JobInfo info(String topic, String id, String record, JobState state, int attempts, String error) {
		String lastError = error.isEmpty() ? null : error;
		if (record.isEmpty()) {
			return new JobInfo(id, topic, state, attempts, Instant.EPOCH, Instant.EPOCH,
					(lastError != null) ? lastError : "Job record vanished", Map.of(), "");
		}
		try {
			JobRecord decoded = this.codec.decode(record);
			return new JobInfo(id, topic, state, attempts, decoded.dueAt(), decoded.createdAt(), lastError,
					decoded.headers(), decoded.payloadJson());
		}
		catch (IllegalArgumentException ex) {
			return new JobInfo(id, topic, state, attempts, Instant.EPOCH, Instant.EPOCH, ex.getMessage(), Map.of(),
					record);
		}
	}

	private static byte[] bytes(String value) {
		return value.getBytes(StandardCharsets.UTF_8);
	}

	private record EnqueueTarget(byte[][] keys, byte[] topic) {

	}

	/**
	 * Jobs of one topic to enqueue in one script call.
	 *
	 * @param topic the topic
	 * @param jobs the jobs
	 */
	public record EnqueueGroup(String topic, List<EncodedJob> jobs) {

	}

	/**
	 * A job ready to be written.
	 *
	 * @param id the id
	 * @param due {@code d<ms>} for a delay or {@code a<ms>} for an epoch time; {@code D}
	 * and {@code A} when the sender generated the id, so that a call resent after a
	 * reconnect is recognised as already written instead of refused as a duplicate
	 * @param tail the record's tail from {@link JobRecordCodec#encodeTail}
	 */
	public record EncodedJob(String id, String due, String tail) {

	}

	/**
	 * The outcome of one enqueue call.
	 *
	 * @param duplicates ids the topic already held, skipped
	 * @param earliestDelayedDue earliest due time put in DELAYED, or -1
	 */
	public record EnqueueOutcome(List<String> duplicates, long earliestDelayedDue) {

	}

	/**
	 * A topic's counts per state and whether it is paused, read together.
	 *
	 * @param stats the counts
	 * @param paused whether listeners are to claim none of its jobs
	 */
	public record TopicState(TopicStats stats, boolean paused) {

	}

}
