package io.github.delayqueue.internal.store;

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
 * @param finishedAt when it completed or was cancelled, for a kept finished job
 * @param finishedBy the instance that completed or cancelled it, for a kept finished job
 * @author delayqueue contributors
 */
public record StoredJob(String id, String topic, State state, int attempts, Instant dueAt, Instant createdAt,
		@Nullable String lastError, Map<String, String> headers, String payloadJson, @Nullable Instant diedAt,
		@Nullable Instant finishedAt, @Nullable String finishedBy) {

	/**
	 * Create a job that is not a kept finished one.
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
	 */
	public StoredJob(String id, String topic, State state, int attempts, Instant dueAt, Instant createdAt,
			@Nullable String lastError, Map<String, String> headers, String payloadJson, @Nullable Instant diedAt) {
		this(id, topic, state, attempts, dueAt, createdAt, lastError, headers, payloadJson, diedAt, null, null);
	}

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
		DEAD,

		/**
		 * Acknowledged, and kept for the topic's completed retention.
		 */
		COMPLETED,

		/**
		 * Cancelled, and kept for the topic's completed retention.
		 */
		CANCELLED

	}

}
