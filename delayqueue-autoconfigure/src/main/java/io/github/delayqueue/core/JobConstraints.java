package io.github.delayqueue.core;

import java.time.Duration;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * The rules topic names, job ids, groups, headers, sizes and delays must follow, all
 * checked before anything is written.
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
	 * Check a job's group, see {@link JobRequest.Builder#group(String)}. It is stored in
	 * a field of its own in the job's record, whose fields are separated by {@code |},
	 * and the claim script passes the held groups separated by spaces, so it holds
	 * neither.
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

	/**
	 * Check the names of a job's headers: each must be an HTTP token (RFC 9110), 1 or
	 * more of {@code A-Z a-z 0-9} and {@code ! # $ % & ' * + - . ^ _ ` | ~}. Quotes,
	 * backslashes, spaces and control characters would otherwise reach the stored JSON of
	 * the headers in escaped form, where a name such as {@code x"delayqueue-group} reads
	 * as another. A {@code |}, the record's separator, is allowed: the record codec
	 * writes it escaped.
	 * @param topic the topic, for the message
	 * @param id the job id, for the message
	 * @param headers the headers
	 * @throws InvalidJobException naming the first header whose name is not a token
	 */
	public static void checkHeaders(String topic, String id, Map<String, String> headers) {
		if (headers.isEmpty()) {
			return;
		}
		for (String name : headers.keySet()) {
			if (!isToken(name)) {
				throw new InvalidJobException("Header name '" + name + "' of job '" + id + "' for topic '" + topic
						+ "' is not a token: use 1 or more of A-Z a-z 0-9 and !#$%&'*+-.^_`|~");
			}
		}
	}

	private static boolean isToken(@Nullable String name) {
		if (name == null || name.isEmpty()) {
			return false;
		}
		for (int i = 0; i < name.length(); i++) {
			char c = name.charAt(i);
			if (!isLetterOrDigit(c) && "!#$%&'*+-.^_`|~".indexOf(c) < 0) {
				return false;
			}
		}
		return true;
	}

	/**
	 * Check the size of a job: its payload as JSON and the names and values of its
	 * headers, counted together in UTF-8 bytes, must fit in the limit.
	 * @param topic the topic, for the message
	 * @param id the job id, for the message
	 * @param payloadJson the payload as JSON
	 * @param headers the headers
	 * @param limit the most bytes allowed ({@code delayqueue.max-payload-size})
	 * @throws InvalidJobException naming the size and the limit if the job is larger
	 */
	public static void checkSize(String topic, String id, String payloadJson, Map<String, String> headers, long limit) {
		long chars = payloadJson.length();
		if (!headers.isEmpty()) {
			for (Map.Entry<String, String> header : headers.entrySet()) {
				chars += header.getKey().length() + header.getValue().length();
			}
		}
		// A char is at most three bytes in UTF-8 (a surrogate pair, two chars, is four),
		// so most jobs are counted without a look at their characters.
		if (chars * 3 <= limit) {
			return;
		}
		long payloadBytes = utf8Length(payloadJson);
		long headerBytes = 0;
		for (Map.Entry<String, String> header : headers.entrySet()) {
			headerBytes += utf8Length(header.getKey()) + utf8Length(header.getValue());
		}
		if (payloadBytes + headerBytes <= limit) {
			return;
		}
		if (headers.isEmpty()) {
			throw new InvalidJobException("Payload of job '" + id + "' for topic '" + topic + "' is " + payloadBytes
					+ " bytes as JSON; delayqueue.max-payload-size allows " + limit);
		}
		throw new InvalidJobException(
				"Payload and headers of job '" + id + "' for topic '" + topic + "' are " + (payloadBytes + headerBytes)
						+ " bytes (payload " + payloadBytes + " bytes as JSON, header names and values " + headerBytes
						+ " bytes); delayqueue.max-payload-size allows " + limit + " for both together");
	}

	// Counted rather than encoded: no copy of a payload that may be megabytes long.
	private static long utf8Length(String text) {
		long bytes = text.length();
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c >= 0x80) {
				// Two bytes up to U+07FF, three above; a surrogate pair is four in all.
				bytes += (c < 0x800 || Character.isSurrogate(c)) ? 1 : 2;
			}
		}
		return bytes;
	}

	/**
	 * Check the delay of a send or a reschedule: Redis adds it to its clock in a Lua
	 * number, exact only up to 2^53, and a {@link Duration} of more than
	 * {@link Long#MAX_VALUE} milliseconds has no millisecond count at all.
	 * @param topic the topic, for the message
	 * @param id the job id, for the message
	 * @param delay the delay
	 * @return the delay
	 * @throws InvalidJobException if it is {@code null}, negative or over
	 * {@link DelayQueueTemplate#MAX_DELAY}
	 */
	public static Duration checkDelay(String topic, String id, @Nullable Duration delay) {
		if (delay == null || delay.isNegative() || delay.compareTo(DelayQueueTemplate.MAX_DELAY) > 0) {
			throw new InvalidJobException("Delay of job '" + id + "' for topic '" + topic
					+ "' must be between zero and " + DelayQueueTemplate.MAX_DELAY.toDays() + " days, was " + delay);
		}
		return delay;
	}

}
