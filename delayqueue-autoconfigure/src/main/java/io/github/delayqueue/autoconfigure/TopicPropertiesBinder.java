package io.github.delayqueue.autoconfigure;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import io.github.delayqueue.autoconfigure.DelayQueueProperties.TopicProperties;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.core.env.Environment;

/**
 * Binds {@code delayqueue.topics.*} keyed by full topic names. Topic names may contain
 * dots ({@code orders.timeout}), which Spring Boot's map binding would split at the first
 * one; here a topic name runs up to where the rest of the key names a topic setting, so
 * that a topic may even be called {@code payments.retry}. A key whose end names no
 * setting fails start-up rather than being ignored.
 *
 * @author delayqueue contributors
 */
final class TopicPropertiesBinder {

	private static final ConfigurationPropertyName ROOT = ConfigurationPropertyName.of("delayqueue.topics");

	private static final List<String> SETTINGS = List.of("ttr", "concurrency", "retry.max-attempts",
			"retry.non-retryable", "retry.backoff.delay", "retry.backoff.multiplier", "retry.backoff.max-delay",
			"retry.backoff.jitter", "retry.backoff.schedule", "dead-letter.retention");

	private static final Set<String> LIST_SETTINGS = Set.of("retry.non-retryable", "retry.backoff.schedule");

	// Both in the uniform form that properties files, YAML and environment variables
	// share (lower case, no dashes), which is how keys are compared.
	private static final Set<String> UNIFORM_SETTINGS = uniform(SETTINGS);

	private static final Set<String> UNIFORM_LIST_SETTINGS = uniform(LIST_SETTINGS);

	private TopicPropertiesBinder() {
	}

	static Map<String, TopicProperties> bind(Environment environment) {
		Map<String, ConfigurationPropertyName> names = new LinkedHashMap<>();
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
			if (source instanceof IterableConfigurationPropertySource iterable) {
				iterable.filter(ROOT::isAncestorOf).forEach((name) -> topicName(source, name, names));
			}
		}
		Binder binder = Binder.get(environment);
		Map<String, TopicProperties> topics = new LinkedHashMap<>();
		names.forEach((topic, name) -> topics.put(topic,
				binder.bind(name, Bindable.of(TopicProperties.class)).orElseGet(TopicProperties::new)));
		return topics;
	}

	private static void topicName(ConfigurationPropertySource source, ConfigurationPropertyName name,
			Map<String, ConfigurationPropertyName> names) {
		int first = ROOT.getNumberOfElements();
		for (int end = first + 1; end < name.getNumberOfElements(); end++) {
			if (namesSetting(name, end)) {
				StringBuilder topic = new StringBuilder();
				for (int i = first; i < end; i++) {
					topic.append((i > first) ? "." : "")
						.append(name.getElement(i, ConfigurationPropertyName.Form.ORIGINAL));
				}
				names.putIfAbsent(topic.toString(), name.chop(end));
				return;
			}
		}
		ConfigurationProperty property = source.getConfigurationProperty(name);
		throw new InvalidConfigurationPropertyValueException(name.toString(),
				(property != null) ? property.getValue() : null,
				"No topic setting ends this key; a topic takes " + String.join(", ", SETTINGS));
	}

	// Whether the elements from 'from' to the end name a setting, with a list setting's
	// index last where it is written one value per key.
	private static boolean namesSetting(ConfigurationPropertyName name, int from) {
		StringBuilder path = new StringBuilder();
		int i = from;
		for (; i < name.getNumberOfElements() && !name.isNumericIndex(i); i++) {
			path.append((i > from) ? "." : "").append(name.getElement(i, ConfigurationPropertyName.Form.UNIFORM));
		}
		String setting = path.toString();
		if (i == name.getNumberOfElements()) {
			return UNIFORM_SETTINGS.contains(setting);
		}
		return i == name.getNumberOfElements() - 1 && UNIFORM_LIST_SETTINGS.contains(setting);
	}

	private static Set<String> uniform(Collection<String> settings) {
		return settings.stream().map((setting) -> setting.replace("-", "")).collect(Collectors.toUnmodifiableSet());
	}

}
