package io.github.delayqueue.store;

import java.time.Instant;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * A job as the store read it, in whatever state it is.
 *
 * @param id the job id
 * @param topic the topic
 * @param state its state
 * @param attempts deliveries made so far
 * @param dueAt when it is or was due, by the Redis clock
 * @param createdAt when it was sent, by the Redis clock
 * @param lastError its last failure, or {@code null}
 * @param headers the headers it was sent with
 * @param payloadJson the payload as JSON
 * @param diedAt when it died, for a dead job
 * @author delayqueue contributors
 */
public record StoredJob(String id, String topic, State state, int attempts, Instant dueAt, Instant createdAt,
		@Nullable String lastError, Map<String, String> headers, String payloadJson, @Nullable Instant diedAt) {

	/**
	 * Where a job is: in which of a queue's structures.
	 */
	public enum State {

		/**
		 * Waiting for its due time.
		 */
		DELAYED,

		/**
		 * Due, waiting for a listener.
		 */
		READY,

		/**
		 * Claimed by a listener.
		 */
		RUNNING,

		/**
		 * Failed for good.
		 */
		DEAD

	}

}
