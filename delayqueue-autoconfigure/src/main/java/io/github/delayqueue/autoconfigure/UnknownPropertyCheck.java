package io.github.delayqueue.autoconfigure;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.boot.origin.Origin;
import org.springframework.core.env.Environment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * Finds keys under {@code delayqueue} that name no property of
 * {@link DelayQueueProperties}, in every property source (files, YAML, environment
 * variables, command line), so that a typo fails start-up instead of being ignored. Keys
 * under {@code delayqueue.topics} and {@code delayqueue.schedules} are left to
 * {@link KeyedPropertiesBinder}, which knows where a dotted topic name or schedule id
 * ends.
 *
 * @author delayqueue contributors
 */
final class UnknownPropertyCheck {

	private static final Log logger = LogFactory.getLog(UnknownPropertyCheck.class);

	private static final ConfigurationPropertyName ROOT = ConfigurationPropertyName.of("delayqueue");

	private static final ConfigurationPropertyName TOPICS = ConfigurationPropertyName.of("delayqueue.topics");

	private static final ConfigurationPropertyName SCHEDULES = ConfigurationPropertyName.of("delayqueue.schedules");

	private static final KnownProperties KNOWN = new KnownProperties(DelayQueueProperties.class);

	private UnknownPropertyCheck() {
	}

	/**
	 * Record every unknown key under {@code delayqueue} outside its topics.
	 * @param environment the environment whose sources are read
	 * @param problems where unknown keys are recorded
	 */
	static void check(Environment environment, ConfigurationProblems problems) {
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
			if (source instanceof IterableConfigurationPropertySource iterable) {
				boolean dashesSplit = isEnvironmentVariables(source);
				iterable
					.filter((name) -> ROOT.isAncestorOf(name) && !TOPICS.isAncestorOf(name)
							&& !SCHEDULES.isAncestorOf(name))
					.forEach((name) -> {
						if (KNOWN.isKnown(name, ROOT.getNumberOfElements(), dashesSplit)) {
							return;
						}
						if (dashesSplit && closest(name) == null) {
							ignoreForeignVariable(source, name);
						}
						else {
							problems.unknown(name.toString(), origin(source, name), hint(name));
						}
					});
			}
		}
	}

	static boolean isEnvironmentVariables(ConfigurationPropertySource source) {
		return source.getUnderlyingSource() instanceof SystemEnvironmentPropertySource;
	}

	static @Nullable Origin origin(ConfigurationPropertySource source, ConfigurationPropertyName name) {
		ConfigurationProperty property = source.getConfigurationProperty(name);
		return (property != null) ? property.getOrigin() : null;
	}

	// The environment is shared with other programs and scripts, some of which may
	// use the same prefix for their own variables (DELAYQUEUE_VERSION, say): a
	// variable that looks like no property of ours is most likely theirs, so it is
	// named but does not stop the application. One that is close to a property is a
	// typo and fails like any other.
	private static void ignoreForeignVariable(ConfigurationPropertySource source, ConfigurationPropertyName name) {
		Origin origin = origin(source, name);
		logger.warn("Ignoring " + ((origin != null) ? origin : name) + ": it maps to '" + name
				+ "', which is no delay queue property, and is not close to one");
	}

	// delayqueue.schedule.nightly.every: the keys under a topic or schedule are not in
	// KNOWN, so a typo of the group's own name is matched against the group alone.
	private static @Nullable String closestKeyedGroup(ConfigurationPropertyName name) {
		if (name.getNumberOfElements() <= ROOT.getNumberOfElements() + 1) {
			return null;
		}
		String group = name.getElement(ROOT.getNumberOfElements(), ConfigurationPropertyName.Form.UNIFORM);
		String rest = name.subName(ROOT.getNumberOfElements() + 1).toString();
		if (KNOWN.keys().stream().anyMatch((key) -> key.equals(group) || key.startsWith(group + "."))) {
			return null;
		}
		for (ConfigurationPropertyName keyed : new ConfigurationPropertyName[] { TOPICS, SCHEDULES }) {
			String candidate = keyed.getLastElement(ConfigurationPropertyName.Form.UNIFORM);
			if (KnownProperties.isTypo(group, candidate)) {
				return keyed.getLastElement(ConfigurationPropertyName.Form.ORIGINAL) + "." + rest;
			}
		}
		return null;
	}

	private static @Nullable String closest(ConfigurationPropertyName name) {
		return KNOWN.closest(name.subName(ROOT.getNumberOfElements()).toString());
	}

	private static String hint(ConfigurationPropertyName name) {
		String closest = closest(name);
		if (closest != null) {
			return "did you mean 'delayqueue." + closest + "'?";
		}
		String keyed = closestKeyedGroup(name);
		if (keyed != null) {
			return "did you mean 'delayqueue." + keyed + "'?";
		}
		return KNOWN.describeGroupOf("delayqueue", name, ROOT.getNumberOfElements());
	}

}
