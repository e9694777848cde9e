package io.github.delayqueue.store;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the groups whose READY jobs wait for their turn in each queue of a topic (see
 * {@code claim.lua}), one script call per queue in one round trip.
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
		List<WaitingGroups.Group> largest = waiting.entrySet()
			.stream()
			.sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()))
			.limit(most)
			.map((entry) -> new WaitingGroups.Group(entry.getKey().isEmpty() ? null : entry.getKey(), entry.getValue()))
			.toList();
		return new WaitingGroups(groups, largest);
	}

}
