package io.github.delayqueue.test;

import java.util.ArrayList;
import java.util.List;

import tools.jackson.databind.JsonNode;

/**
 * Reads a job's timeline as the endpoint and the dashboard answer it: a JSON object whose
 * {@code events} each have a {@code type}.
 */
public final class TimelineJson {

	private TimelineJson() {
	}

	/**
	 * Return the types of the steps, oldest first.
	 * @param timeline the answer
	 * @return the types, such as {@code SENT}
	 */
	public static List<String> types(JsonNode timeline) {
		List<String> types = new ArrayList<>();
		timeline.path("events").forEach((event) -> types.add(event.path("type").asString()));
		return types;
	}

	/**
	 * Return the oldest step of a type.
	 * @param timeline the answer
	 * @param type the type, such as {@code FAILED}
	 * @return the step
	 * @throws AssertionError if the timeline has no step of the type
	 */
	public static JsonNode step(JsonNode timeline, String type) {
		for (JsonNode event : timeline.path("events")) {
			if (type.equals(event.path("type").asString())) {
				return event;
			}
		}
		throw new AssertionError("No " + type + " step in " + timeline);
	}

}
