package io.github.delayqueue.test;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * A job that the code under test sent, as the sender asked for it.
 *
 * @param topic the topic
 * @param id the job id, the sender's or the generated one
 * @param payload the payload object as passed to the send
 * @param delay the delay asked for, or {@code null} when the job was sent for a due time
 * or for now
 * @param dueAt the due time asked for, or {@code null} when the job was sent with a delay
 * or for now
 * @param headers the headers asked for
 * @author delayqueue contributors
 */
public record SentJob(String topic, String id, Object payload, @Nullable Duration delay, @Nullable Instant dueAt,
		Map<String, String> headers) {

	/**
	 * Create a record of a sent job, keeping an unmodifiable copy of the headers.
	 */
	public SentJob {
		headers = Map.copyOf(headers);
	}

	/**
	 * Return the payload as a type.
	 * @param <T> the type
	 * @param type the payload's class, or one of its supertypes
	 * @return the payload
	 * @throws ClassCastException if the payload is of another type
	 */
	public <T> T payload(Class<T> type) {
		return type.cast(this.payload);
	}

}
