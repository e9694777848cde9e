package io.github.delayqueue.internal.dashboard;

import java.time.Duration;

import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueOperations;
import org.jspecify.annotations.Nullable;

/**
 * What the dashboard does to one job, whether it is asked for that job alone or for
 * several at once: each action acts only on a job in a state it applies to.
 *
 * @author delayqueue contributors
 */
enum DashboardJobAction {

	/**
	 * A dead job back to ready, with its attempts reset.
	 */
	REQUEUE("requeue") {
		@Override
		boolean apply(DelayQueueAdmin admin, DelayQueueOperations operations, String topic, String id) {
			return admin.requeueDead(topic, id);
		}
	},

	/**
	 * A pending job cancelled, or a dead one deleted.
	 */
	DELETE("delete") {
		@Override
		boolean apply(DelayQueueAdmin admin, DelayQueueOperations operations, String topic, String id) {
			return admin.cancel(topic, id) || admin.purgeDead(topic, id);
		}
	},

	/**
	 * A pending job due now.
	 */
	RUN_NOW("run-now") {
		@Override
		boolean apply(DelayQueueAdmin admin, DelayQueueOperations operations, String topic, String id) {
			return operations.reschedule(topic, id, Duration.ZERO);
		}
	};

	private final String name;

	DashboardJobAction(String name) {
		this.name = name;
	}

	/**
	 * Act on one job.
	 * @param admin acts as the dashboard
	 * @param operations reschedules
	 * @param topic the topic
	 * @param id the job id
	 * @return whether the job was in a state the action applies to and it acted
	 */
	abstract boolean apply(DelayQueueAdmin admin, DelayQueueOperations operations, String topic, String id);

	/**
	 * Return the name the API uses.
	 * @return the name, such as {@code run-now}
	 */
	String apiName() {
		return this.name;
	}

	/**
	 * Return the action the API names.
	 * @param name the name, such as {@code run-now}
	 * @return the action
	 * @throws IllegalArgumentException if no action has that name
	 */
	static DashboardJobAction named(@Nullable String name) {
		for (DashboardJobAction action : values()) {
			if (action.name.equals(name)) {
				return action;
			}
		}
		throw new IllegalArgumentException("Field action must be requeue, delete or run-now, was "
				+ ((name != null) ? DashboardBulkActions.quoted(name) : "missing"));
	}

}
