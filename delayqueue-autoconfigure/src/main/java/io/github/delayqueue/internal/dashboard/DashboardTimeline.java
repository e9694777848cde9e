package io.github.delayqueue.internal.dashboard;

import java.util.List;
import java.util.function.Predicate;

import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.JobConstraints;
import io.github.delayqueue.core.JobEvent;

/**
 * The timeline of one job for the dashboard's job view, under
 * {@code <path>/api/topics/{topic}/jobs/{id}/timeline}: each step the job went through,
 * hidden as the job's own values are, and whether its topic records a timeline at all, so
 * that the page can tell an empty timeline from one that is not kept.
 *
 * @author delayqueue contributors
 */
final class DashboardTimeline {

	private final DelayQueueAdmin admin;

	private final Predicate<String> recorded;

	/**
	 * Create the timeline's part of the API.
	 * @param admin where timelines are read
	 * @param recorded tells whether a topic records a timeline
	 */
	DashboardTimeline(DelayQueueAdmin admin, Predicate<String> recorded) {
		this.admin = admin;
		this.recorded = recorded;
	}

	/**
	 * Read a job's timeline.
	 * @param topic the topic
	 * @param id the job id
	 * @param shown whether the user may see host names and error messages
	 * @return the timeline
	 * @throws io.github.delayqueue.core.InvalidJobException if the topic or the id is not
	 * one a job can have
	 */
	TimelineView read(String topic, String id, boolean shown) {
		JobConstraints.checkTopic(topic);
		JobConstraints.checkId(topic, id);
		boolean recorded = this.recorded.test(topic);
		List<JobEvent> events = recorded ? this.admin.timeline(topic, id) : List.of();
		return new TimelineView(topic, id, recorded,
				shown ? events : events.stream().map(JobEvent::withoutValues).toList());
	}

	/**
	 * A job's timeline.
	 *
	 * @param topic the topic
	 * @param id the job id
	 * @param recorded whether the topic records a timeline
	 * ({@code delayqueue.topics.<topic>.timeline})
	 * @param events the steps, oldest first
	 */
	record TimelineView(String topic, String id, boolean recorded, List<JobEvent> events) {

	}

}
