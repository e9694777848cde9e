package io.github.delayqueue.autoconfigure;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import io.github.delayqueue.autoconfigure.DelayQueueProperties.TopicProperties;

import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.boot.origin.Origin;
import org.springframework.core.env.EnumerablePropertySource;
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

	private static final String WRITTEN_PREFIX = ROOT + ".";

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
				if (!dashesSplit) {
					checkTopicsAsWritten(source, problems);
				}
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
		int end = settingStart(name, dashesSplit);
		if (end >= 0) {
			names.putIfAbsent(topic(name, end), name.chop(end));
			return;
		}
		problems.unknown(name.toString(), UnknownPropertyCheck.origin(source, name), hint(name));
	}

	// The index of the first element of the setting that ends a name, or -1 if no end of
	// the name is a setting.
	private static int settingStart(ConfigurationPropertyName name, boolean dashesSplit) {
		for (int end = ROOT.getNumberOfElements() + 1; end < name.getNumberOfElements(); end++) {
			if (SETTINGS.isKnown(name, end, dashesSplit)) {
				return end;
			}
		}
		return -1;
	}

	private static String topic(ConfigurationPropertyName name, int end) {
		StringBuilder topic = new StringBuilder();
		for (int i = ROOT.getNumberOfElements(); i < end; i++) {
			topic.append((topic.length() > 0) ? "." : "")
				.append(name.getElement(i, ConfigurationPropertyName.Form.ORIGINAL));
		}
		return topic.toString();
	}

	// The nearest setting over every place the topic name might end, the latest place
	// when two are as near: 'orders.timeout.ttl' suggests 'orders.timeout.ttr'.
	private static String hint(ConfigurationPropertyName name) {
		KnownProperties.Match best = null;
		int bestEnd = -1;
		for (int end = ROOT.getNumberOfElements() + 1; end < name.getNumberOfElements(); end++) {
			KnownProperties.Match match = SETTINGS.closestMatch(name.subName(end).toString());
			if (match != null && (best == null || match.distance() <= best.distance())) {
				best = match;
				bestEnd = end;
			}
		}
		if (best == null) {
			return "a topic takes " + settings() + " (delayqueue.topics.<topic>.<setting>)";
		}
		String setting = best.key().endsWith(".*") ? best.key().substring(0, best.key().length() - 2) : best.key();
		return "did you mean '" + ROOT + "." + topic(name, bestEnd) + "." + setting + "'?";
	}

	// Spring Boot reads a key such as 'delayqueue.topics.bad topic!.ttr' as
	// 'delayqueue.topics.badtopic.ttr': it drops what a property name cannot hold
	// unless the key is in brackets. A topic name changed so was never a valid one; it
	// fails here under the name it was written with, not bound under another.
	private static void checkTopicsAsWritten(ConfigurationPropertySource source, ConfigurationProblems problems) {
		if (!(source.getUnderlyingSource() instanceof EnumerablePropertySource<?> properties)) {
			return;
		}
		Set<String> reported = new HashSet<>();
		for (String written : properties.getPropertyNames()) {
			if (!written.regionMatches(true, 0, WRITTEN_PREFIX, 0, WRITTEN_PREFIX.length())) {
				continue;
			}
			ConfigurationPropertyName name = ConfigurationPropertyName.adapt(written, '.');
			int end = settingStart(name, false);
			String setting = (end >= 0) ? settingAsWritten(name, end) : "";
			if (end < 0 || !written.endsWith(setting)
					|| written.length() <= WRITTEN_PREFIX.length() + setting.length()) {
				continue;
			}
			String topic = written.substring(WRITTEN_PREFIX.length(), written.length() - setting.length());
			String read = topic(name, end);
			if (!topic.equals(read) && reported.add(topic)) {
				Origin origin = UnknownPropertyCheck.origin(source, name);
				problems.add("Topic name '" + topic + "' under delayqueue.topics"
						+ ((origin != null) ? " (from " + origin + ")" : "") + " is invalid: "
						+ PropertiesTopicPolicies.TOPIC_NAME_RULE + "; Spring Boot would read it as '" + read + "'");
			}
		}
	}

	private static String settingAsWritten(ConfigurationPropertyName name, int end) {
		StringBuilder setting = new StringBuilder();
		for (int i = end; i < name.getNumberOfElements(); i++) {
			String element = name.getElement(i, ConfigurationPropertyName.Form.ORIGINAL);
			setting.append(name.isNumericIndex(i) ? "[" + element + "]" : "." + element);
		}
		return setting.toString();
	}

}
