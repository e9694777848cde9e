package io.github.delayqueue.core;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import io.github.delayqueue.store.JobStore;
import io.github.delayqueue.store.JobStore.TopicState;
import io.github.delayqueue.store.StoredJob;

/**
 * The {@link DelayQueueAdmin} on the starter's Redis store, which the starter configures
 * as a bean. Topics that do not exist are read like empty ones and leave nothing behind
 * on this instance.
 *
 * @author delayqueue contributors
 */
public class DefaultDelayQueueAdmin implements DelayQueueAdmin {

	private final JobStore store;

	/**
	 * Create the admin operations on a store.
	 * @param store the Redis side
	 */
	public DefaultDelayQueueAdmin(JobStore store) {
		this.store = store;
	}

	@Override
	public TopicStats stats(String topic) {
		return StoredJobs.stats(this.store.stats(JobConstraints.checkTopic(topic)));
	}

	@Override
	public void pause(String topic) {
		JobConstraints.checkTopic(topic);
		// Registered, so that the topic and its pause show wherever topics are listed.
		this.store.registerTopic(topic);
		this.store.setPaused(topic, true);
	}

	@Override
	public void resume(String topic) {
		this.store.setPaused(JobConstraints.checkTopic(topic), false);
	}

	@Override
	public boolean isPaused(String topic) {
		return this.store.isPaused(JobConstraints.checkTopic(topic));
	}

	@Override
	public List<JobEvent> timeline(String topic, String jobId) {
		JobConstraints.checkTopic(topic);
		JobConstraints.checkId(topic, jobId);
		// Recorded by the store's scripts once the timeline is built.
		return List.of();
	}

	@Override
	public Set<String> topics() {
		return this.store.topics();
	}

	@Override
	public List<JobInfo> deadJobs(String topic, int offset, int count) {
		JobConstraints.checkTopic(topic);
		if (offset < 0 || count < 0) {
			throw new InvalidJobException("Offset and count must not be negative, were " + offset + " and " + count);
		}
		return (count == 0) ? List.of() : infos(this.store.deadJobs(topic, offset, count));
	}

	@Override
	public List<JobInfo> jobs(String topic, JobState state, int offset, int count) {
		JobConstraints.checkTopic(topic);
		if (state == null) {
			throw new InvalidJobException("A state is required to list jobs of topic '" + topic + "'");
		}
		if (offset < 0 || count < 0) {
			throw new InvalidJobException("Offset and count must not be negative, were " + offset + " and " + count);
		}
		return (count == 0) ? List.of() : infos(this.store.jobs(topic, StoredJobs.state(state), offset, count));
	}

	@Override
	public long countKept(String topic, JobState outcome) {
		JobConstraints.checkTopic(topic);
		if (outcome != JobState.COMPLETED && outcome != JobState.CANCELLED) {
			throw new InvalidJobException("Only COMPLETED and CANCELLED jobs are kept, not " + outcome);
		}
		return this.store.keptCount(topic, StoredJobs.state(outcome));
	}

	@Override
	public long requeueDead(String topic) {
		return this.store.requeueDead(JobConstraints.checkTopic(topic), null);
	}

	@Override
	public boolean requeueDead(String topic, String jobId) {
		return this.store.requeueDead(JobConstraints.checkTopic(topic), JobConstraints.checkId(topic, jobId)) == 1;
	}

	@Override
	public long purgeDead(String topic) {
		return this.store.purgeDead(JobConstraints.checkTopic(topic), null);
	}

	@Override
	public boolean purgeDead(String topic, String jobId) {
		return this.store.purgeDeadJob(JobConstraints.checkTopic(topic), JobConstraints.checkId(topic, jobId));
	}

	@Override
	public Optional<JobInfo> findInAnyTopic(String jobId) {
		return StoredJobs.info(this.store.findInAnyTopic(JobConstraints.checkId("any", jobId)));
	}

	@Override
	public List<TopicOverview> overview(Collection<String> topics) {
		topics.forEach(JobConstraints::checkTopic);
		List<TopicOverview> overviews = new ArrayList<>(topics.size());
		this.store.states(topics).values().forEach((state) -> overviews.add(overview(state)));
		return overviews;
	}

	@Override
	public TopicOverview overview(String topic) {
		return overview(this.store.state(JobConstraints.checkTopic(topic)));
	}

	private static List<JobInfo> infos(List<StoredJob> jobs) {
		return jobs.stream().map(StoredJobs::info).toList();
	}

	private static TopicOverview overview(TopicState state) {
		long oldest = state.oldestReadyDueMillis();
		return new TopicOverview(StoredJobs.stats(state.stats()), state.paused(),
				(oldest >= 0) ? Instant.ofEpochMilli(oldest) : null);
	}

}
