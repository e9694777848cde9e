package io.github.delayqueue.internal.actuate;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import io.github.delayqueue.core.DefaultDelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.JobEvent;
import io.github.delayqueue.core.JobInfo;
import io.github.delayqueue.core.JobState;
import io.github.delayqueue.core.TopicGroups;
import io.github.delayqueue.core.TopicOverview;
import io.github.delayqueue.core.TopicStats;
import io.github.delayqueue.internal.presence.ListenerPresence;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

/**
 * The {@code delayqueue} Actuator endpoint: job counts per topic and state, the listeners
 * consuming each topic on every instance (and the topics that have none), one job's
 * details, a topic's dead jobs, and the write operations an operator needs (cancel a
 * pending job, requeue or purge dead jobs).
 * <ul>
 * <li>{@code GET /actuator/delayqueue}: counts and listeners of every topic, and the
 * topics without listener</li>
 * <li>{@code GET /actuator/delayqueue/{topic}}: one topic's counts and its listeners</li>
 * <li>{@code GET /actuator/delayqueue/{topic}?state=dead&offset=0&count=50}: a page of
 * the topic's jobs in a state ({@code delayed}, {@code ready}, {@code running} or
 * {@code dead}), oldest first</li>
 * <li>{@code GET /actuator/delayqueue/{topic}/{jobId}}: the job, 404 when absent</li>
 * <li>{@code GET /actuator/delayqueue/{topic}/{jobId}/timeline}: the steps the job went
 * through, oldest first, when its topic records a timeline</li>
 * <li>{@code DELETE /actuator/delayqueue/{topic}/{jobId}}: cancel a delayed or ready
 * job</li>
 * <li>{@code POST /actuator/delayqueue/{topic}} with {@code {"action": "requeue-dead"}}
 * or {@code "purge-dead"}, and optionally {@code "jobId"}: one dead job or all of them
 * back to ready, or deleted</li>
 * </ul>
 * The endpoint is read-only unless {@code management.endpoint.delayqueue.access} is
 * {@code unrestricted}, and it shows payloads and header values only as its {@link Show}
 * setting allows: they may hold credentials, such as the {@code Authorization} header of
 * an HTTP callback.
 *
 * @author delayqueue contributors
 */
@Endpoint(id = "delayqueue", defaultAccess = Access.READ_ONLY)
public class DelayQueueEndpoint {

	/**
	 * The action of the write operation that requeues dead jobs.
	 */
	public static final String REQUEUE_DEAD = "requeue-dead";

	/**
	 * The action of the write operation that deletes dead jobs.
	 */
	public static final String PURGE_DEAD = "purge-dead";

	/**
	 * The path segment after a job's id that asks for its timeline.
	 */
	public static final String TIMELINE = "timeline";

	/**
	 * What a hidden payload or header value shows instead.
	 */
	public static final String HIDDEN = JobInfo.HIDDEN;

	/**
	 * The most dead jobs one page may hold.
	 */
	public static final int MAX_PAGE_SIZE = 1000;

	private static final int DEFAULT_PAGE_SIZE = 50;

	private final DelayQueueOperations operations;

	private final DelayQueueAdmin admin;

	private final ListenerPresence presence;

	private final Show showValues;

	private final Set<String> roles;

	/**
	 * Create the endpoint.
	 * @param operations where jobs are found
	 * @param admin where topics, counts and dead jobs are read and changed
	 * @param presence tells which listeners run on which instance
	 * @param showValues when payloads and header values are shown
	 * @param roles the roles that may see them when {@code showValues} is
	 * {@link Show#WHEN_AUTHORIZED}; empty for any authenticated user
	 */
	public DelayQueueEndpoint(DelayQueueOperations operations, DelayQueueAdmin admin, ListenerPresence presence,
			Show showValues, Set<String> roles) {
		this.operations = operations;
		// Names the endpoint as who asked in the timelines of the jobs it requeues or
		// cancels.
		this.admin = admin.actingAs(DefaultDelayQueueAdmin.ENDPOINT);
		this.presence = presence;
		this.showValues = showValues;
		this.roles = Set.copyOf(roles);
	}

	/**
	 * Count the jobs of every topic per state, list the listeners that consume each on
	 * every instance, and the topics that have none; host names only as the endpoint's
	 * {@link Show} setting allows for the caller.
	 * @param securityContext who is asking
	 * @return the counts and listeners by topic
	 */
	@ReadOperation
	public QueuesDescriptor queues(SecurityContext securityContext) {
		List<ListenerPresence.Instance> instances = instances(securityContext);
		List<String> names = List.copyOf(this.admin.topics());
		List<TopicOverview> overviews = this.admin.overview(names);
		Map<String, CountsDescriptor> topics = new LinkedHashMap<>();
		for (int i = 0; i < names.size(); i++) {
			String topic = names.get(i);
			List<ListenerDescriptor> listeners = ListenerDescriptor.of(topic, instances);
			topics.put(topic, CountsDescriptor.of(overviews.get(i).stats(), overviews.get(i).paused(), listeners));
		}
		return new QueuesDescriptor(topics, List.copyOf(ListenerPresence.topicsWithoutListeners(names, instances)));
	}

