package io.github.delayqueue.core;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

import io.github.delayqueue.store.JobStore;
import io.github.delayqueue.store.JobStore.TopicState;

/**
 * Looks across topics for the consoles (the dashboard, the endpoint) in a fixed number of
 * round trips to Redis, however many topics and partitions there are: a job by id in any
 * topic, and every topic's counts, pause and due-lag at once. Topics that do not exist
 * are read like empty ones and leave nothing behind on this instance.
 *
 * <pre class="code">
 * Optional&lt;JobInfo&gt; job = admin.findInAnyTopic("order-42");
 * for (TopicOverview topic : admin.overview(admin.topics())) {
 *     show(topic.stats(), topic.paused(), topic.oldestReadyDueAt());
 * }
 * </pre>
 *
 * @author delayqueue contributors
 */
public class DelayQueueAdmin {

	private final JobStore store;

	/**
	 * Create the admin operations on a store.
	 * @param store the Redis side
	 */
	public DelayQueueAdmin(JobStore store) {
		this.store = store;
	}

	/**
	 * Return every topic that has or had jobs, in one round trip.
	 * @return the topics, sorted
	 */
	public List<String> topics() {
		return List.copyOf(this.store.topics());
	}

	/**
	 * Look a job up by id in every topic, in three round trips: the topics and which of
	 * them are partitioned, the partition sets of those, and then every queue of every
	 * topic at once.
	 * @param jobId the job id
	 * @return the job of the first topic, in name order, that holds the id, or empty when
	 * no topic does
	 * @throws InvalidJobException if the id is blank, too long or holds a path separator
	 */
	public Optional<JobInfo> findInAnyTopic(String jobId) {
		return this.store.findInAnyTopic(JobConstraints.checkId("any", jobId));
	}

	/**
	 * Read the counts per state, the pause and the longest waiting ready job of several
	 * topics, in one round trip (a second one only for queues a topic's jobs were written
	 * to under another number of partitions).
	 * @param topics the topics, for example {@link #topics()}
	 * @return each topic's overview, in the order of the topics given
	 * @throws InvalidJobException if a topic name is invalid
	 */
	public List<TopicOverview> overview(Collection<String> topics) {
		topics.forEach(JobConstraints::checkTopic);
		List<TopicOverview> overviews = new ArrayList<>(topics.size());
		this.store.states(topics).values().forEach((state) -> overviews.add(overview(state)));
		return overviews;
	}

	/**
	 * Read the overview of one topic, in one round trip, see
	 * {@link #overview(Collection)}.
	 * @param topic the topic
	 * @return its overview
	 * @throws InvalidJobException if the topic name is invalid
	 */
	public TopicOverview overview(String topic) {
		return overview(this.store.state(JobConstraints.checkTopic(topic)));
	}

	private static TopicOverview overview(TopicState state) {
		long oldest = state.oldestReadyDueMillis();
		return new TopicOverview(state.stats(), state.paused(), (oldest >= 0) ? Instant.ofEpochMilli(oldest) : null);
	}

}
