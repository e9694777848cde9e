package io.github.delayqueue.core;

import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * The rules topic names and job ids must follow.
 *
 * @author delayqueue contributors
 */
public final class JobConstraints {

	/**
	 * The longest job id accepted.
	 */
	public static final int MAX_ID_LENGTH = 256;

	private static final Pattern TOPIC = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");

	private JobConstraints() {
	}

	/**
	 * Tell whether a topic name is valid: 1 to 128 characters of
	 * {@code A-Z a-z 0-9 . _ -}, starting with a letter or digit.
	 * @param topic the name
	 * @return {@code true} if it is valid
	 */
	public static boolean isValidTopic(@Nullable String topic) {
		return topic != null && TOPIC.matcher(topic).matches();
	}

	/**
	 * Check a topic name.
	 * @param topic the name
	 * @return the name
	 * @throws InvalidJobException if it is not valid
	 */
	public static String checkTopic(@Nullable String topic) {
		if (!isValidTopic(topic)) {
			throw new InvalidJobException("Invalid topic name '" + topic
					+ "': use 1 to 128 characters of A-Z a-z 0-9 . _ -, starting with a letter or digit");
		}
		return topic;
	}

	/**
	 * Check a job id chosen by a caller.
	 * @param topic the topic, for the message
	 * @param id the id
	 * @return the id
	 * @throws InvalidJobException if it is blank or too long
	 */
	public static String checkId(String topic, @Nullable String id) {
		if (id == null || id.isBlank()) {
			throw new InvalidJobException("Job id for topic '" + topic + "' must not be blank");
		}
		if (id.length() > MAX_ID_LENGTH) {
			throw new InvalidJobException("Job id for topic '" + topic + "' is " + id.length()
					+ " characters long; at most " + MAX_ID_LENGTH + " are allowed");
		}
		return id;
	}

}
