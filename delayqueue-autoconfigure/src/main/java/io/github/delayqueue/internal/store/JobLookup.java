package io.github.delayqueue.internal.store;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Finds the queue that holds a job id: the one the id maps to first, then every other
 * queue of the topic at once, in one pipelined round trip, however many partitions the
 * topic has; and a job by id in every topic at once. Nothing it is asked about is
 * remembered, so requests that name unknown topics grow nothing.
 *
 * @author delayqueue contributors
 */
final class JobLookup {

	private final ScriptRunner scripts;

	private final DelayQueueKeys keys;

	private final JobInfos infos;

	JobLookup(ScriptRunner scripts, DelayQueueKeys keys, JobInfos infos) {
		this.scripts = scripts;
		this.keys = keys;
		this.infos = infos;
	}

	/**
	 * Return every queue of a topic: those its partitions are written to now, then those
	 * recorded in its partition set, in one round trip.
	 * @param topic the topic
	 * @return the queue names, the topic's own first
	 */
	List<String> queues(String topic) {
		return withRecorded(topic, this.scripts.members(this.keys.partitionSet(topic)));
	}

	/**
	 * Return the queues a topic is written to now, then those of a partition set's
	 * members that are queues of the topic and not among them.
	 * @param topic the topic
	 * @param recorded the members of its partition set
	 * @return the queue names, the topic's own first
	 */
	List<String> withRecorded(String topic, Collection<String> recorded) {
		List<String> written = this.keys.lookupQueues(topic);
		if (recorded.isEmpty()) {
			return written;
		}
		Set<String> queues = new LinkedHashSet<>(written);
		for (String queue : recorded) {
			// Only queues of this topic: the set is ours, but its members come from
			// Redis.
			if (DelayQueueKeys.topicOf(queue).equals(topic)) {
				queues.add(queue);
			}
		}
		return new ArrayList<>(queues);
	}

	/**
	 * Apply a script call by id to the queue the id maps to and, should it not find the
	 * job there, to the topic's other queues, all in one pipelined round trip: a job sent
	 * before a change of the number of partitions may sit in another.
	 * @param <T> what the call tells
	 * @param topic the topic
	 * @param id the job id
	 * @param call the call on one queue
	 * @param read reads the reply of a call on a queue
	 * @param found whether a reply found the job
	 * @return the reply of the queue that found the job, else of the id's own queue
	 */
	<T> T byId(String topic, String id, Function<String, ScriptRunner.Call> call,
			BiFunction<String, List<Object>, T> read, Predicate<T> found) {
		String home = this.keys.lookupQueueOf(topic, id);
		T result = read.apply(home, this.scripts.run(call.apply(home)));
		if (found.test(result)) {
			return result;
		}
		List<String> others = new ArrayList<>(queues(topic));
		others.remove(home);
		List<List<Object>> replies = this.scripts.runPipelined(others.stream().map(call).toList());
		for (int i = 0; i < replies.size(); i++) {
			T other = read.apply(others.get(i), replies.get(i));
			if (found.test(other)) {
				return other;
			}
		}
		return result;
	}

	/**
	 * Look a job up in one topic.
	 * @param topic the topic
	 * @param id the job id
	 * @return the job, or empty when gone
	 */
	Optional<StoredJob> find(String topic, String id) {
		return byId(topic, id, (queue) -> findCall(queue, id), (queue, reply) -> info(topic, id, reply),
				Optional::isPresent);
	}

	/**
	 * Look a job up in every topic: the topics and which of them are partitioned in one
	 * round trip, then the queue the id maps to in each topic in another, which is where
	 * a job is unless the topic's number of partitions changed since it was sent. Only
	 * when none holds it are the partition sets of the partitioned topics read, and their
	 * other queues looked at, in two more. A look-up thus costs Redis one short script
	 * per topic, not one per queue.
	 * @param id the job id
	 * @return the job of the first topic, in name order, that holds the id, or empty
	 */
	Optional<StoredJob> findInAnyTopic(String id) {
		Map<String, Set<String>> sets = this.scripts
			.membersOfEach(List.of(this.keys.topicSet(), this.keys.partitionedTopicSet()));
		Set<String> topics = new TreeSet<>(sets.get(this.keys.topicSet()));
		List<String> homes = new ArrayList<>(topics.size());
		for (String topic : topics) {
			homes.add(this.keys.lookupQueueOf(topic, id));
		}
		Optional<StoredJob> found = firstFound(List.copyOf(topics), homes, id);
		if (found.isPresent()) {
			return found;
		}
		List<String> partitionSets = new ArrayList<>();
		for (String topic : topics) {
			if (sets.get(this.keys.partitionedTopicSet()).contains(topic)) {
				partitionSets.add(this.keys.partitionSet(topic));
			}
		}
		Map<String, Set<String>> recorded = this.scripts.membersOfEach(partitionSets);
		List<String> topicOfQueue = new ArrayList<>();
		List<String> others = new ArrayList<>();
		int t = 0;
		for (String topic : topics) {
			String home = homes.get(t++);
			for (String queue : withRecorded(topic, recorded.getOrDefault(this.keys.partitionSet(topic), Set.of()))) {
				if (!queue.equals(home)) {
					others.add(queue);
					topicOfQueue.add(topic);
				}
			}
		}
		return firstFound(topicOfQueue, others, id);
	}

	private Optional<StoredJob> firstFound(List<String> topicOfQueue, List<String> queues, String id) {
		List<List<Object>> replies = this.scripts.runPipelined(queues.stream().map((q) -> findCall(q, id)).toList());
		for (int i = 0; i < replies.size(); i++) {
			Optional<StoredJob> job = info(topicOfQueue.get(i), id, replies.get(i));
			if (job.isPresent()) {
				return job;
			}
		}
		return Optional.empty();
	}

	private ScriptRunner.Call findCall(String queue, String id) {
		TopicKeys k = this.keys.lookupTopic(queue);
		return new ScriptRunner.Call(DelayQueueScript.FIND,
				List.of(k.jobs(), k.delayed(), k.running(), k.dead(), k.attempts(), k.errors(), k.finished()),
				List.of(id));
	}

	private Optional<StoredJob> info(String topic, String id, List<Object> reply) {
		if (reply.isEmpty()) {
			return Optional.empty();
		}
		StoredJob job = this.infos.info(topic, id, (String) reply.get(0),
				StoredJob.State.valueOf((String) reply.get(1)), (int) ScriptRunner.asLong(reply.get(2)),
				(String) reply.get(3), reply.get(4));
		if (reply.size() > 6) {
			job = JobInfos.finished(job, ScriptRunner.asLong(reply.get(5)), (String) reply.get(6));
		}
		return Optional.of(job);
	}

}
