package io.github.delayqueue.autoconfigure;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

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
 * Binds a map of settings keyed by names that may contain dots, such as
 * {@code delayqueue.topics.*} (topic names like {@code orders.timeout}) and
 * {@code delayqueue.schedules.*} (schedule ids), which Spring Boot's map binding would
 * split at the first dot. Here a name runs up to where the rest of the key names a
 * setting of the settings class, so that a topic may even be called
 * {@code payments.retry}. A key whose end names no setting is recorded as unknown rather
 * than ignored, and a name that Spring Boot would change fails under the name as written.
 *
 * @param <T> the settings class
 * @author delayqueue contributors
 */
final class KeyedPropertiesBinder<T> {

	private final ConfigurationPropertyName root;

	private final String writtenPrefix;

	private final KnownProperties settings;

	private final Class<T> type;

	private final Supplier<T> empty;

	private final String noun;

	private final String nameLabel;

	private final String nameRule;

	/**
	 * Create a binder.
	 * @param root the key of the map, such as {@code delayqueue.topics}
	 * @param type the settings class
	 * @param empty makes the settings of a name whose settings cannot be bound
	 * @param noun what a name names, for messages ({@code topic})
	 * @param nameLabel how a name is called, for messages ({@code Topic name})
	 * @param nameRule what a name may be, for messages
	 */
	KeyedPropertiesBinder(String root, Class<T> type, Supplier<T> empty, String noun, String nameLabel,
			String nameRule) {
		this.root = ConfigurationPropertyName.of(root);
		this.writtenPrefix = root + ".";
		this.settings = new KnownProperties(type);
		this.type = type;
		this.empty = empty;
		this.noun = noun;
		this.nameLabel = nameLabel;
		this.nameRule = nameRule;
	}

