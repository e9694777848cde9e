package io.github.delayqueue.internal.schedule;

import java.util.function.Supplier;

import io.github.delayqueue.internal.store.JobStore;

/**
 * Makes schedules take effect in their topics, and resumes them: the topic is registered
 * (so that schedulers and listeners find it), a call built on a bad estimate of the Redis
 * clock is built again, and every instance's tick loop hears of the change.
 *
 * @author delayqueue contributors
 */
final class ScheduleActivator {

	// A call is refused only when the estimate of the Redis clock was off; the refusal
	// carries the Redis time, so the second call is right.
	private static final int ATTEMPTS = 3;

	private final ScheduleStore store;

	private final JobStore jobStore;

	private final RedisClock clock;

	ScheduleActivator(ScheduleStore store, JobStore jobStore, RedisClock clock) {
		this.store = store;
		this.jobStore = jobStore;
		this.clock = clock;
	}

	/**
	 * Let a definition take effect in its topic.
	 * @param definition the definition
	 * @return whether anything changed
	 */
	boolean activate(ScheduleDefinition definition) {
		this.jobStore.registerTopic(definition.topic());
		ScheduleStore.Change change = retried(
				() -> this.store.activate(definition, TickWindow.around(definition.ticks(), this.clock.now())));
		// Ticks fell due under the old definition while no instance decided them: the new
		// one takes them over from its first tick at or after the state's next, unless
		// another instance decided them meanwhile and the state moved on.
		for (int attempt = 1; attempt < ATTEMPTS && "behind".equals(change.status()); attempt++) {
			long behind = change.next();
			change = retried(() -> this.store.activate(definition,
					TickWindow.around(definition.ticks(), this.clock.now()), behind));
		}
		if ("behind".equals(change.status())) {
			throw new IllegalStateException(
					"Schedule '" + definition.id() + "' kept moving while its definition " + "changed; try again");
		}
		changed(definition, change);
		return !"same".equals(change.status());
	}

	/**
	 * Resume a paused schedule from its first tick after now.
	 * @param definition its definition
	 * @return the outcome
	 */
	ScheduleStore.Change resume(ScheduleDefinition definition) {
		ScheduleStore.Change change = retried(
				() -> this.store.resume(definition, TickWindow.around(definition.ticks(), this.clock.now())));
		changed(definition, change);
		return change;
	}

	/**
	 * Remove a schedule from a topic and tell every instance.
	 * @param topic the topic
	 * @param id the schedule's id
	 */
	void remove(String topic, String id) {
		this.store.remove(topic, id);
		this.store.announce(id);
	}

	private ScheduleStore.Change retried(Supplier<ScheduleStore.Change> call) {
		ScheduleStore.Change change = call.get();
		for (int attempt = 1; attempt < ATTEMPTS && "clock".equals(change.status()); attempt++) {
			change = call.get();
		}
		if ("clock".equals(change.status())) {
			throw new IllegalStateException("The Redis clock moved while a schedule changed; try again");
		}
		return change;
	}

	private void changed(ScheduleDefinition definition, ScheduleStore.Change change) {
		if (!"same".equals(change.status())) {
			this.store.announce(definition.id());
		}
	}

}
