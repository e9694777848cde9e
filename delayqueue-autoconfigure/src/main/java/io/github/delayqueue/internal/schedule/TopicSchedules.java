package io.github.delayqueue.internal.schedule;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.github.delayqueue.core.JobState;
import io.github.delayqueue.core.ScheduleInfo.TickOutcome;
import io.github.delayqueue.core.ScheduleRun;
import io.github.delayqueue.internal.store.ScriptRunner;
import org.jspecify.annotations.Nullable;

/**
 * The schedules of one topic as {@code read-schedules.lua} read them.
 *
 * @param definitions each schedule's definition JSON, by id
 * @param states each schedule's state, by id
 * @param logs the latest ticks of the schedules whose logs were read, newest first, by id
 * @author delayqueue contributors
 */
record TopicSchedules(Map<String, String> definitions, Map<String, ScheduleState> states,
		Map<String, List<ScheduleRun>> logs) {

	static TopicSchedules of(List<Object> reply, List<String> logged) {
		int at = 0;
		Map<String, String> definitions = new LinkedHashMap<>();
		int count = (int) ScriptRunner.asLong(reply.get(at++));
		for (int i = 0; i < count; i++, at += 2) {
			definitions.put((String) reply.get(at), (String) reply.get(at + 1));
		}
		Map<String, ScheduleState> states = new LinkedHashMap<>();
		count = (int) ScriptRunner.asLong(reply.get(at++));
		for (int i = 0; i < count; i++, at += 2) {
			states.put((String) reply.get(at), ScheduleState.parse((String) reply.get(at + 1)));
		}
		Map<String, List<ScheduleRun>> logs = new LinkedHashMap<>();
		for (String id : logged) {
			count = (int) ScriptRunner.asLong(reply.get(at++));
			List<ScheduleRun> runs = new ArrayList<>(count);
			for (int i = 0; i < count; i++, at += 2) {
				runs.add(run(id, (String) reply.get(at), (String) reply.get(at + 1)));
			}
			logs.put(id, runs);
		}
		return new TopicSchedules(definitions, states, logs);
	}

	// An entry is 'tick:outcome:count'; the job state is one letter, or empty when the
	// job is gone.
	private static ScheduleRun run(String id, String entry, String jobState) {
		String[] parts = entry.split(":");
		long tick = Long.parseLong(parts[0]);
		TickOutcome outcome = ScheduleState.outcome(parts[1]);
		boolean withJob = outcome == TickOutcome.PRODUCED || outcome == TickOutcome.TRIGGERED;
		return new ScheduleRun(Instant.ofEpochMilli(tick), (outcome != null) ? outcome : TickOutcome.MISSED,
				Long.parseLong(parts[2]), withJob ? id + "@" + tick : null, jobState(jobState));
	}

	private static @Nullable JobState jobState(String code) {
		return switch (code) {
			case "d" -> JobState.DELAYED;
			case "r" -> JobState.READY;
			case "u" -> JobState.RUNNING;
			case "x" -> JobState.DEAD;
			default -> null;
		};
	}

}
