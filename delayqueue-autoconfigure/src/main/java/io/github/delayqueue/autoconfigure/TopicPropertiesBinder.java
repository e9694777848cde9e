package io.github.delayqueue.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import io.github.delayqueue.autoconfigure.DelayQueueProperties.TopicProperties;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.core.env.Environment;

/**
 * Binds {@code delayqueue.topics.*} keyed by full topic names. Topic names may contain
 * dots ({@code orders.timeout}), which Spring Boot's map binding would split at the first
 * one; here a topic name runs up to the first element that names a topic setting.
 *
 * @author delayqueue contributors
 */
final class TopicPropertiesBinder {

	private static final ConfigurationPropertyName ROOT = ConfigurationPropertyName.of("delayqueue.topics");

	private static final Set<String> SETTINGS = Set.of("ttr", "concurrency", "retry", "dead-letter");

	private TopicPropertiesBinder() {
	}

	static Map<String, TopicProperties> bind(Environment environment) {
		Map<String, ConfigurationPropertyName> names = new LinkedHashMap<>();
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
			if (source instanceof IterableConfigurationPropertySource iterable) {
				iterable.filter(ROOT::isAncestorOf).forEach((name) -> topicName(name, names));
			}
		}
		Binder binder = Binder.get(environment);
		Map<String, TopicProperties> topics = new LinkedHashMap<>();
		names.forEach((topic, name) -> topics.put(topic,
				binder.bind(name, Bindable.of(TopicProperties.class)).orElseGet(TopicProperties::new)));
		return topics;
	}

	private static void topicName(ConfigurationPropertyName name, Map<String, ConfigurationPropertyName> names) {
		int first = ROOT.getNumberOfElements();
		for (int end = first + 1; end < name.getNumberOfElements(); end++) {
			if (SETTINGS.contains(name.getElement(end, ConfigurationPropertyName.Form.DASHED))) {
				StringBuilder topic = new StringBuilder();
				for (int i = first; i < end; i++) {
					topic.append((i > first) ? "." : "")
						.append(name.getElement(i, ConfigurationPropertyName.Form.ORIGINAL));
				}
				names.putIfAbsent(topic.toString(), name.chop(end));
				return;
			}
		}
	}

}
