package io.github.delayqueue.autoconfigure;

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
 * under {@code delayqueue.topics} are left to {@link TopicPropertiesBinder}, which knows
 * where a dotted topic name ends.
 *
 * @author delayqueue contributors
 */
final class UnknownPropertyCheck {

	private static final ConfigurationPropertyName ROOT = ConfigurationPropertyName.of("delayqueue");

	private static final ConfigurationPropertyName TOPICS = ConfigurationPropertyName.of("delayqueue.topics");

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
				iterable.filter((name) -> ROOT.isAncestorOf(name) && !TOPICS.isAncestorOf(name)).forEach((name) -> {
					if (!KNOWN.isKnown(name, ROOT.getNumberOfElements(), dashesSplit)) {
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

	private static String hint(ConfigurationPropertyName name) {
		String key = name.subName(ROOT.getNumberOfElements()).toString();
		String closest = KNOWN.closest(key);
		if (closest != null) {
			return "did you mean 'delayqueue." + closest + "'?";
		}
		return KNOWN.describeGroupOf("delayqueue", name, ROOT.getNumberOfElements());
	}

}
