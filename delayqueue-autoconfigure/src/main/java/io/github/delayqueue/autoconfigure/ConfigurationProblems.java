package io.github.delayqueue.autoconfigure;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.origin.Origin;

/**
 * Collects what is wrong with the {@code delayqueue.*} configuration, so that start-up
 * reports every unknown key and invalid value together instead of the first one only.
 *
 * @author delayqueue contributors
 */
final class ConfigurationProblems {

	private final List<String> problems = new ArrayList<>();

	/**
	 * Record a key that names no property.
	 * @param name the key, in its canonical form
	 * @param origin where the key was set, if known
	 * @param hint what the user may have meant, or what the place takes
	 */
	void unknown(String name, @Nullable Origin origin, String hint) {
		add("Unknown property '" + name + "'" + from(origin) + "; " + hint);
	}

	/**
	 * Record a value that is not allowed.
	 * @param name the property
	 * @param value the value
	 * @param reason why the value is not allowed
	 */
	void invalid(String name, @Nullable Object value, String reason) {
		add("Property " + name + " with value '" + value + "' is invalid: " + reason);
	}

	/**
	 * Record a problem described in full.
	 * @param problem a sentence naming the property
	 */
	void add(String problem) {
		if (!this.problems.contains(problem)) {
			this.problems.add(problem);
		}
	}

	/**
	 * Throw if anything was recorded.
	 * @throws InvalidDelayQueuePropertiesException naming every problem
	 */
	void throwIfAny() {
		if (!this.problems.isEmpty()) {
			throw new InvalidDelayQueuePropertiesException(this.problems);
		}
	}

	private static String from(@Nullable Origin origin) {
		return (origin != null) ? " (from " + origin + ")" : "";
	}

}
