package io.github.delayqueue.actuate;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.github.delayqueue.core.JobConstraints;
import io.github.delayqueue.core.JobInfo;
import io.github.delayqueue.core.JobStore;
import io.github.delayqueue.core.TopicStats;
import io.github.delayqueue.listener.DelayedJobListenerContainer;
import io.github.delayqueue.listener.DelayedJobListenerEndpointRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

/**
 * The {@code delayqueue} Actuator endpoint: job counts per topic and state, the listeners
 * of this instance, one job's details, and the two write operations an operator needs
 * (cancel a pending job, requeue dead jobs).
 * <p>
 * Only the single-job read shows a payload; the other operations show counts.
 * <ul>
 * <li>{@code GET /actuator/delayqueue}: counts of every topic</li>
 * <li>{@code GET /actuator/delayqueue/{topic}}: one topic's counts and its listeners on
 * this instance</li>
 * <li>{@code GET /actuator/delayqueue/{topic}/{jobId}}: the job, 404 when absent</li>
 * <li>{@code DELETE /actuator/delayqueue/{topic}/{jobId}}: cancel a delayed or ready
 * job</li>
 * <li>{@code POST /actuator/delayqueue/{topic}} with {@code {"action": "requeue-dead"}}:
 * every dead job of the topic back to ready</li>
 * </ul>
 *
 * @author delayqueue contributors
 */
@Endpoint(id = "delayqueue")
public class DelayQueueEndpoint {

	/**
	 * The action of the write operation that requeues dead jobs.
	 */
	public static final String REQUEUE_DEAD = "requeue-dead";

	private final JobStore store;

	private final ObjectProvider<DelayedJobListenerEndpointRegistry> listeners;

	/**
	 * Create the endpoint.
	 * @param store where jobs are read and changed
	 * @param listeners the registry of this instance's listeners, absent on instances
	 * that only send jobs
	 */
	public DelayQueueEndpoint(JobStore store, ObjectProvider<DelayedJobListenerEndpointRegistry> listeners) {
		this.store = store;
		this.listeners = listeners;
	}

	/**
	 * Count the jobs of every topic per state.
	 * @return the counts by topic
	 */
	@ReadOperation
	public QueuesDescriptor queues() {
		Map<String, CountsDescriptor> topics = new LinkedHashMap<>();
		for (String topic : this.store.topics()) {
			topics.put(topic, CountsDescriptor.of(this.store.stats(topic)));
		}
		return new QueuesDescriptor(topics);
	}

	/**
	 * Count one topic's jobs per state and list the listeners of this instance that
	 * consume it.
	 * @param topic the topic
	 * @return the counts and listeners
	 */
	@ReadOperation
	public TopicDescriptor topic(@Selector String topic) {
		checkTopic(topic);
		TopicStats stats = this.store.stats(topic);
		DelayedJobListenerEndpointRegistry registry = this.listeners.getIfAvailable();
		List<ListenerDescriptor> consumers = (registry != null) ? registry.getListenerContainers()
			.stream()
			.filter((container) -> container.getTopics().contains(topic))
			.map(ListenerDescriptor::of)
			.toList() : List.of();
		return new TopicDescriptor(topic, stats.delayed(), stats.ready(), stats.running(), stats.dead(), consumers);
	}

	/**
	 * Show one job, payload included.
	 * @param topic the topic
	 * @param jobId the job id
	 * @return the job, or {@code null} (404 over HTTP) when it is done, cancelled or
	 * unknown
	 */
	@ReadOperation
	public @Nullable JobInfo job(@Selector String topic, @Selector String jobId) {
		checkTopic(topic);
		return this.store.find(topic, jobId).orElse(null);
	}

	/**
	 * Cancel a delayed or ready job.
	 * @param topic the topic
	 * @param jobId the job id
	 * @return whether a pending job was removed; running, dead and unknown jobs are not
	 */
	@DeleteOperation
	public CancelDescriptor cancel(@Selector String topic, @Selector String jobId) {
		checkTopic(topic);
		return new CancelDescriptor(this.store.cancel(topic, jobId));
	}

	/**
	 * Perform an action on a topic; {@value #REQUEUE_DEAD} moves every dead job back to
	 * ready with its attempts reset.
	 * @param topic the topic
	 * @param action the action
	 * @return how many jobs were requeued
	 */
	@WriteOperation
	public RequeueDescriptor action(@Selector String topic, String action) {
		checkTopic(topic);
		if (!REQUEUE_DEAD.equals(action)) {
			throw new InvalidEndpointRequestException("Unknown action '" + action + "'; supported: " + REQUEUE_DEAD,
					"Unknown action");
		}
		return new RequeueDescriptor(this.store.requeueDead(topic, null));
	}

	private static void checkTopic(String topic) {
		if (!JobConstraints.isValidTopic(topic)) {
			throw new InvalidEndpointRequestException("Invalid topic name '" + topic + "'", "Invalid topic name");
		}
	}

	/**
	 * The counts of every topic.
	 *
	 * @param topics the counts by topic name
	 */
	public record QueuesDescriptor(Map<String, CountsDescriptor> topics) implements OperationResponseBody {

	}

	/**
	 * How many jobs of a topic are in each state.
	 *
	 * @param delayed jobs waiting for their due time
	 * @param ready due jobs waiting for a consumer
	 * @param running jobs delivered and not yet acknowledged
	 * @param dead jobs that failed for good
	 */
	public record CountsDescriptor(long delayed, long ready, long running, long dead) {

		static CountsDescriptor of(TopicStats stats) {
			return new CountsDescriptor(stats.delayed(), stats.ready(), stats.running(), stats.dead());
		}

	}

	/**
	 * One topic's counts and the listeners of this instance that consume it.
	 *
	 * @param topic the topic
	 * @param delayed jobs waiting for their due time
	 * @param ready due jobs waiting for a consumer
	 * @param running jobs delivered and not yet acknowledged
	 * @param dead jobs that failed for good
	 * @param listeners the listeners
	 */
	public record TopicDescriptor(String topic, long delayed, long ready, long running, long dead,
			List<ListenerDescriptor> listeners) implements OperationResponseBody {

	}

	/**
	 * A listener running on this instance.
	 *
	 * @param id the listener id
	 * @param topics the topics it consumes, in priority order
	 * @param concurrency how many jobs it may run at once
	 * @param activeJobs how many jobs it is running now
	 * @param running whether it is started
	 */
	public record ListenerDescriptor(String id, List<String> topics, int concurrency, int activeJobs, boolean running) {

		static ListenerDescriptor of(DelayedJobListenerContainer container) {
			return new ListenerDescriptor(container.getListenerId(), container.getTopics(), container.getConcurrency(),
					container.getActiveJobs(), container.isRunning());
		}

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

}
