package io.github.delayqueue.core;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * The rules topic names, job ids and groups must follow.
 *
 * @author delayqueue contributors
 */
public final class JobConstraints {

	/**
	 * The longest job id accepted.
	 */
	public static final int MAX_ID_LENGTH = 256;

	private static final int MAX_TOPIC_LENGTH = 128;

	private static final int MAX_GROUP_LENGTH = 128;

	private JobConstraints() {
	}

	/**
	 * The one name no topic may have: the path segment of the recurring schedules in the
	 * Actuator endpoint ({@code /actuator/delayqueue/schedules}), where a topic's view
	 * ({@code /actuator/delayqueue/{topic}}) would be shadowed by them.
	 */
	public static final String RESERVED_TOPIC = "schedules";

	/**
	 * Tell whether a topic name is valid: 1 to 128 characters of
	 * {@code A-Z a-z 0-9 . _ -}, starting with a letter or digit, and not
	 * {@value #RESERVED_TOPIC}.
	 * @param topic the name
	 * @return {@code true} if it is valid
	 */
	public static boolean isValidTopic(@Nullable String topic) {
		// A loop rather than a regular expression: every send checks its topic, and the
		// matcher took a tenth of the sending thread's Java time.
		if (topic == null || topic.isEmpty() || topic.length() > MAX_TOPIC_LENGTH || !isLetterOrDigit(topic.charAt(0))
				|| topic.equals(RESERVED_TOPIC)) {
			return false;
		}
		for (int i = 1; i < topic.length(); i++) {
			char c = topic.charAt(i);
			if (!isLetterOrDigit(c) && c != '.' && c != '_' && c != '-') {
				return false;
			}
		}
		return true;
	}

	private static boolean isLetterOrDigit(char c) {
		return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
	}

	/**
	 * Check a topic name.
	 * @param topic the name
	 * @return the name
	 * @throws InvalidJobException if it is not valid
	 */
	public static String checkTopic(@Nullable String topic) {
		if (RESERVED_TOPIC.equals(topic)) {
			throw new InvalidJobException("Topic name '" + RESERVED_TOPIC + "' is reserved: it is the path segment "
					+ "of the recurring schedules in the Actuator endpoint (/actuator/delayqueue/" + RESERVED_TOPIC
					+ "), which would hide the topic's own view; choose another name");
		}
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
	 * @throws InvalidJobException if it is blank, too long, or holds {@code /} or
	 * {@code \}
	 */
	public static String checkId(String topic, @Nullable String id) {
		if (id == null || id.isBlank()) {
			throw new InvalidJobException("Job id for topic '" + topic + "' must not be blank");
		}
		if (id.length() > MAX_ID_LENGTH) {
			throw new InvalidJobException("Job id for topic '" + topic + "' is " + id.length()
					+ " characters long; at most " + MAX_ID_LENGTH + " are allowed");
		}
		// A path separator would make the job unreachable through the Actuator endpoint,
		// whose job id is one segment of the URL.
		for (int i = 0; i < id.length(); i++) {
			char c = id.charAt(i);
			if (c == '/' || c == '\\') {
				throw new InvalidJobException(
						"Job id '" + id + "' for topic '" + topic + "' must not contain '" + c + "'");
			}
		}
		return id;
	}

	/**
	 * Check a job's group, see {@link JobRequest.Builder#group(String)}. The claim script
	 * reads it from the stored headers' JSON, so it holds no character JSON escapes.
	 * @param topic the topic, for the message
	 * @param id the job id, for the message
	 * @param group the group
	 * @throws InvalidJobException if it is empty, longer than 128 characters or holds a
	 * character other than {@code A-Z a-z 0-9 . _ - : @}
	 */
	public static void checkGroup(String topic, String id, String group) {
		if (group.isEmpty() || group.length() > MAX_GROUP_LENGTH) {
			throw new InvalidJobException("Group '" + group + "' of job '" + id + "' for topic '" + topic
					+ "' must be 1 to " + MAX_GROUP_LENGTH + " characters long");
		}
		for (int i = 0; i < group.length(); i++) {
			char c = group.charAt(i);
			if (!isLetterOrDigit(c) && c != '.' && c != '_' && c != '-' && c != ':' && c != '@') {
				throw new InvalidJobException("Group '" + group + "' of job '" + id + "' for topic '" + topic
						+ "' must not contain '" + c + "': only A-Z a-z 0-9 . _ - : @ are allowed");
			}
		}
	}

	/**
	 * Check a job's own time to run. Claims count it in whole milliseconds, so a time
	 * under one millisecond would be none at all.
	 * @param topic the topic, for the message
	 * @param id the job id, for the message
	 * @param ttr the time to run, or {@code null} for the topic's
	 * @throws InvalidJobException if it is under one millisecond or over
	 * {@link DelayQueueTemplate#MAX_DELAY}
	 */
	public static void checkTtr(String topic, String id, @Nullable Duration ttr) {
		if (ttr != null && (ttr.compareTo(DelayQueueTemplate.MAX_DELAY) > 0 || ttr.toMillis() < 1)) {
			throw new InvalidJobException(
					"Time to run (ttr) of job '" + id + "' for topic '" + topic + "' must be at least 1 ms and at most "
							+ DelayQueueTemplate.MAX_DELAY.toDays() + " days, was " + ttr);
		}
	}

}
