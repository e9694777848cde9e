package io.github.delayqueue.store;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * Encodes job records compactly:
 * {@code createdMs|dueMs|ttrMs|maxAttempts|headersJson|payloadJson}, with empty fields
 * for the topic's defaults and for no headers. The scripts write the two times from the
 * Redis clock and read the numeric fields with one pattern; the headers never contain a
 * {@code |} (it is written as its JSON escape), so the payload starts after the fifth.
 *
 * @author delayqueue contributors
 */
public final class JobRecordCodec {

	private static final TypeReference<Map<String, String>> HEADERS = new TypeReference<>() {
	};

	// How a group header begins in the headers' JSON, see JobRequest.Builder#group.
	private static final String GROUP_MARK = "\"delayqueue-group\":\"";

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
	 * @param headers the headers
	 * @param payloadJson the payload as JSON
	 * @return the record's tail
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
		if (!headers.isEmpty()) {
			tail.append(this.jsonMapper.writeValueAsString(headers).replace("|", "\\u007c"));
		}
		return tail.append('|').append(payloadJson).toString();
	}

	/**
	 * Decode a stored record.
	 * @param record the record
	 * @return the decoded record
	 * @throws IllegalArgumentException if the record is not in this format
	 */
	public JobRecord decode(String record) {
		int[] bars = new int[5];
		int from = 0;
		for (int i = 0; i < bars.length; i++) {
			int bar = record.indexOf('|', from);
			if (bar < 0) {
				throw new IllegalArgumentException("Malformed job record: expected 6 fields separated by '|'");
			}
			bars[i] = bar;
			from = bar + 1;
		}
		try {
			Instant createdAt = Instant.ofEpochMilli(Long.parseLong(record.substring(0, bars[0]), 36));
			Instant dueAt = Instant.ofEpochMilli(Long.parseLong(record.substring(bars[0] + 1, bars[1]), 36));
			String ttr = record.substring(bars[1] + 1, bars[2]);
			String maxAttempts = record.substring(bars[2] + 1, bars[3]);
			String headers = record.substring(bars[3] + 1, bars[4]);
			return new JobRecord(createdAt, dueAt, ttr.isEmpty() ? null : Duration.ofMillis(Long.parseLong(ttr)),
					maxAttempts.isEmpty() ? null : Integer.valueOf(maxAttempts),
					headers.isEmpty() ? Map.of() : this.jsonMapper.readValue(headers, HEADERS),
					record.substring(bars[4] + 1));
		}
		catch (NumberFormatException | JacksonException ex) {
			throw new IllegalArgumentException("Malformed job record: " + ex.getMessage(), ex);
		}
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
	 * Read only the group a stored record's headers put its job in, without decoding the
	 * rest. A group holds no character that JSON escapes.
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
		if (end <= from) {
			return null;
		}
		int mark = record.indexOf(GROUP_MARK, from);
		if (mark < 0 || mark >= end) {
			return null;
		}
		int start = mark + GROUP_MARK.length();
		int close = record.indexOf('"', start);
		return (close < 0 || close > end || close == start) ? null : record.substring(start, close);
	}

}
