package io.github.delayqueue.core;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
 * @param payloadJson the payload as JSON, empty in a summary (see {@link #summary()})
 * @param diedAt when the job became {@link JobState#DEAD DEAD}, by the Redis clock, or
 * {@code null} when it is in another state
 * @param finishedAt when the job completed or was cancelled, by the Redis clock, for a
 * {@link JobState#COMPLETED COMPLETED} or {@link JobState#CANCELLED CANCELLED} job kept
 * by the topic's {@code completed-retention}; else {@code null}
 * @param finishedBy the instance that completed or cancelled it (host and a process
 * mark), for such a job; else {@code null}
 * @author delayqueue contributors
 */
public record JobInfo(String id, String topic, JobState state, int attempts, Instant dueAt, Instant createdAt,
		@Nullable String lastError, Map<String, String> headers, String payloadJson, @Nullable Instant diedAt,
		@Nullable Instant finishedAt, @Nullable String finishedBy) {

	/**
	 * What a hidden payload or header value shows instead.
	 */
	public static final String HIDDEN = "******";

	private static final Pattern CLASS_NAME = Pattern
		.compile("(?:[\\p{L}_$][\\p{L}\\p{N}_$]*\\.)+[\\p{L}_$][\\p{L}\\p{N}_$]*");

	/**
	 * Create a job description, keeping an unmodifiable copy of the headers.
	 */
	public JobInfo {
		headers = Map.copyOf(headers);
	}

	/**
	 * Create a job description of a job that is not a kept finished one.
	 * @param id the job id
	 * @param topic the topic
	 * @param state the current state
	 * @param attempts deliveries made so far
	 * @param dueAt when the job is or was due, by the Redis clock
	 * @param createdAt when the job was sent, by the Redis clock
	 * @param lastError the last failure, or {@code null} if it never failed
	 * @param headers the headers it was sent with
	 * @param payloadJson the payload as JSON, empty in a summary (see {@link #summary()})
	 * @param diedAt when the job became {@link JobState#DEAD DEAD}, or {@code null}
	 */
	public JobInfo(String id, String topic, JobState state, int attempts, Instant dueAt, Instant createdAt,
			@Nullable String lastError, Map<String, String> headers, String payloadJson, @Nullable Instant diedAt) {
		this(id, topic, state, attempts, dueAt, createdAt, lastError, headers, payloadJson, diedAt, null, null);
	}

	/**
	 * Create a job description without a time of death, for a job that is not dead.
	 * @param id the job id
	 * @param topic the topic
	 * @param state the current state
	 * @param attempts deliveries made so far
	 * @param dueAt when the job is or was due, by the Redis clock
	 * @param createdAt when the job was sent, by the Redis clock
	 * @param lastError the last failure, or {@code null} if it never failed
	 * @param headers the headers it was sent with
	 * @param payloadJson the payload as JSON, empty in a summary (see {@link #summary()})
	 */
	public JobInfo(String id, String topic, JobState state, int attempts, Instant dueAt, Instant createdAt,
			@Nullable String lastError, Map<String, String> headers, String payloadJson) {
		this(id, topic, state, attempts, dueAt, createdAt, lastError, headers, payloadJson, null);
	}

	/**
	 * Return this job with its payload, header values and the message of its last error
	 * replaced by {@link #HIDDEN}, for showing to someone who may not see them: they may
	 * hold personal data or credentials, such as the {@code Authorization} header of an
	 * HTTP callback or an error message that quotes a request. The last error keeps the
	 * class name of its exception, which tells what went wrong without the details. The
	 * instance that finished a kept job keeps its process mark but not its host name, as
	 * listeners' instances are shown.
	 * @return the job without values
	 */
	public JobInfo withoutValues() {
		Map<String, String> masked = new LinkedHashMap<>();
		this.headers.keySet().forEach((name) -> masked.put(name, HIDDEN));
		return new JobInfo(this.id, this.topic, this.state, this.attempts, this.dueAt, this.createdAt,
				withoutMessage(this.lastError), masked, HIDDEN, this.diedAt, this.finishedAt,
				withoutHost(this.finishedBy));
	}

	/**
	 * Return this job as a list of jobs shows it: without its headers and with an empty
	 * payload, see {@link DelayQueueAdmin#jobSummaries}.
	 * @return the job without headers and payload
	 */
	public JobInfo summary() {
		return new JobInfo(this.id, this.topic, this.state, this.attempts, this.dueAt, this.createdAt, this.lastError,
				Map.of(), "", this.diedAt, this.finishedAt, this.finishedBy);
	}

	static @Nullable String withoutHost(@Nullable String instance) {
		if (instance == null) {
			return null;
		}
		int colon = instance.lastIndexOf(':');
		return (colon >= 0) ? HIDDEN + instance.substring(colon) : HIDDEN;
	}

	// Keeps the first line up to the exception's class name ("Failed 5 of 5 attempts;
	// last: java.net.ConnectException"): the starter's own words and a class name hold no
	// secret, the message after them may.
	static @Nullable String withoutMessage(@Nullable String error) {
		if (error == null) {
			return null;
		}
		Matcher className = CLASS_NAME.matcher(error.lines().findFirst().orElse(""));
		return className.find() ? error.substring(0, className.end()) + ": " + HIDDEN : HIDDEN;
	}

}
