package io.github.delayqueue.internal.store;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * A job as stored in its topic's {@code jobs} hash.
 *
 * @param createdAt when Redis received the job
 * @param dueAt when the job is or was due
 * @param ttr the job's own time to run, or {@code null} for the topic's
 * @param maxAttempts the job's own most deliveries, or {@code null} for the topic's
 * @param headers the headers, the job's group among them (stored in a field of its own,
 * see {@link JobRecordCodec})
 * @param payloadJson the payload as JSON
 * @author delayqueue contributors
 */
public record JobRecord(Instant createdAt, Instant dueAt, @Nullable Duration ttr, @Nullable Integer maxAttempts,
		Map<String, String> headers, String payloadJson) {

}
