package io.github.delayqueue.store;

import java.time.Instant;
import java.util.Map;

import io.github.delayqueue.core.JobInfo;
import io.github.delayqueue.core.JobState;

/**
 * Turns what the read scripts return of a job into a {@link JobInfo}, also when its
 * record vanished or cannot be decoded, so that a look at a broken job shows why.
 *
 * @author delayqueue contributors
 */
final class JobInfos {

	private final JobRecordCodec codec;

	JobInfos(JobRecordCodec codec) {
		this.codec = codec;
	}

	JobInfo info(String topic, String id, String record, JobState state, int attempts, String error) {
		String lastError = error.isEmpty() ? null : error;
		if (record.isEmpty()) {
			return new JobInfo(id, topic, state, attempts, Instant.EPOCH, Instant.EPOCH,
					(lastError != null) ? lastError : "Job record vanished", Map.of(), "");
		}
		try {
			JobRecord decoded = this.codec.decode(record);
			return new JobInfo(id, topic, state, attempts, decoded.dueAt(), decoded.createdAt(), lastError,
					decoded.headers(), decoded.payloadJson());
		}
		catch (IllegalArgumentException ex) {
			return new JobInfo(id, topic, state, attempts, Instant.EPOCH, Instant.EPOCH, ex.getMessage(), Map.of(),
					record);
		}
	}

}
