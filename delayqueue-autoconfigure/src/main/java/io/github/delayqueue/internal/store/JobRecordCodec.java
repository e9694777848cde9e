package io.github.delayqueue.internal.store;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * Encodes job records compactly:
 * {@code createdMs|dueMs|ttrMs|maxAttempts|group|headersJson|payloadJson}, with empty
 * fields for the topic's defaults, for no group and for no headers. The scripts write the
 * two times from the Redis clock and read the numeric fields and the group with one
 * pattern; the group holds no {@code |} (see {@code JobConstraints.checkGroup}) and the
 * headers never contain one (it is written as its JSON escape), so the payload starts
 * after the sixth.
 * <p>
 * The group travels in the headers given to {@link #encodeTail} and returned by
 * {@link #decode}, as the {@value #GROUP_HEADER} header, but is stored in its own field,
 * never in the headers' JSON: the scripts never search that JSON, where a header name
 * such as {@code x"delayqueue-group} would otherwise read as a group.
 *
 * @author delayqueue contributors
 */
public final class JobRecordCodec {

	/**
	 * The header that holds a job's group, {@code JobRequest.GROUP_HEADER}, which the
	 * store does not import.
	 */
	static final String GROUP_HEADER = "delayqueue-group";

	private static final TypeReference<Map<String, String>> HEADERS = new TypeReference<>() {
	};

	private static final int FIELDS = 7;

	private final JsonMapper jsonMapper;

	/**
	 * Create a codec that writes headers with a mapper.
	 * @param jsonMapper the mapper
	 */
	public JobRecordCodec(JsonMapper jsonMapper) {
		this.jsonMapper = jsonMapper;
	}

	/**
	 * Encode what the client knows of a record: everything but the two times.
	 * @param ttr the job's time to run, or {@code null}
	 * @param maxAttempts the job's most deliveries, or {@code null}
	 * @param headers the headers, the group among them as the {@value #GROUP_HEADER}
	 * header
	 * @param payloadJson the payload as JSON
	 * @return the record's tail
	 * @throws IllegalArgumentException if the group holds a {@code |}
	 */
	public String encodeTail(@Nullable Duration ttr, @Nullable Integer maxAttempts, Map<String, String> headers,
			String payloadJson) {
		StringBuilder tail = new StringBuilder(payloadJson.length() + 16);
		if (ttr != null) {
			tail.append(ttr.toMillis());
		}
		tail.append('|');
		if (maxAttempts != null) {
			tail.append(maxAttempts);
		}
		tail.append('|');
		Map<String, String> others = headers;
		String group = headers.isEmpty() ? null : headers.get(GROUP_HEADER);
		if (group != null) {
			if (group.indexOf('|') >= 0) {
				throw new IllegalArgumentException("A job's group must not contain '|', was '" + group + "'");
			}
			tail.append(group);
			others = new LinkedHashMap<>(headers);
			others.remove(GROUP_HEADER);
		}
		tail.append('|');
		if (!others.isEmpty()) {
			tail.append(this.jsonMapper.writeValueAsString(others).replace("|", "\\u007c"));
		}
		return tail.append('|').append(payloadJson).toString();
	}

	/**
	 * Decode a stored record. A job's group is among the headers returned, as the
	 * {@value #GROUP_HEADER} header.
	 * @param record the record
	 * @return the decoded record
	 * @throws IllegalArgumentException if the record is not in this format
	 */
	public JobRecord decode(String record) {
		int[] bars = new int[FIELDS - 1];
		int from = 0;
		for (int i = 0; i < bars.length; i++) {
			int bar = record.indexOf('|', from);
			if (bar < 0) {
				throw new IllegalArgumentException(
						"Malformed job record: expected " + FIELDS + " fields separated by '|'");
			}
			bars[i] = bar;
			from = bar + 1;
		}
		try {
			Instant createdAt = Instant.ofEpochMilli(Long.parseLong(record.substring(0, bars[0]), 36));
			Instant dueAt = Instant.ofEpochMilli(Long.parseLong(record.substring(bars[0] + 1, bars[1]), 36));
			String ttr = record.substring(bars[1] + 1, bars[2]);
			String maxAttempts = record.substring(bars[2] + 1, bars[3]);
			String group = record.substring(bars[3] + 1, bars[4]);
			String headers = record.substring(bars[4] + 1, bars[5]);
			return new JobRecord(createdAt, dueAt, ttr.isEmpty() ? null : Duration.ofMillis(Long.parseLong(ttr)),
					maxAttempts.isEmpty() ? null : Integer.valueOf(maxAttempts), headers(group, headers),
					record.substring(bars[5] + 1));
		}
		catch (NumberFormatException | JacksonException ex) {
			throw new IllegalArgumentException("Malformed job record: " + ex.getMessage(), ex);
		}
	}

	// The group is added back as the header it was sent as, where users read it.
	private Map<String, String> headers(String group, String json) {
		if (json.isEmpty()) {
			return group.isEmpty() ? Map.of() : Map.of(GROUP_HEADER, group);
		}
		Map<String, String> headers = this.jsonMapper.readValue(json, HEADERS);
		if (!group.isEmpty()) {
			headers = new LinkedHashMap<>(headers);
			headers.put(GROUP_HEADER, group);
		}
		return headers;
	}

	/**
	 * Read only the time to run a stored record sets for its job, without decoding the
	 * rest.
	 * @param record the record
	 * @return the job's own time to run, or {@code null} if it has none or the record is
	 * not in this format
	 */
	public static @Nullable Duration ttrOf(String record) {
		int first = record.indexOf('|');
		int second = (first < 0) ? -1 : record.indexOf('|', first + 1);
		int third = (second < 0) ? -1 : record.indexOf('|', second + 1);
		if (third <= second + 1) {
			return null;
		}
		try {
			return Duration.ofMillis(Long.parseLong(record, second + 1, third, 10));
		}
		catch (NumberFormatException ex) {
			return null;
		}
	}

	/**
	 * Read only the group of a stored record's job, its own field, without decoding the
	 * rest.
	 * @param record the record
	 * @return the job's group, or {@code null} if it has none or the record is not in
	 * this format
	 */
	public static @Nullable String groupOf(String record) {
		int from = 0;
		for (int i = 0; i < 4; i++) {
			from = record.indexOf('|', from) + 1;
			if (from == 0) {
				return null;
			}
		}
		int end = record.indexOf('|', from);
		return (end <= from) ? null : record.substring(from, end);
	}

}
