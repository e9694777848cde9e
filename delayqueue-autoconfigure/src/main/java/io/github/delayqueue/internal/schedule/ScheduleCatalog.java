package io.github.delayqueue.internal.schedule;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * What the tick loop of this instance knows of every schedule in Redis: its definition
 * and its next tick, read in whole from time to time and kept up to date by the replies
 * of the scripts in between. Used by the loop's thread only.
 *
 * @author delayqueue contributors
 */
final class ScheduleCatalog {

	private static final Log logger = LogFactory.getLog(ScheduleCatalog.class);

	private final ScheduleStore store;

	private Map<String, Entry> entries = new LinkedHashMap<>();

	ScheduleCatalog(ScheduleStore store) {
		this.store = store;
	}

	/**
	 * Read every schedule again: the registry, then every topic's definitions and states,
	 * in two round trips.
	 */
	void reload() {
		Map<String, String> registry = this.store.registry().topics();
		Map<String, List<String>> topics = new LinkedHashMap<>();
		registry.values().forEach((topic) -> topics.put(topic, List.of()));
		Map<String, TopicSchedules> read = this.store.read(topics);
		Map<String, Entry> entries = new LinkedHashMap<>();
		registry.forEach((id, topic) -> {
			TopicSchedules schedules = read.get(topic);
			String json = schedules.definitions().get(id);
			ScheduleState state = schedules.states().get(id);
			if (json == null || state == null) {
				return;
			}
			try {
				ScheduleDefinition definition = ScheduleDefinition.fromJson(id, json, this.store.jsonMapper());
				if (definition.hash(this.store.jsonMapper()).equals(state.hash())) {
					entries.put(id, new Entry(definition, state.next(), state.paused()));
				}
			}
			catch (IllegalArgumentException ex) {
				logger.warn("Ignoring schedule '" + id + "' of topic '" + topic + "': " + ex.getMessage());
			}
		});
		this.entries = entries;
	}

	/**
	 * Return the schedules whose next tick is due by a time.
	 * @param now the estimated Redis time
	 * @return the due schedules
	 */
	List<Entry> dueBy(long now) {
		List<Entry> due = new ArrayList<>();
		for (Entry entry : this.entries.values()) {
			if (entry.isActive() && entry.next <= now) {
				due.add(entry);
			}
		}
		return due;
	}

	/**
	 * Return the earliest next tick of any active schedule.
	 * @return epoch ms, or {@link Long#MAX_VALUE} when none ticks
	 */
	long earliestNext() {
		long earliest = Long.MAX_VALUE;
		for (Entry entry : this.entries.values()) {
			if (entry.isActive() && entry.next < earliest) {
				earliest = entry.next;
			}
		}
		return earliest;
	}

	/**
	 * Return a schedule known.
	 * @param id its id
	 * @return the schedule, or {@code null} if unknown
	 */
	@Nullable Entry entry(String id) {
		return this.entries.get(id);
	}

	/**
	 * Return the number of schedules known.
	 * @return the count
	 */
	int size() {
		return this.entries.size();
	}

	/**
	 * Return each schedule's definition hash, by id.
	 * @return the hashes
	 */
	Map<String, String> hashes() {
		Map<String, String> hashes = new HashMap<>();
		this.entries.forEach((id, entry) -> hashes.put(id, entry.definition.hash(this.store.jsonMapper())));
		return hashes;
	}

	/**
	 * A schedule as the loop knows it.
	 */
	static final class Entry {

		private final ScheduleDefinition definition;

		private long next;

		private boolean paused;

		Entry(ScheduleDefinition definition, long next, boolean paused) {
			this.definition = definition;
			this.next = next;
			this.paused = paused;
		}

		ScheduleDefinition definition() {
			return this.definition;
		}

		long next() {
			return this.next;
		}

		void next(long next) {
			this.next = next;
		}

		void paused() {
			this.paused = true;
		}

		boolean isActive() {
			return !this.paused && this.definition.enabled() && this.next > 0;
		}

	}

}
