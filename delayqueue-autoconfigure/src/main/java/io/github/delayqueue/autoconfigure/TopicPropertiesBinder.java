package io.github.delayqueue.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;

import io.github.delayqueue.autoconfigure.DelayQueueProperties.TopicProperties;

import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.core.env.Environment;

/**
 * Binds {@code delayqueue.topics.*} keyed by full topic names. Topic names may contain
 * dots ({@code orders.timeout}), which Spring Boot's map binding would split at the first
 * one; here a topic name runs up to where the rest of the key names a topic setting, so
 * that a topic may even be called {@code payments.retry}. The settings are those
 * {@link TopicProperties} declares. A key whose end names no setting is recorded as
 * unknown rather than ignored.
 *
 * @author delayqueue contributors
 */
final class TopicPropertiesBinder {

	private static final ConfigurationPropertyName ROOT = ConfigurationPropertyName.of("delayqueue.topics");

	private static final KnownProperties SETTINGS = new KnownProperties(TopicProperties.class);

	private TopicPropertiesBinder() {
	}

	/**
	 * Bind the settings of every topic named under {@code delayqueue.topics}.
	 * @param environment the environment to bind from
	 * @param problems where unknown keys and values that cannot be converted are recorded
	 * @return the settings, by topic name
	 */
	static Map<String, TopicProperties> bind(Environment environment, ConfigurationProblems problems) {
		Map<String, ConfigurationPropertyName> names = new LinkedHashMap<>();
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
			if (source instanceof IterableConfigurationPropertySource iterable) {
				boolean dashesSplit = UnknownPropertyCheck.isEnvironmentVariables(source);
				iterable.filter(ROOT::isAncestorOf)
					.forEach((name) -> topicName(source, name, dashesSplit, names, problems));
			}
		}
		Binder binder = Binder.get(environment);
		BindHandler recordFailures = new BindFailureRecorder(problems);
		Map<String, TopicProperties> topics = new LinkedHashMap<>();
		names.forEach((topic, name) -> topics.put(topic,
				binder.bind(name, Bindable.of(TopicProperties.class), recordFailures).orElseGet(TopicProperties::new)));
		return topics;
	}

	/**
	 * Return the settings a topic takes, for messages.
	 * @return the settings, comma separated
	 */
	static String settings() {
		return String.join(", ", SETTINGS.keys());
	}

	private static void topicName(ConfigurationPropertySource source, ConfigurationPropertyName name,
			boolean dashesSplit, Map<String, ConfigurationPropertyName> names, ConfigurationProblems problems) {
		int first = ROOT.getNumberOfElements();
		for (int end = first + 1; end < name.getNumberOfElements(); end++) {
			if (SETTINGS.isKnown(name, end, dashesSplit)) {
				StringBuilder topic = new StringBuilder();
				for (int i = first; i < end; i++) {
					topic.append((i > first) ? "." : "")
						.append(name.getElement(i, ConfigurationPropertyName.Form.ORIGINAL));
				}
				names.putIfAbsent(topic.toString(), name.chop(end));
				return;
			}
		}
		problems.unknown(name.toString(), UnknownPropertyCheck.origin(source, name),
				"a topic takes " + settings() + " (delayqueue.topics.<topic>.<setting>)");
	}

}
