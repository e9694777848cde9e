package io.github.delayqueue.core;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import io.github.delayqueue.internal.store.JobStore;
import io.github.delayqueue.internal.store.JobStore.TopicState;
import io.github.delayqueue.internal.store.StoredJob;
import io.github.delayqueue.internal.store.WaitingGroups;
import org.jspecify.annotations.Nullable;

/**
 * The {@link DelayQueueAdmin} on the starter's Redis store, which the starter configures
 * as a bean. Topics that do not exist are read like empty ones and leave nothing behind
 * on this instance.
 * <p>
 * What it changes is recorded in job timelines as asked by {@value #API}; a tool that
 * acts for an operator names itself with {@link #actingAs(String)}, as the Actuator
 * endpoint ({@value #ENDPOINT}) and the dashboard ({@value #DASHBOARD}) do:
 *
 * <pre class="code">
 * DefaultDelayQueueAdmin dashboardAdmin = admin.actingAs(DefaultDelayQueueAdmin.DASHBOARD);
 * dashboardAdmin.requeueDead("orders.timeout", "order-42"); // REQUEUED, detail "dashboard"
 * dashboardAdmin.cancel("orders.timeout", "order-43");      // CANCELLED, detail "dashboard"
 * </pre>
 *
 * @author delayqueue contributors
 */
public class DefaultDelayQueueAdmin implements DelayQueueAdmin {

	/**
	 * Names the application's own code as who asked, the default.
	 */
	public static final String API = JobStore.API;

	/**
	 * Names the Actuator endpoint as who asked.
	 */
	public static final String ENDPOINT = "endpoint";

	/**
	 * Names the dashboard as who asked.
	 */
	public static final String DASHBOARD = "dashboard";

	private static final int MAX_ACTOR_LENGTH = 64;

	private final JobStore store;

	private final String actor;

	/**
	 * Create the admin operations on a store, acting as {@value #API}.
	 * @param store the Redis side
	 */
	public DefaultDelayQueueAdmin(JobStore store) {
		this(store, API);
	}

	private DefaultDelayQueueAdmin(JobStore store, String actor) {
		this.store = store;
		this.actor = actor;
	}

	/**
	 * Return admin operations on the same store that record who asked as the given actor:
	 * the detail of the {@link JobEvent.Type#REQUEUED REQUEUED} and
	 * {@link JobEvent.Type#CANCELLED CANCELLED} steps of job timelines. This admin is
	 * unchanged.
	 * @param actor who asks, such as {@link #ENDPOINT} or {@link #DASHBOARD}: 1 to 64
	 * characters, not blank
	 * @return the admin operations acting as {@code actor}
	 * @throws IllegalArgumentException if the actor is blank or too long
	 */
	@Override
	public DefaultDelayQueueAdmin actingAs(String actor) {
		if (actor == null || actor.isBlank() || actor.length() > MAX_ACTOR_LENGTH) {
			throw new IllegalArgumentException(
					"An actor is 1 to " + MAX_ACTOR_LENGTH + " characters, not blank; was '" + actor + "'");
		}
		return new DefaultDelayQueueAdmin(this.store, actor);
	}

	/**
	 * Return who this admin says asked, see {@link #actingAs(String)}.
	 * @return the actor, {@value #API} unless set
	 */
	public String actor() {
		return this.actor;
	}

	@Override
	public boolean cancel(String topic, String jobId) {
		JobConstraints.checkTopic(topic);
		return this.store.cancel(topic, JobConstraints.checkId(topic, jobId), this.actor);
	}

	@Override
	public TopicGroups groups(String topic) {
		WaitingGroups waiting = this.store.waitingGroups(JobConstraints.checkTopic(topic), MAX_GROUPS_SHOWN);
		return new TopicGroups(topic, waiting.groups(), waiting.largest()
			.stream()
			.map((group) -> new TopicGroups.Waiting(group.group(), group.waiting(), group.running(), group.held()))
			.toList());
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
		return this.store.timeline(topic, jobId).stream().map(StoredJobs::event).toList();
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
		checkPage(topic, state, offset, count);
		return (count == 0) ? List.of() : infos(this.store.jobs(topic, StoredJobs.state(state), offset, count));
	}

	@Override
	public List<JobInfo> jobSummaries(String topic, JobState state, int offset, int count) {
		checkPage(topic, state, offset, count);
		return (count == 0) ? List.of() : infos(this.store.jobSummaries(topic, StoredJobs.state(state), offset, count));
	}

	private static void checkPage(String topic, @Nullable JobState state, int offset, int count) {
		JobConstraints.checkTopic(topic);
		if (state == null) {
			throw new InvalidJobException("A state is required to list jobs of topic '" + topic + "'");
		}
		if (offset < 0 || count < 0) {
			throw new InvalidJobException("Offset and count must not be negative, were " + offset + " and " + count);
		}
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
		return this.store.requeueDead(JobConstraints.checkTopic(topic), null, this.actor);
	}

	@Override
	public boolean requeueDead(String topic, String jobId) {
		return this.store.requeueDead(JobConstraints.checkTopic(topic), JobConstraints.checkId(topic, jobId),
				this.actor) == 1;
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
