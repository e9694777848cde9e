package io.github.delayqueue.internal.store;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * Reads job timelines: a job's steps from its queue's step log and from its own list (see
 * {@code timeline} in {@code lib/timeline.lua}), in the job's own queue first, then in
 * the topic's other queues, the log read in calls of a bounded size.
 *
 * @author delayqueue contributors
 */
final class JobTimelines {

	// Log elements one call reads at most: a long log then holds Redis up a short while
	// per call, not for the whole read.
	private static final int LOG_ELEMENTS_PER_CALL = 200;

	private final ScriptRunner scripts;

	private final DelayQueueKeys keys;

	private final JobLookup lookup;

	JobTimelines(ScriptRunner scripts, DelayQueueKeys keys, JobLookup lookup) {
		this.scripts = scripts;
		this.keys = keys;
		this.lookup = lookup;
	}

	/**
	 * Read a job's timeline.
	 * @param topic the topic
	 * @param id the job id
	 * @param cap the most recent steps to return
	 * @return its steps, the oldest first; empty when none is recorded
	 */
	List<StoredEvent> read(String topic, String id, int cap) {
		String home = this.keys.lookupQueueOf(topic, id);
		List<String> queues = new ArrayList<>();
		queues.add(home);
		this.lookup.queues(topic).stream().filter((queue) -> !queue.equals(home)).forEach(queues::add);
		for (String queue : queues) {
			List<String> steps = readQueue(queue, id);
			if (!steps.isEmpty()) {
				List<StoredEvent> events = parse(steps);
				return List.copyOf(events.subList(Math.max(0, events.size() - cap), events.size()));
			}
		}
		return List.of();
	}

	private List<String> readQueue(String queue, String id) {
		TopicKeys k = this.keys.lookupTopic(queue);
		List<String> keys = List.of(k.timeline(id), k.timelineLogSlots(), k.jobs(), k.finished());
		String from = "";
		String to = "";
		String cursor = "";
		String position = "0";
		List<String> list = null;
		List<String> log = new ArrayList<>();
		do {
			List<Object> reply = this.scripts.run(new ScriptRunner.Call(DelayQueueScript.READ_TIMELINE, keys,
					List.of(id, from, to, cursor, position, String.valueOf(LOG_ELEMENTS_PER_CALL))));
			from = String.valueOf(reply.get(0));
			to = String.valueOf(reply.get(1));
			cursor = String.valueOf(reply.get(2));
			position = String.valueOf(reply.get(3));
			int listed = ((Number) reply.get(4)).intValue();
			if (list == null) {
				list = strings(reply.subList(5, 5 + listed));
			}
			log.addAll(strings(reply.subList(5 + listed, reply.size())));
		}
		while (!cursor.isEmpty());
		return steps(list, log);
	}

	/**
	 * Put a job's steps together: those of its list that the log no longer holds (they
	 * are older than all the log holds), then the log's, from the last {@code SENT} (a
	 * new job of the id) or after the last purge mark.
	 * @param list the entries of the job's list
	 * @param log the job's entries in the log, oldest first
	 * @return the entries of the job's timeline, oldest first
	 */
	private static List<String> steps(List<String> list, List<String> log) {
		Map<String, Integer> logged = new HashMap<>();
		log.forEach((entry) -> logged.merge(entry, 1, Integer::sum));
		List<String> steps = new ArrayList<>();
		for (String entry : list) {
			Integer count = logged.get(entry);
			if (count == null || count == 0) {
				steps.add(entry);
			}
			else {
				logged.put(entry, count - 1);
			}
		}
		steps.addAll(log);
		for (int i = steps.size() - 1; i >= 0; i--) {
			String entry = steps.get(i);
			if (entry.startsWith("S|")) {
				return steps.subList(i, steps.size());
			}
			if (entry.startsWith("~|")) {
				return steps.subList(i + 1, steps.size());
			}
		}
		return steps;
	}

	private static List<String> strings(List<Object> values) {
		List<String> strings = new ArrayList<>(values.size());
		values.forEach((value) -> strings.add(String.valueOf(value)));
		return strings;
	}

	private static List<StoredEvent> parse(List<String> entries) {
		List<StoredEvent> events = new ArrayList<>(entries.size());
		for (String entry : entries) {
			StoredEvent event = parse(entry);
			if (event != null) {
				events.add(event);
			}
		}
		return events;
	}

	// type|at ms base 36|attempt|instance|due ms base 36|detail; the detail may hold '|'.
	static @Nullable StoredEvent parse(String entry) {
		String[] fields = entry.split("\\|", 6);
		if (fields.length < 6 || fields[0].length() != 1) {
			return null;
		}
		StoredEvent.Type type = StoredEvent.Type.of(fields[0].charAt(0));
		if (type == null) {
			return null;
		}
		return new StoredEvent(Long.parseLong(fields[1], 36), type, emptyAsNull(fields[3]),
				fields[2].isEmpty() ? 0 : Integer.parseInt(fields[2]),
				fields[4].isEmpty() ? -1 : Long.parseLong(fields[4], 36), emptyAsNull(fields[5]));
	}

	private static @Nullable String emptyAsNull(String field) {
		return field.isEmpty() ? null : field;
	}

}