	/**
	 * Bind the settings of every name under the root.
	 * @param environment the environment to bind from
	 * @param problems where unknown keys and values that cannot be converted are recorded
	 * @return the settings, by name
	 */
	Map<String, T> bind(Environment environment, ConfigurationProblems problems) {
		Map<String, List<ConfigurationPropertyName>> names = new LinkedHashMap<>();
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
			if (source instanceof IterableConfigurationPropertySource iterable) {
				boolean dashesSplit = UnknownPropertyCheck.isEnvironmentVariables(source);
				iterable.filter(this.root::isAncestorOf)
					.forEach((name) -> topicName(source, name, dashesSplit, names, problems));
				if (!dashesSplit) {
					checkTopicsAsWritten(source, problems);
				}
			}
		}
		Binder binder = Binder.get(environment);
		BindHandler recordFailures = new DelayQueuePropertiesBinding.RecordingHandler(BindHandler.DEFAULT, problems);
		Map<String, T> bound = new LinkedHashMap<>();
		names.forEach((key, spellings) -> bound.put(key, bind(binder, spellings, recordFailures)));
		return bound;
	}

	// A name written in two spellings ('orders.timeout' and '[orders.timeout]') is two
	// property names to Spring Boot, each bound on its own. Bound one over the other, the
	// spelling of the lower source first, each setting takes the value of the source that
	// comes first, as it would were both written alike; none is dropped.
	private T bind(Binder binder, List<ConfigurationPropertyName> spellings, BindHandler recordFailures) {
		T settings = null;
		for (int i = spellings.size() - 1; i >= 0; i--) {
			Bindable<T> target = (settings != null) ? Bindable.of(this.type).withExistingValue(settings)
					: Bindable.of(this.type);
			T result = binder.bind(spellings.get(i), target, recordFailures).orElse(null);
			settings = (result != null) ? result : settings;
		}
		return (settings != null) ? settings : this.empty.get();
	}

	/**
	 * Return the settings a name takes, for messages.
	 * @return the settings, comma separated
	 */
	String settings() {
		return String.join(", ", this.settings.keys());
	}

	private void topicName(ConfigurationPropertySource source, ConfigurationPropertyName name, boolean dashesSplit,
			Map<String, List<ConfigurationPropertyName>> names, ConfigurationProblems problems) {
		int end = settingStart(name, dashesSplit);
		if (end >= 0) {
			List<ConfigurationPropertyName> spellings = names.computeIfAbsent(topic(name, end),
					(topic) -> new ArrayList<>());
			if (!spellings.contains(name.chop(end))) {
				spellings.add(name.chop(end));
			}
			return;
		}
		problems.unknown(name.toString(), UnknownPropertyCheck.origin(source, name), hint(name));
	}

	// The index of the first element of the setting that ends a name, or -1 if no end of
	// the name is a setting.
	private int settingStart(ConfigurationPropertyName name, boolean dashesSplit) {
		for (int end = this.root.getNumberOfElements() + 1; end < name.getNumberOfElements(); end++) {
			if (this.settings.isKnown(name, end, dashesSplit)) {
				return end;
			}
		}
		return -1;
	}

	private String topic(ConfigurationPropertyName name, int end) {
		StringBuilder topic = new StringBuilder();
		for (int i = this.root.getNumberOfElements(); i < end; i++) {
			topic.append((topic.length() > 0) ? "." : "")
				.append(name.getElement(i, ConfigurationPropertyName.Form.ORIGINAL));
		}
		return topic.toString();
	}

	// The nearest setting over every place the topic name might end, the latest place
	// when two are as near: 'orders.timeout.ttl' suggests 'orders.timeout.ttr'.
	private String hint(ConfigurationPropertyName name) {
		KnownProperties.Match best = null;
		int bestEnd = -1;
		for (int end = this.root.getNumberOfElements() + 1; end < name.getNumberOfElements(); end++) {
			KnownProperties.Match match = this.settings.closestMatch(name.subName(end).toString());
			if (match != null && (best == null || match.distance() <= best.distance())) {
				best = match;
				bestEnd = end;
			}
		}
		if (best == null) {
			return "a " + this.noun + " takes " + settings() + " (" + this.root + ".<" + this.noun + ">.<setting>)";
		}
		String setting = best.key().endsWith(".*") ? best.key().substring(0, best.key().length() - 2) : best.key();
		return "did you mean '" + this.root + "." + topic(name, bestEnd) + "." + setting + "'?";
	}

	// Spring Boot reads a key such as 'delayqueue.topics.bad topic!.ttr' as
	// 'delayqueue.topics.badtopic.ttr': it drops what a property name cannot hold
	// unless the key is in brackets. A topic name changed so was never a valid one; it
	// fails here under the name it was written with, not bound under another.
	private void checkTopicsAsWritten(ConfigurationPropertySource source, ConfigurationProblems problems) {
		if (!(source.getUnderlyingSource() instanceof EnumerablePropertySource<?> properties)) {
			return;
		}
		Set<String> reported = new HashSet<>();
		for (String written : properties.getPropertyNames()) {
			if (!written.regionMatches(true, 0, this.writtenPrefix, 0, this.writtenPrefix.length())) {
				continue;
			}
			ConfigurationPropertyName name = ConfigurationPropertyName.adapt(written, '.');
			int end = settingStart(name, false);
			String setting = (end >= 0) ? settingAsWritten(name, end) : "";
			if (end < 0 || !written.endsWith(setting)
					|| written.length() <= this.writtenPrefix.length() + setting.length()) {
				continue;
			}
			String topic = written.substring(this.writtenPrefix.length(), written.length() - setting.length());
			String read = topic(name, end);
			if (!topic.equals(read) && reported.add(topic)) {
				Origin origin = UnknownPropertyCheck.origin(source, name);
				problems.add(this.nameLabel + " '" + topic + "' under " + this.root
						+ ((origin != null) ? " (from " + origin + ")" : "") + " is invalid: " + this.nameRule
						+ "; Spring Boot would read it as '" + read + "'");
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