	/**
	 * Count one topic's jobs per state and list the listeners that consume it; or, with a
	 * {@code state}, list a page of its jobs in that state. Host names and the messages
	 * of last errors show only as the endpoint's {@link Show} setting allows for the
	 * caller.
	 * @param securityContext who is asking
	 * @param topic the topic
	 * @param state {@code delayed}, {@code ready}, {@code running}, {@code dead},
	 * {@code completed} or {@code cancelled} (those the topic's completed retention
	 * keeps, the most recent first) to list jobs, or {@code null} for the counts
	 * @param offset how many jobs to skip, 0 when {@code null}
	 * @param count how many jobs to list at most, 50 when {@code null}
	 * @return the counts and listeners, or the page of jobs
	 */
	@ReadOperation
	public Object topic(SecurityContext securityContext, @Selector String topic, @Nullable String state,
			@Nullable Integer offset, @Nullable Integer count) {
		if (state == null) {
			if (offset != null || count != null) {
				throw new InvalidEndpointRequestException("Parameters offset and count page through jobs of a state; "
						+ "add state=delayed, ready, running or dead to list jobs", "Paging without a state");
			}
			return topicDescriptor(topic, instances(securityContext), shows(securityContext));
		}
		return jobs(topic, parseState(state), (offset != null) ? offset : 0,
				(count != null) ? count : DEFAULT_PAGE_SIZE, shows(securityContext));
	}

	private static JobState parseState(String state) {
		for (JobState candidate : JobState.values()) {
			if (candidate.name().toLowerCase(Locale.ROOT).equals(state)) {
				return candidate;
			}
		}
		throw new InvalidEndpointRequestException("Cannot list jobs of state '" + state
				+ "'; use state=delayed, ready, running, dead, completed or cancelled", "Unknown state");
	}

	private boolean shows(SecurityContext securityContext) {
		return this.showValues.isShown(securityContext, this.roles);
	}

	private List<ListenerPresence.Instance> instances(SecurityContext securityContext) {
		List<ListenerPresence.Instance> instances = this.presence.read();
		return shows(securityContext) ? instances
				: instances.stream().map(ListenerPresence.Instance::withoutHost).toList();
	}

	private TopicDescriptor topicDescriptor(String topic, List<ListenerPresence.Instance> instances, boolean shown) {
		TopicOverview overview = this.admin.overview(topic);
		TopicStats stats = overview.stats();
		List<ListenerDescriptor> listeners = ListenerDescriptor.of(topic, instances);
		return new TopicDescriptor(topic, stats.delayed(), stats.ready(), stats.running(), stats.dead(),
				overview.paused(), countConsumers(listeners), listeners,
				GroupsDescriptor.of(this.admin.groups(topic), shown));
	}

	private JobsDescriptor jobs(String topic, JobState state, int offset, int count, boolean shown) {
		if (offset < 0 || count < 1 || count > MAX_PAGE_SIZE) {
			throw new InvalidEndpointRequestException("Parameter offset must be 0 or more and count 1 to "
					+ MAX_PAGE_SIZE + ", were " + offset + " and " + count, "Bad page");
		}
		List<JobRowDescriptor> jobs = this.admin.jobSummaries(topic, state, offset, count)
			.stream()
			.map((job) -> JobRowDescriptor.of(shown ? job : job.withoutValues()))
			.toList();
		return new JobsDescriptor(topic, state.name().toLowerCase(Locale.ROOT), total(topic, state), offset, jobs);
	}

	private long total(String topic, JobState state) {
		// One round trip: the counts of pending and dead jobs, or the kept ones'.
		return switch (state) {
			case DELAYED -> this.admin.stats(topic).delayed();
			case READY -> this.admin.stats(topic).ready();
			case RUNNING -> this.admin.stats(topic).running();
			case DEAD -> this.admin.stats(topic).dead();
			case COMPLETED, CANCELLED -> this.admin.countKept(topic, state);
		};
	}

	/**
	 * Show one job; its payload and header values only as the endpoint's {@link Show}
	 * setting allows for the caller.
	 * @param securityContext who is asking
	 * @param topic the topic
	 * @param jobId the job id
	 * @return the job, or {@code null} (404 over HTTP) when it is done, cancelled or
	 * unknown
	 */
	@ReadOperation
	public @Nullable JobInfo job(SecurityContext securityContext, @Selector String topic, @Selector String jobId) {
		JobInfo job = this.operations.find(topic, jobId).orElse(null);
		if (job == null || shows(securityContext)) {
			return job;
		}
		return job.withoutValues();
	}

