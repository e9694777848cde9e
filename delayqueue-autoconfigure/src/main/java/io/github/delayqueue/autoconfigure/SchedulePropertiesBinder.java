package io.github.delayqueue.autoconfigure;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.github.delayqueue.internal.schedule.ScheduleChecks;
import io.github.delayqueue.internal.schedule.ScheduleDefinition;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.core.env.Environment;

/**
 * Binds {@code delayqueue.schedules.*} keyed by full schedule ids, which may hold dots
 * (see {@link KeyedPropertiesBinder}), and checks every schedule, each problem named by
 * its key: a bad cron expression, an unknown zone, both or neither of {@code cron} and
 * {@code every}, a bad topic or id.
 *
 * @author delayqueue contributors
 */
final class SchedulePropertiesBinder {

	private static final String ROOT = "delayqueue.schedules";

	private static final KeyedPropertiesBinder<ScheduleProperties> BINDER = new KeyedPropertiesBinder<>(ROOT,
			ScheduleProperties.class, ScheduleProperties::new, "schedule", "Schedule id", ScheduleChecks.ID_RULE);

	// Payloads bound from YAML are maps, lists, strings, numbers and booleans: Jackson's
	// defaults write them as the application's mapper would.
	private static final JsonMapper YAML_VALUES = JsonMapper.builder().build();

	private SchedulePropertiesBinder() {
	}

	/**
	 * Bind the schedules declared under {@code delayqueue.schedules}.
	 * @param environment the environment to bind from
	 * @param problems where unknown keys and values that cannot be converted are recorded
	 * @return the settings, by schedule id
	 */
	static Map<String, ScheduleProperties> bind(Environment environment, ConfigurationProblems problems) {
		return BINDER.bind(environment, problems);
	}

	/**
	 * Check every bound schedule.
	 * @param schedules the settings, by schedule id
	 * @param problems where invalid values are recorded, each under its key
	 */
	static void check(Map<String, ScheduleProperties> schedules, ConfigurationProblems problems) {
		schedules.forEach((id, schedule) -> check(id, schedule, YAML_VALUES, problems));
	}

	/**
	 * Turn bound schedules into definitions.
	 * @param schedules the settings, by schedule id
	 * @param jsonMapper writes the payloads
	 * @return the definitions
	 * @throws InvalidDelayQueuePropertiesException naming every problem
	 */
	static List<ScheduleDefinition> definitions(Map<String, ScheduleProperties> schedules, JsonMapper jsonMapper) {
		ConfigurationProblems problems = new ConfigurationProblems();
		List<ScheduleDefinition> definitions = new ArrayList<>();
		schedules.forEach((id, schedule) -> {
			ScheduleDefinition definition = check(id, schedule, jsonMapper, problems);
			if (definition != null) {
				definitions.add(definition);
			}
		});
		problems.throwIfAny();
		return definitions;
	}

	// Spring Boot binds a YAML list inside a map of objects as a map keyed "0", "1", ...:
	// turned back into a list, so that the payload's JSON has the array the YAML wrote.
	private static Object payload(Object value) {
		if (!(value instanceof Map<?, ?> map)) {
			return value;
		}
		Map<Object, Object> entries = new LinkedHashMap<>();
		map.forEach((key, entry) -> entries.put(key, payload(entry)));
		for (int i = 0; i < entries.size(); i++) {
			if (!entries.containsKey(String.valueOf(i))) {
				return entries;
			}
		}
		List<Object> list = new ArrayList<>(entries.size());
		for (int i = 0; i < entries.size(); i++) {
			list.add(entries.get(String.valueOf(i)));
		}
		return entries.isEmpty() ? entries : list;
	}

	private static @Nullable ScheduleDefinition check(String id, ScheduleProperties schedule, JsonMapper jsonMapper,
			ConfigurationProblems problems) {
		String key = ROOT + "." + id;
		ScheduleChecks.Parts parts = new ScheduleChecks.Parts(id, schedule.getTopic(), schedule.getCron(),
				schedule.getEvery(), schedule.getZone(), payload(schedule.getPayload()), schedule.getMisfire(),
				schedule.getCatchUpLimit(), schedule.getOverlap(), schedule.isEnabled());
		return ScheduleChecks.check(parts, jsonMapper, new ScheduleChecks.Problems() {

			private int count;

			@Override
			public void invalid(String field, @Nullable Object value, String reason) {
				this.count++;
				problems.invalid(field.equals("id") ? key : key + "." + field, value, reason);
			}

			@Override
			public int count() {
				return this.count;
			}

		});
	}

}
