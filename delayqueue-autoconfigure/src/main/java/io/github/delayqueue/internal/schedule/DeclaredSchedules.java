package io.github.delayqueue.internal.schedule;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The schedules this application declares: those of {@code delayqueue.schedules} and
 * those of {@code @Recurring} methods, each id once.
 *
 * @author delayqueue contributors
 */
public final class DeclaredSchedules {

	private final Map<String, Declared> declared = new LinkedHashMap<>();

	/**
	 * Create the declarations of the configuration.
	 * @param configured the schedules of {@code delayqueue.schedules}
	 */
	public DeclaredSchedules(List<ScheduleDefinition> configured) {
		configured.forEach((definition) -> add(definition, "delayqueue.schedules." + definition.id()));
	}

	/**
	 * Declare a schedule.
	 * @param definition the schedule
	 * @param where where it is declared, for messages
	 * @throws IllegalStateException if another declaration has its id
	 */
	public synchronized void add(ScheduleDefinition definition, String where) {
		Declared other = this.declared.get(definition.id());
		if (other != null) {
			throw new IllegalStateException(where + " declares schedule '" + definition.id() + "', which "
					+ other.where() + " declares already");
		}
		this.declared.put(definition.id(), new Declared(definition, where));
	}

	/**
	 * Return every declared schedule.
	 * @return the schedules
	 */
	public synchronized List<ScheduleDefinition> definitions() {
		List<ScheduleDefinition> definitions = new ArrayList<>(this.declared.size());
		this.declared.values().forEach((declared) -> definitions.add(declared.definition()));
		return definitions;
	}

	/**
	 * Return every declared schedule with where it is declared.
	 * @return the declarations
	 */
	synchronized List<Declared> declarations() {
		return List.copyOf(this.declared.values());
	}

	/**
	 * A declared schedule.
	 *
	 * @param definition the schedule
	 * @param where where it is declared, for messages
	 */
	record Declared(ScheduleDefinition definition, String where) {

	}

}