	/**
	 * List the steps of a job's timeline, oldest first: empty when its topic records no
	 * timeline ({@code delayqueue.topics.<topic>.timeline}) or the job is unknown. Host
	 * names and error messages show only as the endpoint's {@link Show} setting allows
	 * for the caller.
	 * @param securityContext who is asking
	 * @param topic the topic
	 * @param jobId the job id
	 * @param part {@value #TIMELINE}
	 * @return the steps
	 * @throws InvalidEndpointRequestException if {@code part} is not {@value #TIMELINE}
	 */
	@ReadOperation
	public TimelineDescriptor timeline(SecurityContext securityContext, @Selector String topic, @Selector String jobId,
			@Selector String part) {
		if (!TIMELINE.equals(part)) {
			throw new InvalidEndpointRequestException(
					"Unknown part '" + part + "' of job '" + jobId + "'; use /delayqueue/{topic}/{jobId}/" + TIMELINE,
					"Unknown part of a job");
		}
		List<JobEvent> events = this.admin.timeline(topic, jobId);
		boolean shown = shows(securityContext);
		return new TimelineDescriptor(topic, jobId,
				shown ? events : events.stream().map(JobEvent::withoutValues).toList());
	}

	/**
	 * Cancel a delayed or ready job.
	 * @param topic the topic
	 * @param jobId the job id
	 * @return whether a pending job was removed; running, dead and unknown jobs are not
	 */
	@DeleteOperation
	public CancelDescriptor cancel(@Selector String topic, @Selector String jobId) {
		return new CancelDescriptor(this.admin.cancel(topic, jobId));
	}

	/**
	 * Perform an action on a topic's dead jobs: {@value #REQUEUE_DEAD} moves them back to
	 * ready with their attempts reset, {@value #PURGE_DEAD} deletes them.
	 * @param topic the topic
	 * @param action the action
	 * @param jobId the one dead job to act on, or {@code null} for all
	 * @return how many jobs were requeued or purged
	 * @throws InvalidEndpointRequestException if the action is missing or unknown
	 * @throws NoSuchDeadJobException if {@code jobId} names no dead job of the topic
	 */
	@WriteOperation
	public OperationResponseBody action(@Selector String topic, @Nullable String action, @Nullable String jobId) {
		if (REQUEUE_DEAD.equals(action)) {
			long requeued = (jobId != null) ? one(topic, jobId, this.admin.requeueDead(topic, jobId))
					: this.admin.requeueDead(topic);
			return new RequeueDescriptor(requeued);
		}
		if (PURGE_DEAD.equals(action)) {
			long purged = (jobId != null) ? one(topic, jobId, this.admin.purgeDead(topic, jobId))
					: this.admin.purgeDead(topic);
			return new PurgeDescriptor(purged);
		}
		String problem = (action != null) ? "Unknown action '" + action + "'" : "No action given";
		throw new InvalidEndpointRequestException(problem + "; send {\"action\": \"" + REQUEUE_DEAD
				+ "\"} or {\"action\": \"" + PURGE_DEAD + "\"}, with an optional \"jobId\"",
				(action != null) ? "Unknown action" : "Missing action");
	}

	private static long one(String topic, String jobId, boolean done) {
		if (!done) {
			throw new NoSuchDeadJobException("No dead job '" + jobId + "' in topic '" + topic + "'");
		}
		return 1;
	}

	/**
	 * Thrown when an action names a job that is not dead in its topic.
	 */
	public static class NoSuchDeadJobException extends RuntimeException {

		NoSuchDeadJobException(String message) {
			super(message);
		}

	}

	private static int countConsumers(List<ListenerDescriptor> listeners) {
		return (int) listeners.stream().filter(ListenerDescriptor::running).count();
	}

	/**
	 * The counts and listeners of every topic.
	 *
	 * @param topics the counts and listeners by topic name
	 * @param topicsWithoutListeners the topics no instance listens to, sorted
	 */
	public record QueuesDescriptor(Map<String, CountsDescriptor> topics,
			List<String> topicsWithoutListeners) implements OperationResponseBody {

	}

