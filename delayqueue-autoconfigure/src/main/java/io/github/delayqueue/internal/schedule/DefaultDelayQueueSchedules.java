package io.github.delayqueue.internal.schedule;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.github.delayqueue.core.DelayQueueSchedules;
import io.github.delayqueue.core.InvalidScheduleException;
import io.github.delayqueue.core.JobConstraints;
import io.github.delayqueue.core.RecurringSchedule;
import io.github.delayqueue.core.ScheduleInfo;
import io.github.delayqueue.core.ScheduleRun;
import io.github.delayqueue.core.UnknownScheduleException;
import org.jspecify.annotations.Nullable;

/**
 * The default {@link DelayQueueSchedules}: every call reads or changes the schedules in
 * Redis, and announces a change to every instance's tick loop.
 *
 * @author delayqueue contributors
 */
public final class DefaultDelayQueueSchedules implements DelayQueueSchedules {

	private static final int MAX_NEXT_FIRE_TIMES = 100;

	private static final int ATTEMPTS = 3;

	private final ScheduleStore store;

	private final ScheduleActivator activator;

	private final ScheduleDeclarations declarations;

	DefaultDelayQueueSchedules(ScheduleStore store, ScheduleActivator activator, ScheduleDeclarations declarations) {
		this.store = store;
		this.activator = activator;
		this.declarations = declarations;
	}

	@Override
	public ScheduleInfo save(RecurringSchedule schedule) {
		ScheduleDefinition definition = ScheduleChecks.check(schedule, this.store.jsonMapper());
		String previousTopic = this.store.save(definition, this.declarations.live(), this.declarations.grace());
		if (previousTopic == null) {
			throw declared(definition.id(), "changed");
		}
		if (!previousTopic.isEmpty()) {
			this.activator.remove(previousTopic, definition.id());
		}
		this.activator.activate(definition);
		return find(definition.id()).orElseThrow(() -> unknown(definition.id()));
	}

	@Override
	public boolean delete(String id) {
		List<String> outcome = this.store.delete(checkId(id), this.declarations.live(), this.declarations.grace());
		switch (outcome.get(0)) {
			case "declared" -> throw declared(id, "deleted");
			case "absent" -> {
				return false;
			}
			default -> {
				if (!outcome.get(1).isEmpty()) {
					this.activator.remove(outcome.get(1), id);
				}
				return true;
			}
		}
	}

	@Override
	public void pause(String id) {
		String topic = topicOf(id);
		if ("absent".equals(this.store.pause(topic, id).status())) {
			throw unknown(id);
		}
		this.store.announce(id);
	}

