package io.github.delayqueue.store;

import java.time.Instant;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * Turns what the read scripts return of a job into a {@link StoredJob}, also when its
 * record vanished or cannot be decoded, so that a look at a broken job shows why.
 *
 * @author delayqueue contributors
 */
final class JobInfos {

	private final JobRecordCodec codec;

	JobInfos(JobRecordCodec codec) {
		this.codec = codec;
	}

	/**
	 * Return a job as a read script returned it.
	 * @param topic the topic
	 * @param id the job id
	 * @param record the encoded record, or empty when it vanished
	 * @param state the job's state
	 * @param attempts deliveries made
	 * @param error the last error, or empty
	 * @param deadSetScore the dead set's score (when the job died, in milliseconds by the
	 * Redis clock), or {@code null} or empty for a job that is not dead
	 * @return the job
	 */
	StoredJob info(String topic, String id, String record, StoredJob.State state, int attempts, String error,
			@Nullable Object deadSetScore) {
		String lastError = error.isEmpty() ? null : error;
		Instant diedAt = diedAt(deadSetScore);
		if (record.isEmpty()) {
			return new StoredJob(id, topic, state, attempts, Instant.EPOCH, Instant.EPOCH,
					(lastError != null) ? lastError : "Job record vanished", Map.of(), "", diedAt);
		}
		try {
			JobRecord decoded = this.codec.decode(record);
			return new StoredJob(id, topic, state, attempts, decoded.dueAt(), decoded.createdAt(), lastError,
					decoded.headers(), decoded.payloadJson(), diedAt);
		}
		catch (IllegalArgumentException ex) {
			return new StoredJob(id, topic, state, attempts, Instant.EPOCH, Instant.EPOCH, ex.getMessage(), Map.of(),
					record, diedAt);
		}
	}

	private static @Nullable Instant diedAt(@Nullable Object score) {
		String text = (score != null) ? score.toString() : "";
		return text.isEmpty() ? null : Instant.ofEpochMilli((long) Double.parseDouble(text));
	}

}