	/**
	 * How many jobs of a topic are in each state, and which listeners consume it.
	 *
	 * @param delayed jobs waiting for their due time
	 * @param ready due jobs waiting for a consumer
	 * @param running jobs delivered and not yet acknowledged
	 * @param dead jobs that failed for good
	 * @param paused whether the topic is paused: listeners claim none of its jobs
	 * @param consumers how many listeners run for it on all instances together
	 * @param listeners the listeners on every instance
	 */
	public record CountsDescriptor(long delayed, long ready, long running, long dead, boolean paused, int consumers,
			List<ListenerDescriptor> listeners) {

		static CountsDescriptor of(TopicStats stats, boolean paused, List<ListenerDescriptor> listeners) {
			return new CountsDescriptor(stats.delayed(), stats.ready(), stats.running(), stats.dead(), paused,
					countConsumers(listeners), listeners);
		}

	}

	/**
	 * One topic's counts and the listeners that consume it.
	 *
	 * @param topic the topic
	 * @param delayed jobs waiting for their due time
	 * @param ready due jobs waiting for a consumer
	 * @param running jobs delivered and not yet acknowledged
	 * @param dead jobs that failed for good
	 * @param paused whether the topic is paused: listeners claim none of its jobs
	 * @param consumers how many listeners run for it on all instances together
	 * @param listeners the listeners on every instance
	 * @param groups the groups whose ready jobs wait for their turn
	 */
	public record TopicDescriptor(String topic, long delayed, long ready, long running, long dead, boolean paused,
			int consumers, List<ListenerDescriptor> listeners,
			GroupsDescriptor groups) implements OperationResponseBody {

	}

	/**
	 * The groups of a topic whose ready jobs wait for their turn, see
	 * {@link DelayQueueAdmin#groups(String)}, each with how it stands against its own
	 * bounds. Group names are header values: they are hidden like the others
	 * ({@value #HIDDEN}).
	 *
	 * @param waiting how many groups have jobs waiting for their turn
	 * @param largest those with the most jobs waiting, most first
	 */
	public record GroupsDescriptor(long waiting, List<TopicGroups.Waiting> largest) {

		static GroupsDescriptor of(TopicGroups groups, boolean shown) {
			return new GroupsDescriptor(groups.groups(), (shown ? groups : groups.withoutNames()).largest());
		}

	}

	/**
	 * A listener on one of the instances, as that instance last published it.
	 *
	 * @param instance the instance id
	 * @param host the instance's host name
	 * @param id the listener id
	 * @param topics the topics it consumes, in priority order
	 * @param concurrency how many jobs it may run at once
	 * @param running whether it is started
	 */
	public record ListenerDescriptor(String instance, String host, String id, List<String> topics, int concurrency,
			boolean running) {

		static List<ListenerDescriptor> of(String topic, List<ListenerPresence.Instance> instances) {
			List<ListenerDescriptor> listeners = new ArrayList<>();
			for (ListenerPresence.Instance instance : instances) {
				for (ListenerPresence.Listener listener : instance.listeners()) {
					if (listener.topics().contains(topic)) {
						listeners.add(new ListenerDescriptor(instance.id(), instance.host(), listener.id(),
								listener.topics(), listener.concurrency(), listener.running()));
					}
				}
			}
			return listeners;
		}

	}

	/**
	 * A page of a topic's jobs in one state, oldest first.
	 *
	 * @param topic the topic
	 * @param state the state listed
	 * @param total how many jobs the topic has in that state
	 * @param offset how many were skipped
	 * @param jobs the page
	 */
	public record JobsDescriptor(String topic, String state, long total, int offset,
			List<JobRowDescriptor> jobs) implements OperationResponseBody {

	}

	/**
	 * One job of a page: no payload, no headers.
	 *
	 * @param id the job id
	 * @param dueAt when it is (or was last) due
	 * @param attempts deliveries made
	 * @param lastError the last failure, if any
	 * @param diedAt when a dead job died, {@code null} in the other states
	 */
	public record JobRowDescriptor(String id, Instant dueAt, int attempts, @Nullable String lastError,
			@Nullable Instant diedAt) {

		static JobRowDescriptor of(JobInfo job) {
			return new JobRowDescriptor(job.id(), job.dueAt(), job.attempts(), job.lastError(), job.diedAt());
		}

	}

	/**
	 * A job's timeline.
	 *
	 * @param topic the topic
	 * @param id the job id
	 * @param events the steps, oldest first
	 */
	public record TimelineDescriptor(String topic, String id, List<JobEvent> events) implements OperationResponseBody {

	}

	/**
	 * The outcome of a cancel.
	 *
	 * @param cancelled whether a pending job was removed
	 */
	public record CancelDescriptor(boolean cancelled) implements OperationResponseBody {

	}

	/**
	 * The outcome of a requeue.
	 *
	 * @param requeued how many dead jobs went back to ready
	 */
	public record RequeueDescriptor(long requeued) implements OperationResponseBody {

	}

	/**
	 * The outcome of a purge.
	 *
	 * @param purged how many dead jobs were deleted
	 */
	public record PurgeDescriptor(long purged) implements OperationResponseBody {

	}

}
