package io.github.delayqueue.autoconfigure;

import java.util.Map;

import io.github.delayqueue.autoconfigure.DelayQueueProperties.TopicProperties;

import org.springframework.core.env.Environment;

/**
 * Binds {@code delayqueue.topics.*} keyed by full topic names, see
 * {@link KeyedPropertiesBinder}. The settings are those {@link TopicProperties} declares.
 *
 * @author delayqueue contributors
 */
final class TopicPropertiesBinder {

	private static final KeyedPropertiesBinder<TopicProperties> BINDER = new KeyedPropertiesBinder<>(
			"delayqueue.topics", TopicProperties.class, TopicProperties::new, "topic", "Topic name",
			PropertiesTopicPolicies.TOPIC_NAME_RULE);

	private TopicPropertiesBinder() {
	}

	/**
	 * Bind the settings of every topic named under {@code delayqueue.topics}.
	 * @param environment the environment to bind from
	 * @param problems where unknown keys and values that cannot be converted are recorded
	 * @return the settings, by topic name
	 */
	static Map<String, TopicProperties> bind(Environment environment, ConfigurationProblems problems) {
		return BINDER.bind(environment, problems);
	}

	/**
	 * Return the settings a topic takes, for messages.
	 * @return the settings, comma separated
	 */
	static String settings() {
		return BINDER.settings();
	}

}
