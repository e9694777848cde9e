package io.github.delayqueue.internal.schedule;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.github.delayqueue.core.RecurringSchedule.Misfire;
import io.github.delayqueue.core.UnknownScheduleException;
import org.jspecify.annotations.Nullable;

/**
 * Moves time forward for schedules, for tests that cannot wait for a tick: the ticks that
 * fall due within the span are decided by the same script as on time, as if the Redis
 * clock were that far ahead, so that their jobs, misfire and overlap policies, logs and
 * next ticks are those the schedule would have had. The schedules go on from their first
 * tick after the moved time; nothing else moves.
 *
 * @author delayqueue contributors
 */
final class ScheduleFastForward {

	// A call is refused when the estimate of the Redis clock was off, or when the tick
	// loop decided a tick meanwhile; the refusal corrects both.
	private static final int ATTEMPTS = 3;

	private final ScheduleStore store;

	private final RedisClock clock;

	ScheduleFastForward(ScheduleStore store, RedisClock clock) {
		this.store = store;
		this.clock = clock;
	}

	/**
	 * Decide the ticks of a topic's schedules that fall due within a span from now.
	 * @param topic the topic
	 * @param by the span
	 * @param only the one schedule to move, or {@code null} for all of the topic's
	 * @return how many jobs the ticks wrote
	 */
	long advance(String topic, Duration by, @Nullable String only) {
		long ahead = by.toMillis();
		long produced = 0;
		@Nullable String changed = null;
		for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
			List<ScheduleStore.TickRequest> requests = due(topic, ahead, only);
			if (requests.isEmpty()) {
				break;
			}
			boolean again = false;
			for (ScheduleStore.Produced call : this.store.produce(requests, ahead)) {
				for (ScheduleStore.Decision decision : call.decisions()) {
					produced += decision.produced();
					if ("done".equals(decision.status())) {
						changed = decision.definition().id();
					}
					again |= "clock".equals(decision.status()) || "stale".equals(decision.status());
				}
			}
			if (!again) {
				break;
			}
		}
		if (changed != null) {
			// The tick loops take the schedules' new next ticks.
			this.store.announce(changed);
		}
		return produced;
	}

	/**
	 * Decide a schedule's next tick now, as if its time had come.
	 * @param id the schedule's id
	 * @return the tick decided
	 * @throws UnknownScheduleException if there is no such schedule
	 * @throws IllegalStateException if the schedule has no next tick (paused or disabled)
	 */
	Instant runNextTick(String id) {
		ScheduleStore.Registry registry = this.store.registry();
		String topic = registry.topics().get(id);
		if (topic == null) {
			throw new UnknownScheduleException(id);
		}
		ScheduleState state = this.store.read(Map.of(topic, List.of())).get(topic).states().get(id);
		if (state == null || state.paused() || state.next() <= 0) {
			throw new IllegalStateException("Schedule '" + id + "' has no next tick: it is "
					+ ((state != null && state.paused()) ? "paused" : "disabled"));
		}
		advance(topic, Duration.ofMillis(Math.max(0, state.next() - registry.now())), id);
		return Instant.ofEpochMilli(state.next());
	}

	// The schedules of the topic whose next tick falls due by the moved time.
	private List<ScheduleStore.TickRequest> due(String topic, long ahead, @Nullable String only) {
		TopicSchedules schedules = this.store.read(Map.of(topic, List.of())).get(topic);
		long now = this.clock.now() + ahead;
		List<ScheduleStore.TickRequest> requests = new ArrayList<>();
		schedules.definitions().forEach((id, json) -> {
			ScheduleState state = schedules.states().get(id);
			if ((only != null && !only.equals(id)) || state == null || state.paused() || state.next() <= 0
					|| state.next() > now) {
				return;
			}
			ScheduleDefinition definition = ScheduleDefinition.fromJson(id, json, this.store.jsonMapper());
			if (definition.hash(this.store.jsonMapper()).equals(state.hash())) {
				int keep = (definition.misfire() == Misfire.FIRE_ALL) ? definition.catchUpLimit() : 1;
				requests.add(new ScheduleStore.TickRequest(definition, state.next(),
						TickWindow.after(definition.ticks(), state.next(), now, keep)));
			}
		});
		return requests;
	}

}
