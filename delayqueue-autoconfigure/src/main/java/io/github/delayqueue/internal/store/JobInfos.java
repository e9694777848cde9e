package io.github.delayqueue.internal.store;

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

	/**
	 * Return a job as a read script returned its summary: the head of its record, the
	 * fields before the headers, of which the two times are read.
	 * @param topic the topic
	 * @param id the job id
	 * @param head the record's head, {@code createdMs|dueMs|ttrMs|maxAttempts}, or empty
	 * when the record vanished
	 * @param state the job's state
	 * @param attempts deliveries made
	 * @param error the last error, or empty
	 * @param deadSetScore the dead set's score, or {@code null} or empty for a job that
	 * is not dead
	 * @return the job, with no headers and an empty payload
	 */
	StoredJob summary(String topic, String id, String head, StoredJob.State state, int attempts, String error,
			@Nullable Object deadSetScore) {
		String lastError = error.isEmpty() ? null : error;
		Instant diedAt = diedAt(deadSetScore);
		int first = head.indexOf('|');
		int second = (first < 0) ? -1 : head.indexOf('|', first + 1);
		try {
			if (second < 0) {
				throw new NumberFormatException(head.isEmpty() ? "" : "two times expected");
			}
			return new StoredJob(id, topic, state, attempts,
					Instant.ofEpochMilli(Long.parseLong(head, first + 1, second, 36)),
					Instant.ofEpochMilli(Long.parseLong(head, 0, first, 36)), lastError, Map.of(), "", diedAt);
		}
		catch (NumberFormatException ex) {
			String problem = head.isEmpty() ? "Job record vanished" : "Malformed job record: " + ex.getMessage();
			return new StoredJob(id, topic, state, attempts, Instant.EPOCH, Instant.EPOCH,
					(lastError != null) ? lastError : problem, Map.of(), "", diedAt);
		}
	}

	/**
	 * Return a kept finished job as read-finished returns its summary.
	 * @param topic the topic
	 * @param id the job id
	 * @param kept the kept value with the head of its record:
	 * {@code outcome|finished ms in base 36|attempts|instance|record head}
	 * @return the job, with no headers and an empty payload
	 */
	StoredJob finishedSummary(String topic, String id, String kept) {
		String[] fields = kept.split("\\|", 5);
		if (fields.length < 5) {
			return new StoredJob(id, topic, StoredJob.State.COMPLETED, 0, Instant.EPOCH, Instant.EPOCH,
					"Malformed kept record", Map.of(), "", null);
		}
		StoredJob.State state = "X".equals(fields[0]) ? StoredJob.State.CANCELLED : StoredJob.State.COMPLETED;
		return finished(summary(topic, id, fields[4], state, Integer.parseInt(fields[2]), "", null),
				Long.parseLong(fields[1], 36), fields[3]);
	}

	/**
	 * Return a kept finished job as the find and read-finished scripts return it.
	 * @param topic the topic
	 * @param id the job id
	 * @param kept the kept value:
	 * {@code outcome|finished ms in base 36|attempts|instance|record}
	 * @return the job
	 */
	StoredJob finished(String topic, String id, String kept) {
		String[] fields = kept.split("\\|", 5);
		if (fields.length < 5) {
			return new StoredJob(id, topic, StoredJob.State.COMPLETED, 0, Instant.EPOCH, Instant.EPOCH,
					"Malformed kept record", Map.of(), kept, null);
		}
		StoredJob.State state = "X".equals(fields[0]) ? StoredJob.State.CANCELLED : StoredJob.State.COMPLETED;
		return finished(info(topic, id, fields[4], state, Integer.parseInt(fields[2]), "", null),
				Long.parseLong(fields[1], 36), fields[3]);
	}

	/**
	 * Return a job with the time and the instance that finished it.
	 * @param job the job as its record tells
	 * @param finishedMillis when it finished, in ms by the Redis clock
	 * @param instance the instance that finished it, or empty
	 * @return the job
	 */
	static StoredJob finished(StoredJob job, long finishedMillis, String instance) {
		return new StoredJob(job.id(), job.topic(), job.state(), job.attempts(), job.dueAt(), job.createdAt(),
				job.lastError(), job.headers(), job.payloadJson(), null, Instant.ofEpochMilli(finishedMillis),
				instance.isEmpty() ? null : instance);
	}

	private static @Nullable Instant diedAt(@Nullable Object score) {
		String text = (score != null) ? score.toString() : "";
		return text.isEmpty() ? null : Instant.ofEpochMilli((long) Double.parseDouble(text));
	}

}
