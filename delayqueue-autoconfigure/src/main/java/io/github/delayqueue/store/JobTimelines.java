package io.github.delayqueue.store;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * Reads job timelines: the list of a job's steps in the queue that holds it, found as
 * {@link JobLookup} finds a job, and its entries parsed.
 *
 * @author delayqueue contributors
 */
final class JobTimelines {

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
	 * @return its steps, the oldest first; empty when none is recorded
	 */
	List<StoredEvent> read(String topic, String id) {
		return this.lookup.byId(topic, id,
				(queue) -> new ScriptRunner.Call(DelayQueueScript.READ_TIMELINE,
						List.of(this.keys.lookupTopic(queue).timeline(id)), List.of()),
				(queue, reply) -> parse(reply), (events) -> !events.isEmpty());
	}

	private static List<StoredEvent> parse(List<Object> entries) {
		List<StoredEvent> events = new ArrayList<>(entries.size());
		for (Object entry : entries) {
			StoredEvent event = parse(String.valueOf(entry));
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
