package io.github.delayqueue.internal.store;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the groups whose READY jobs wait for their turn in each queue of a topic (see
 * {@code lib/group-turns.lua}), one script call per queue in one round trip, and how the
 * largest stand against their own bounds (see {@code acquire-permits.lua}) in one more.
 *
 * @author delayqueue contributors
 */
final class GroupCounts {

	// Groups read per queue: enough to find the largest among many small ones, bounded so
	// that a topic with a million tenants answers quickly.
	private static final int GROUPS_PER_QUEUE = 1000;

	private final ScriptRunner scripts;

	private final DelayQueueKeys keys;

	GroupCounts(ScriptRunner scripts, DelayQueueKeys keys) {
		this.scripts = scripts;
		this.keys = keys;
	}

	WaitingGroups of(String topic, int most) {
		List<ScriptRunner.Call> calls = new ArrayList<>();
		for (String queue : this.keys.lookupQueues(topic)) {
			calls.add(new ScriptRunner.Call(DelayQueueScript.READ_GROUPS, List.of(this.keys.lookupTopic(queue).ready()),
					List.of(String.valueOf(GROUPS_PER_QUEUE))));
		}
		long groups = 0;
		Map<String, Long> waiting = new LinkedHashMap<>();
		for (List<Object> reply : this.scripts.runPipelined(calls)) {
			groups += ScriptRunner.asLong(reply.get(0));
			for (int i = 1; i + 1 < reply.size(); i += 2) {
				waiting.merge(String.valueOf(reply.get(i)), ScriptRunner.asLong(reply.get(i + 1)), Long::sum);
			}
		}
		List<Map.Entry<String, Long>> largest = waiting.entrySet()
			.stream()
			.sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()))
			.limit(most)
			.toList();
		List<Object> bounds = bounds(topic,
				largest.stream().map(Map.Entry::getKey).filter((g) -> !g.isEmpty()).toList());
		List<WaitingGroups.Group> shown = new ArrayList<>(largest.size());
		int named = 0;
		for (Map.Entry<String, Long> entry : largest) {
			if (entry.getKey().isEmpty()) {
				shown.add(new WaitingGroups.Group(null, entry.getValue(), 0, false));
			}
			else {
				shown.add(new WaitingGroups.Group(entry.getKey(), entry.getValue(),
						ScriptRunner.asLong(bounds.get(2 * named)),
						ScriptRunner.asLong(bounds.get(2 * named + 1)) > 0));
				named++;
			}
		}
		return new WaitingGroups(groups, shown);
	}

	// How each named group stands against its own bounds, in the topic's hash tag.
	private List<Object> bounds(String topic, List<String> groups) {
		if (groups.isEmpty()) {
			return List.of();
		}
		return this.scripts.run(DelayQueueScript.READ_GROUP_BOUNDS, List.of(this.keys.topic(topic).permits()),
				groups.toArray(String[]::new));
	}

}