	@Override
	public void resume(String id) {
		for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
			String status = this.activator.resume(definitionOf(id)).status();
			if ("absent".equals(status)) {
				throw unknown(id);
			}
			if (!"changed".equals(status)) {
				return;
			}
		}
		throw new IllegalStateException("Schedule '" + id + "' kept changing while it was resumed; try again");
	}

	@Override
	public String trigger(String id) {
		for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
			List<String> outcome = this.store.trigger(definitionOf(id));
			switch (outcome.get(0)) {
				case "triggered" -> {
					return outcome.get(1);
				}
				case "absent" -> throw unknown(id);
				default -> {
					// changed (read the definition again) or busy (a job of this very
					// millisecond is pending: the next call falls in another one)
				}
			}
		}
		throw new IllegalStateException("Schedule '" + id + "' could not be triggered; try again");
	}

	@Override
	public List<ScheduleInfo> list(int nextFireTimes) {
		return read(null, checkCount(nextFireTimes));
	}

	@Override
	public Optional<ScheduleInfo> find(String id, int nextFireTimes) {
		List<ScheduleInfo> found = read(checkId(id), checkCount(nextFireTimes));
		return found.isEmpty() ? Optional.empty() : Optional.of(found.get(0));
	}

	// Every schedule, or one: the registry and the declarations, then every topic's
	// schedules at once, in two round trips.
	private List<ScheduleInfo> read(@Nullable String only, int nextFireTimes) {
		ScheduleStore.Registry found = this.store.registry();
		Map<String, String> registry = found.topics();
		Map<String, String> declarations = found.declarations();
		Map<String, List<String>> byTopic = new LinkedHashMap<>();
		registry.forEach((id, topic) -> {
			if (only == null || only.equals(id)) {
				byTopic.computeIfAbsent(topic, (t) -> new ArrayList<>()).add(id);
			}
		});
		List<ScheduleInfo> infos = new ArrayList<>();
		this.store.read(byTopic).forEach((topic, schedules) -> byTopic.get(topic).forEach((id) -> {
			String json = schedules.definitions().get(id);
			ScheduleState state = schedules.states().get(id);
			if (json != null && state != null) {
				infos.add(info(ScheduleDefinition.fromJson(id, json, this.store.jsonMapper()), state,
						schedules.logs().getOrDefault(id, List.of()), isDeclared(declarations.get(id)), nextFireTimes));
			}
		}));
		infos.sort(Comparator.comparing(ScheduleInfo::id));
		return infos;
	}

	private ScheduleInfo info(ScheduleDefinition definition, ScheduleState state, List<ScheduleRun> runs,
			boolean declared, int nextFireTimes) {
		List<Instant> next = new ArrayList<>(nextFireTimes);
		if (!state.paused() && definition.enabled() && state.next() > 0) {
			for (long tick = state.next(); next.size() < nextFireTimes
					&& tick != Long.MAX_VALUE; tick = definition.ticks().next(tick)) {
				next.add(Instant.ofEpochMilli(tick));
			}
		}
		return new ScheduleInfo(definition.id(), definition.topic(), definition.cron(), definition.every(),
				definition.zone(), definition.payloadJson(), definition.misfire(), definition.catchUpLimit(),
				definition.overlap(), definition.enabled(), state.paused(), declared, next,
				(state.last() > 0) ? Instant.ofEpochMilli(state.last()) : null, state.outcome(), state.missed(), runs);
	}

	// A schedule's declarations are entries "hash topic first last kind" separated by
	// ';'; kind d is a declaration of an instance's configuration.
	private static boolean isDeclared(@Nullable String declarations) {
		if (declarations == null) {
			return false;
		}
		for (String entry : declarations.split(";")) {
			if (entry.endsWith(" d")) {
				return true;
			}
		}
		return false;
	}

	private String topicOf(String id) {
		String topic = this.store.registry().topics().get(checkId(id));
		if (topic == null) {
			throw unknown(id);
		}
		return topic;
	}

	private ScheduleDefinition definitionOf(String id) {
		String topic = topicOf(id);
		String json = this.store.read(Map.of(topic, List.of())).get(topic).definitions().get(id);
		if (json == null) {
			throw unknown(id);
		}
		return ScheduleDefinition.fromJson(id, json, this.store.jsonMapper());
	}

	private static String checkId(@Nullable String id) {
		if (!JobConstraints.isValidTopic(id)) {
			throw new InvalidScheduleException("Invalid schedule id '" + id + "': " + ScheduleChecks.ID_RULE);
		}
		return id;
	}

	private static int checkCount(int nextFireTimes) {
		if (nextFireTimes < 0 || nextFireTimes > MAX_NEXT_FIRE_TIMES) {
			throw new InvalidScheduleException(
					"Ask for 0 to " + MAX_NEXT_FIRE_TIMES + " next fire times, not " + nextFireTimes);
		}
		return nextFireTimes;
	}

	private static UnknownScheduleException unknown(String id) {
		return new UnknownScheduleException(id);
	}

	private static InvalidScheduleException declared(String id, String done) {
		return new InvalidScheduleException("Schedule '" + id + "' is declared by the configuration of a running "
				+ "instance (delayqueue.schedules or @Recurring); it can be " + done + " there only");
	}

}
