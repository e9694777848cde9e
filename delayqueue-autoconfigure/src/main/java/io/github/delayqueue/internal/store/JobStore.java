package io.github.delayqueue.internal.store;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToLongFunction;

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
	 * Members of a timeline list set one script call of its trim looks at (a hint to
	 * SSCAN): each costs two commands at most.
	 */
	private static final int TIMELINE_LISTS_PER_CALL = 200;

	/**
	 * Names the application's own code as who asked for a change, in job timelines.
	 */
	public static final String API = "api";

	/**
	 * Most dead jobs one script call reads; {@link #deadJobs} pages past it.
	 */
	public static final int MAX_READ_PAGE = 1000;

	/**
	 * About the most bytes of records one script call of a page returns (at least one
	 * record): a page of large jobs is read in several calls, so that no reply holds
	 * Redis or the heap for long.
	 */
	public static final int MAX_PAGE_BYTES_PER_CALL = 4 * 1024 * 1024;

	private final ScriptRunner scripts;

	private final DelayQueueKeys keys;

	private final byte[] wakeChannel;

	private final PartitionRegistry partitions;

	private final Map<String, EnqueueTarget> enqueueTargets = new ConcurrentHashMap<>();

	private final JobInfos infos;

	private final JobLookup lookup;

	private final QueueCounts counts;

	private final FinishedJobPages finishedPages;

	private final JobTimelines timelines;

	private final GroupCounts groups;

	private volatile JobHistory history = JobHistory.OFF;

	/**
	 * Create a store.
	 * @param scripts runs the scripts
	 * @param keys names the keys
	 * @param codec decodes stored records
	 */
	public JobStore(ScriptRunner scripts, DelayQueueKeys keys, JobRecordCodec codec) {
		this.scripts = scripts;
		this.keys = keys;
		this.wakeChannel = bytes(keys.wakeChannel());
		this.partitions = new PartitionRegistry(scripts, keys);
		this.infos = new JobInfos(codec);
		this.lookup = new JobLookup(scripts, keys, this.infos);
		this.counts = new QueueCounts(scripts, keys, this.lookup);
		this.finishedPages = new FinishedJobPages(scripts, keys, this.lookup, this.infos);
		this.timelines = new JobTimelines(scripts, keys, this.lookup);
		this.groups = new GroupCounts(scripts, keys);
	}

	/**
	 * Set what each topic keeps of the jobs cancelled through this store, and which
	 * topics record the timelines of the jobs it writes; nothing unless set.
	 * @param history the topics' history settings
	 */
	public void setJobHistory(JobHistory history) {
		this.history = history;
		// Their timeline arguments came from the history before.
		this.enqueueTargets.clear();
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
		byte[][] args = { this.wakeChannel, target.topic(), target.timeline(), bytes(job.id()), bytes(job.due()),
				bytes(job.tail()) };
		List<Object> reply = this.scripts.run(DelayQueueScript.ENQUEUE, target.keys(), args);
		if (target.retirable()) {
			byte[][] keys = target.keys();
			reply = this.partitions.reviveIfRetired(queue, reply,
					() -> this.scripts.run(DelayQueueScript.ENQUEUE, keys, args));
		}
		return EnqueueOutcome.of(List.of(queue), List.of(reply));
	}

	// A single send's keys, encoded once per queue rather than on every call. The wake-up
	// names the queue, so that schedulers sweep only the partition that changed.
	private EnqueueTarget enqueueTarget(String queue) {
		List<String> keys = enqueueKeys(queue);
		byte[][] encoded = new byte[keys.size()][];
		for (int i = 0; i < encoded.length; i++) {
			encoded[i] = bytes(keys.get(i));
		}
		return new EnqueueTarget(encoded, bytes(queue), bytes(this.history.timelineArgument(this.keys.topic(queue))),
				keys.size() > ENQUEUE_KEYS);
	}

	private static final int ENQUEUE_KEYS = 9;

	// A partition other than a topic's first may be retired: its mark comes last.
	private List<String> enqueueKeys(String queue) {
		TopicKeys k = this.keys.topic(queue);
		List<String> keys = new ArrayList<>(ENQUEUE_KEYS + 1);
		Collections.addAll(keys, k.jobs(), k.delayed(), k.ready(), k.dead(), k.attempts(), k.errors(), k.running(),
				k.ghosts(), k.successors());
		if (!DelayQueueKeys.topicOf(queue).equals(queue)) {
			keys.add(k.retired());
		}
		return List.copyOf(keys);
	}

	/**
	 * Enqueue several groups of jobs, one script call per group (per partition of a
	 * partitioned topic), all in one round trip.
	 * @param groups the groups, each of one topic
	 * @return each group's outcome, in order
	 */
	public List<EnqueueOutcome> enqueue(List<EnqueueGroup> groups) {
		List<ScriptRunner.Call> calls = new ArrayList<>(groups.size());
		List<String> queueOfCall = new ArrayList<>(groups.size());
		List<Integer> groupOfCall = new ArrayList<>(groups.size());
		for (int g = 0; g < groups.size(); g++) {
			for (Map.Entry<String, List<EncodedJob>> slice : byQueue(groups.get(g)).entrySet()) {
				calls.add(enqueueCall(slice.getKey(), slice.getValue()));
				queueOfCall.add(slice.getKey());
				groupOfCall.add(g);
			}
		}
		List<List<Object>> replies = this.scripts.runPipelined(calls);
		List<List<List<Object>>> repliesOfGroup = new ArrayList<>(groups.size());
		List<List<String>> queuesOfGroup = new ArrayList<>(groups.size());
		for (int g = 0; g < groups.size(); g++) {
			repliesOfGroup.add(new ArrayList<>());
			queuesOfGroup.add(new ArrayList<>());
		}
		for (int i = 0; i < replies.size(); i++) {
			int g = groupOfCall.get(i);
			ScriptRunner.Call call = calls.get(i);
			repliesOfGroup.get(g)
				.add(this.partitions.reviveIfRetired(queueOfCall.get(i), replies.get(i),
						() -> this.scripts.run(call.script(), call.keys(), call.args().toArray(String[]::new))));
			queuesOfGroup.get(g).add(queueOfCall.get(i));
		}
		List<EnqueueOutcome> outcomes = new ArrayList<>(groups.size());
		for (int g = 0; g < groups.size(); g++) {
			outcomes.add(EnqueueOutcome.of(queuesOfGroup.get(g), repliesOfGroup.get(g)));
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
		List<String> args = new ArrayList<>(3 + jobs.size() * 3);
		args.add(this.keys.wakeChannel());
		args.add(queue);
		args.add(this.history.timelineArgument(this.keys.topic(queue)));
		for (EncodedJob job : jobs) {
			args.add(job.id());
			args.add(job.due());
			args.add(job.tail());
		}
		return new ScriptRunner.Call(DelayQueueScript.ENQUEUE, enqueueKeys(queue), args);
	}

	/**
	 * Remember a topic in the set of all topics, and the queues its partitions are
	 * written to in its partition set; before the first write to a queue, so that
	 * consumers and schedulers find it. A queue recorded now of a paused topic is paused
	 * too. The topic loses its mark of an empty topic, if it had one.
	 * @param topic the topic
	 */
	public void registerTopic(String topic) {
		this.scripts.addToSet(this.keys.topicSet(), topic);
		// A send means the topic is in use: its empty mark goes, so that the pruner takes
		// it out of the set only after a whole retention without sends, by which time
		// the senders' registrations have run out and their next send puts it back.
		this.scripts.redis().opsForHash().delete(this.keys.topicsEmptySince(), topic);
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
	 * Pause or resume a topic, every queue of it in one pipelined round trip: while
	 * paused, claims take none of its jobs.
	 * @param topic the topic
	 * @param paused {@code true} to pause, {@code false} to resume
	 */
	public void setPaused(String topic, boolean paused) {
		List<ScriptRunner.Call> calls = new ArrayList<>();
		for (String queue : this.lookup.queues(topic)) {
			calls.add(new ScriptRunner.Call(DelayQueueScript.PAUSE, List.of(this.keys.lookupTopic(queue).paused()),
					List.of(paused ? "1" : "0")));
		}
		this.scripts.runPipelined(calls);
	}

	/**
	 * Tell whether a topic is paused: whether any queue of it is, read from every queue
	 * in one round trip, so that a pause that reached only some of them (written by an
	 * instance that failed half-way) shows and can be resumed.
	 * @param topic the topic
	 * @return {@code true} if paused
	 */
	public boolean isPaused(String topic) {
		return state(topic).paused();
	}

	/**
	 * Return every topic remembered.
	 * @return the topics, sorted
	 */
	public Set<String> topics() {
		return new TreeSet<>(this.scripts.members(this.keys.topicSet()));
	}

	/**
	 * Remove a delayed or ready job, asked by the application's own code.
	 * @param topic the topic
	 * @param id the job id
	 * @return whether it was removed
	 */
	public boolean cancel(String topic, String id) {
		return cancel(topic, id, API);
	}

	/**
	 * Remove a delayed or ready job.
	 * @param topic the topic
	 * @param id the job id
	 * @param actor who asked, recorded in the job's timeline: {@value #API}, or a tool
	 * such as the Actuator endpoint or the dashboard
	 * @return whether it was removed
	 */
	public boolean cancel(String topic, String id, String actor) {
		return this.lookup.byId(topic, id, (queue) -> {
			TopicKeys k = this.keys.lookupTopic(queue);
			List<String> keys = new ArrayList<>(List.of(k.jobs(), k.delayed(), k.running(), k.dead(), k.attempts(),
					k.errors(), k.ghosts(), k.successors()));
			keys.addAll(k.keptKeys());
			return new ScriptRunner.Call(DelayQueueScript.CANCEL, keys,
					List.of(id, this.history.finishedArgument(topic), this.history.timelineArgument(k), actor));
		}, (queue, reply) -> ScriptRunner.asLong(reply.get(0)) == 1, Boolean::booleanValue);
	}

	/**
	 * Give a delayed or ready job a new due time.
	 * @param topic the topic
	 * @param id the job id
	 * @param delay the delay from now
	 * @return the queue that holds the job and its new due time, or {@code null} if the
	 * job was not delayed or ready
	 */
	public @Nullable QueueDue reschedule(String topic, String id, Duration delay) {
		Rescheduled rescheduled = this.lookup.byId(topic, id, (queue) -> {
			TopicKeys k = this.keys.lookupTopic(queue);
			return new ScriptRunner.Call(DelayQueueScript.RESCHEDULE,
					List.of(k.jobs(), k.delayed(), k.ready(), k.running(), k.dead(), k.ghosts()),
					List.of(id, String.valueOf(delay.toMillis()), this.keys.wakeChannel(), queue,
							this.history.timelineArgument(k)));
		}, (queue, reply) -> new Rescheduled((ScriptRunner.asLong(reply.get(0)) == 1)
				? new QueueDue(queue, ScriptRunner.asLong(reply.get(1))) : null), (done) -> done.due() != null);
		return rescheduled.due();
	}

	private record Rescheduled(@Nullable QueueDue due) {

	}

	/**
	 * Look a job up.
	 * @param topic the topic
	 * @param id the job id
	 * @return the job, or empty when gone
	 */
	public Optional<StoredJob> find(String topic, String id) {
		return this.lookup.find(topic, id);
	}

	/**
	 * Look a job up in every topic, in three round trips however many topics and
	 * partitions there are.
	 * @param id the job id
	 * @return the job of the first topic, in name order, that holds the id, or empty
	 */
	public Optional<StoredJob> findInAnyTopic(String id) {
		return this.lookup.findInAnyTopic(id);
	}

	/**
	 * Count a topic's jobs per state.
	 * @param topic the topic
	 * @return the counts
	 */
	public StateCounts stats(String topic) {
		return state(topic).stats();
	}

	/**
	 * Read the groups whose READY jobs wait for their turn in a topic.
	 * @param topic the topic
	 * @param most most groups to return
	 * @return how many groups have jobs waiting, and those with the most
	 */
	public WaitingGroups waitingGroups(String topic, int most) {
		return this.groups.of(topic, most);
	}

	/**
	 * Count a topic's jobs per state and tell whether it is paused, in one consistent
	 * read per queue, summed over the topic's queues, in one round trip (two after a
	 * change of the number of partitions).
	 * @param topic the topic
	 * @return the counts and the pause
	 */
	public TopicState state(String topic) {
		return states(List.of(topic)).get(topic);
	}

	/**
	 * Read {@link #state(String)} of several topics at once, in one round trip (two after
	 * a change of the number of partitions of any of them), however many topics and
	 * partitions there are.
	 * @param topics the topics
	 * @return each topic's state, in the order of the topics given
	 */
	public Map<String, TopicState> states(Collection<String> topics) {
		Map<String, TopicState> states = new LinkedHashMap<>();
		this.counts.of(topics).forEach((topic, queues) -> {
			long[] counts = new long[4];
			boolean paused = false;
			long oldestReady = -1;
			for (QueueCounts.Count queue : queues) {
				counts[0] += queue.delayed();
				counts[1] += queue.ready();
				counts[2] += queue.running();
				counts[3] += queue.dead();
				paused |= queue.paused();
				long due = queue.oldestReadyDueMillis();
				if (due >= 0 && (oldestReady < 0 || due < oldestReady)) {
					oldestReady = due;
				}
			}
			states.put(topic, new TopicState(new StateCounts(topic, counts[0], counts[1], counts[2], counts[3]), paused,
					oldestReady));
		});
		return states;
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
	public List<StoredJob> deadJobs(String topic, int offset, int count) {
		return jobs(topic, StoredJob.State.DEAD, offset, count);
	}

	/**
	 * Read a page of a topic's jobs in one state, oldest first (by due time, time-to-run
	 * deadline or time of death; READY jobs in the order they will be claimed), whole.
	 * Each script call returns at most {@link #MAX_READ_PAGE} jobs and about
	 * {@link #MAX_PAGE_BYTES_PER_CALL} of records, so a large page is read in several
	 * calls and is then not one atomic snapshot. Offsets count jobs, so that consecutive
	 * pages neither skip nor repeat one. A page of DELAYED, RUNNING or DEAD jobs costs
	 * Redis O(log N + page); so does a READY page while no ghost entries (see
	 * {@code claim.lua}) wait in the ready list. With ghosts, the entries before a READY
	 * page are walked in calls of a bounded number each, so that none holds Redis for
	 * long. A partitioned topic's pages run through its queues one after the other, each
	 * skipped whole while the offset covers its count in the state. Kept finished jobs
	 * (COMPLETED, CANCELLED) come the most recent first, see {@link FinishedJobPages}.
	 * @param topic the topic
	 * @param state the state
	 * @param offset how many to skip
	 * @param count how many at most
	 * @return the jobs
	 */
	public List<StoredJob> jobs(String topic, StoredJob.State state, int offset, int count) {
		return jobs(topic, state, offset, count, false);
	}

	/**
	 * Read a page of a topic's jobs in one state as
	 * {@link #jobs(String, StoredJob.State, int, int)} does, without their headers and
	 * payloads: Redis sends only what a row of a page shows, however large the jobs are.
	 * @param topic the topic
	 * @param state the state
	 * @param offset how many to skip
	 * @param count how many at most
	 * @return the jobs, with no headers and an empty payload
	 */
	public List<StoredJob> jobSummaries(String topic, StoredJob.State state, int offset, int count) {
		return jobs(topic, state, offset, count, true);
	}

	private List<StoredJob> jobs(String topic, StoredJob.State state, int offset, int count, boolean heads) {
		if (state == StoredJob.State.COMPLETED || state == StoredJob.State.CANCELLED) {
			return this.finishedPages.read(topic, state, offset, count, heads).jobs();
		}
		List<String> written = this.keys.lookupQueues(topic);
		if (written.size() == 1 && this.scripts.members(this.keys.partitionSet(topic)).isEmpty()) {
			return jobsOf(topic, topic, state, offset, count, heads);
		}
		// The pages of a partitioned topic run through its queues one after the other.
		List<StoredJob> jobs = new ArrayList<>(Math.min(count, MAX_READ_PAGE));
		long skip = offset;
		for (QueueCounts.Count queue : this.counts.of(topic)) {
			if (jobs.size() >= count) {
				break;
			}
			long size = queue.in(state);
			if (skip >= size) {
				skip -= size;
				continue;
			}
			jobs.addAll(jobsOf(topic, queue.queue(), state, (int) skip, count - jobs.size(), heads));
			skip = 0;
		}
		return jobs;
	}

	private List<StoredJob> jobsOf(String topic, String queue, StoredJob.State state, int offset, int count,
			boolean heads) {
		TopicKeys k = this.keys.lookupTopic(queue);
		String source = switch (state) {
			case DELAYED -> k.delayed();
			case READY -> k.ready();
			case RUNNING -> k.running();
			case DEAD -> k.dead();
			case COMPLETED, CANCELLED -> throw new IllegalStateException("Kept jobs are paged apart");
		};
		List<String> scriptKeys = List.of(source, k.jobs(), k.attempts(), k.errors(), k.delayed(), k.running(),
				k.dead(), k.claiming(), k.ghosts());
		String kind = (state == StoredJob.State.READY) ? "list" : "zset";
		List<StoredJob> jobs = new ArrayList<>(Math.min(count, MAX_READ_PAGE));
		long from = 0;
		long skip = offset;
		List<String> counted = List.of();
		while (jobs.size() < count && from >= 0) {
			List<String> args = new ArrayList<>(6 + counted.size());
			args.addAll(List.of(kind, String.valueOf(from), String.valueOf(skip),
					String.valueOf(Math.min(count - jobs.size(), MAX_READ_PAGE)), heads ? "head" : "full",
					String.valueOf(MAX_PAGE_BYTES_PER_CALL)));
			args.addAll(counted);
			List<Object> reply = this.scripts.run(DelayQueueScript.READ_PAGE, scriptKeys, args.toArray(String[]::new));
			from = ScriptRunner.asLong(reply.get(0));
			skip = ScriptRunner.asLong(reply.get(1));
			int n = (int) ScriptRunner.asLong(reply.get(2));
			counted = new ArrayList<>(n);
			for (int i = 3; i < 3 + n; i++) {
				counted.add((String) reply.get(i));
			}
			for (int i = 3 + n; i + 4 < reply.size(); i += 5) {
				String id = (String) reply.get(i);
				String record = (String) reply.get(i + 1);
				int attempts = (int) ScriptRunner.asLong(reply.get(i + 2));
				String error = (String) reply.get(i + 3);
				Object score = (state == StoredJob.State.DEAD) ? reply.get(i + 4) : null;
				jobs.add(heads ? this.infos.summary(topic, id, record, state, attempts, error, score)
						: this.infos.info(topic, id, record, state, attempts, error, score));
			}
		}
		return jobs;
	}

	/**
	 * Count a topic's kept finished jobs of one outcome, see {@link JobHistoryPolicy}.
	 * @param topic the topic
	 * @param outcome {@link StoredJob.State#COMPLETED} or
	 * {@link StoredJob.State#CANCELLED}
	 * @return how many are kept
	 */
	public long keptCount(String topic, StoredJob.State outcome) {
		return this.finishedPages.read(topic, outcome, 0, 0, true).total();
	}

	/**
	 * Requeue one dead job, or all of them, asked by the application's own code.
	 * @param topic the topic
	 * @param id the job id, or {@code null} for all
	 * @return how many were requeued
	 */
	public long requeueDead(String topic, @Nullable String id) {
		return requeueDead(topic, id, API);
	}

	/**
	 * Requeue one dead job, or all of them.
	 * @param topic the topic
	 * @param id the job id, or {@code null} for all
	 * @param actor who asked, recorded in the jobs' timelines, see
	 * {@link #cancel(String, String, String)}
	 * @return how many were requeued
	 */
	public long requeueDead(String topic, @Nullable String id, String actor) {
		if (id != null) {
			return this.lookup.byId(topic, id, (queue) -> requeueDeadCall(queue, id, actor),
					(queue, reply) -> ScriptRunner.asLong(reply.get(0)), (requeued) -> requeued > 0);
		}
		return sumOverQueues(topic, (queue) -> requeueDeadIn(queue, actor));
	}

	private long sumOverQueues(String topic, ToLongFunction<String> perQueue) {
		long total = 0;
		for (String queue : this.lookup.queues(topic)) {
			total += perQueue.applyAsLong(queue);
		}
		return total;
	}

	private ScriptRunner.Call requeueDeadCall(String queue, String id, String actor) {
		TopicKeys k = this.keys.lookupTopic(queue);
		return new ScriptRunner.Call(DelayQueueScript.REQUEUE_DEAD,
				List.of(k.dead(), k.ready(), k.jobs(), k.attempts()),
				List.of(id, String.valueOf(MANAGEMENT_BATCH), this.history.timelineArgument(k), actor));
	}

	private long requeueDeadIn(String queue, String actor) {
		long total = 0;
		long moved;
		do {
			moved = ScriptRunner.asLong(this.scripts.run(requeueDeadCall(queue, "", actor)).get(0));
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
		TopicKeys k = this.keys.lookupTopic(queue);
		List<String> scriptKeys = List.of(k.dead(), k.jobs(), k.attempts(), k.errors());
		String cutoff = (olderThan != null) ? String.valueOf(olderThan.toMillis()) : "+inf";
		long total = 0;
		long purged;
		do {
			purged = ScriptRunner.asLong(
					this.scripts
						.run(DelayQueueScript.PURGE_DEAD, scriptKeys, cutoff, String.valueOf(MANAGEMENT_BATCH), "",
								k.timelinePrefix())
						.get(0));
			total += purged;
		}
		while (purged == MANAGEMENT_BATCH);
		return total;
	}

	/**
	 * Drop what each queue of a topic keeps of its finished jobs beyond the topic's
	 * completed retention or count cap: what the calls that finish jobs left, as each
	 * drops a bounded number (a count cap lowered under a large kept set), or what no job
	 * finishing any more leaves. One script call drops a bounded number of jobs; the
	 * calls go on until the surplus is gone or {@code maxCalls} were made per queue.
	 * @param topic the topic
	 * @param maxCalls the most script calls per queue
	 * @return how many script calls were made, 0 when the topic keeps no finished job
	 */
	public int trimKept(String topic, int maxCalls) {
		String retention = this.history.finishedArgument(topic);
		if (retention.isEmpty()) {
			return 0;
		}
		int calls = 0;
		for (String queue : this.lookup.queues(topic)) {
			List<String> kept = this.keys.lookupTopic(queue).keptKeys();
			boolean more = true;
			for (int i = 0; i < maxCalls && more; i++) {
				more = ScriptRunner.asLong(this.scripts.run(DelayQueueScript.TRIM_KEPT, kept, retention).get(2)) == 1;
				calls++;
			}
		}
		return calls;
	}

	/**
	 * Take out of each queue's timeline list set (see {@code timeline} in
	 * {@code lib/timeline.lua}) the ids whose list is gone, and those whose job is gone,
	 * whose list then expires after the keep time of a finished job's timeline. The set
	 * is walked with SSCAN, a bounded number of members per script call, until it was
	 * walked whole or {@code maxCalls} calls were made per queue. Runs whether the
	 * topic's timeline is on or not: a set left when it was turned off is emptied too.
	 * @param topic the topic
	 * @param maxCalls the most script calls per queue
	 * @return how many ids left the sets
	 */
	public long trimTimelineLists(String topic, int maxCalls) {
		String keep = String.valueOf(this.history.policy(topic).finishedTimelineTtl().toMillis());
		long removed = 0;
		for (String queue : this.lookup.queues(topic)) {
			TopicKeys k = this.keys.lookupTopic(queue);
			List<String> scriptKeys = List.of(k.jobs(), k.timelinePrefix() + "/lists");
			String cursor = "0";
			for (int i = 0; i < maxCalls; i++) {
				List<Object> reply = this.scripts.run(DelayQueueScript.TRIM_TIMELINE_LISTS, scriptKeys,
						k.timelinePrefix(), cursor, String.valueOf(TIMELINE_LISTS_PER_CALL), keep);
				cursor = String.valueOf(reply.get(0));
				removed += ScriptRunner.asLong(reply.get(1));
				if (cursor.equals("0")) {
					break;
				}
			}
		}
		return removed;
	}

	/**
	 * Purge one dead job, whenever it died.
	 * @param topic the topic
	 * @param id the job id
	 * @return whether the job was dead and is now gone
	 */
	public boolean purgeDeadJob(String topic, String id) {
		return this.lookup.byId(topic, id, (queue) -> {
			TopicKeys k = this.keys.lookupTopic(queue);
			return new ScriptRunner.Call(DelayQueueScript.PURGE_DEAD,
					List.of(k.dead(), k.jobs(), k.attempts(), k.errors()),
					List.of("+inf", "1", id, k.timelinePrefix()));
		}, (queue, reply) -> ScriptRunner.asLong(reply.get(0)) == 1, Boolean::booleanValue);
	}

	private static byte[] bytes(String value) {
		return value.getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * Return the timeline of a job, the oldest step first, see {@link JobTimelines}.
	 * @param topic the topic
	 * @param id the job id
	 * @return the steps, empty when none is recorded
	 */
	public List<StoredEvent> timeline(String topic, String id) {
		return this.timelines.read(topic, id, this.history.policy(topic).timelineMaxEvents());
	}

	private record EnqueueTarget(byte[][] keys, byte[] topic, byte[] timeline, boolean retirable) {

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
	 * reconnect is recognised as already written instead of refused as a duplicate;
	 * followed by {@code k} when a pending job of the id is to be kept, or by {@code r}
	 * when it is to be replaced, and then the longest wait in ms since that job's first
	 * send that a replacement may set its due time to, if any (see
	 * {@link #due(boolean, long, boolean, char, long)})
	 * @param tail the record's tail from {@link JobRecordCodec#encodeTail}
	 */
	public record EncodedJob(String id, String due, String tail) {

		/**
		 * Encode when a job is due and what a send does when its id is pending.
		 * @param delay {@code true} for a delay, {@code false} for an epoch time
		 * @param millis the delay or time in ms, not negative
		 * @param generatedId whether the sender generated the id
		 * @param ifPending what to do when the id is pending: {@code '\0'} to refuse the
		 * job, {@code 'k'} to keep the pending one, {@code 'r'} to replace it
		 * @param maxWaitMillis with {@code 'r'}, the longest wait since the pending job's
		 * first send, or -1 for none
		 * @return the due field
		 */
		public static String due(boolean delay, long millis, boolean generatedId, char ifPending, long maxWaitMillis) {
			char kind = delay ? (generatedId ? 'D' : 'd') : (generatedId ? 'A' : 'a');
			String due = kind + Long.toString(millis);
			if (ifPending == '\0') {
				return due;
			}
			return due + ifPending + ((maxWaitMillis >= 0) ? Long.toString(maxWaitMillis) : "");
		}

	}

	/**
	 * The outcome of enqueueing jobs of one topic. Every job not named in one of the
	 * lists was written as a new job.
	 *
	 * @param duplicates ids the topic already held pending, refused (their requests said
	 * reject)
	 * @param kept ids the topic already held pending, left as they were (their requests
	 * said keep)
	 * @param replaced ids the topic already held pending, replaced (their requests said
	 * replace), or, for a running job, replaced once its delivery ends
	 * @param delayed for each queue that got jobs in DELAYED, the earliest due time among
	 * them: the queues a scheduler has to sweep, and no other
	 */
	public record EnqueueOutcome(List<String> duplicates, List<String> kept, List<String> replaced,
			List<QueueDue> delayed) {

		/**
		 * Read the replies of {@code enqueue.lua} for the queues of one topic.
		 * @param queues the queues, one per reply
		 * @param replies the replies
		 * @return the outcome of all of them
		 */
		static EnqueueOutcome of(List<String> queues, List<List<Object>> replies) {
			List<String> duplicates = new ArrayList<>(0);
			List<String> kept = new ArrayList<>(0);
			List<String> replaced = new ArrayList<>(0);
			List<QueueDue> delayed = new ArrayList<>(queues.size());
			for (int q = 0; q < queues.size(); q++) {
				List<Object> reply = replies.get(q);
				long earliest = ScriptRunner.asLong(reply.get(0));
				if (earliest >= 0) {
					delayed.add(new QueueDue(queues.get(q), earliest));
				}
				for (int i = 1; i < reply.size(); i++) {
					String entry = String.valueOf(reply.get(i));
					List<String> list = switch (entry.charAt(0)) {
						case 'k' -> kept;
						case 'r' -> replaced;
						default -> duplicates;
					};
					list.add(entry.substring(1));
				}
			}
			return new EnqueueOutcome(duplicates, kept, replaced, delayed);
		}

		/**
		 * Tell whether every job was written as a new one.
		 * @return {@code true} if none was refused, kept or replaced
		 */
		public boolean allWritten() {
			return this.duplicates.isEmpty() && this.kept.isEmpty() && this.replaced.isEmpty();
		}

	}

	/**
	 * A due time in one queue: a topic's own, or one partition of a partitioned topic.
	 *
	 * @param queue the queue
	 * @param dueAtMillis the due time in epoch milliseconds, by the Redis clock
	 */
	public record QueueDue(String queue, long dueAtMillis) {

	}

	/**
	 * A topic's counts per state and whether it is paused, read together.
	 *
	 * @param stats the counts
	 * @param paused whether listeners are to claim none of its jobs
	 * @param oldestReadyDueMillis the due time of the ready job that waited longest, in
	 * epoch milliseconds, or -1 when none is ready
	 */
	public record TopicState(StateCounts stats, boolean paused, long oldestReadyDueMillis) {

	}

}
