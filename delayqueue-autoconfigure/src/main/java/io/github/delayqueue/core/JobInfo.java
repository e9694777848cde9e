package io.github.delayqueue.core;

import java.time.Instant;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * What the queue knows about one job.
 *
 * @param id the job id
 * @param topic the topic
 * @param state the current state
 * @param attempts deliveries made so far
 * @param dueAt when the job is or was due, by the Redis clock
 * @param createdAt when the job was sent, by the Redis clock
 * @param lastError the last failure, or {@code null} if it never failed
 * @param headers the headers it was sent with
 * @param payloadJson the payload as JSON
 * @author delayqueue contributors
 */
public record JobInfo(String id, String topic, JobState state, int attempts, Instant dueAt, Instant createdAt,
		@Nullable String lastError, Map<String, String> headers, String payloadJson) {

	/**
	 * Create a job description, keeping an unmodifiable copy of the headers.
	 */
	public JobInfo {
		headers = Map.copyOf(headers);
	}

}
