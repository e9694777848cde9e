package io.github.delayqueue.core;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * A job as a listener method sees it: the converted payload and its delivery details.
 *
 * <pre class="code">
 * &#064;DelayedJobListener(topics = { "mail.vip", "mail" })
 * void mail(DelayedJob&lt;Mail&gt; job) {
 *     log.info("Sending {} (attempt {}, due {})", job.id(), job.attempt(), job.dueAt());
 *     mailer.send(job.payload());
 * }
 * </pre>
 *
 * <p>
 * A handler that legitimately runs longer than its time to run keeps its delivery by
 * extending it, as often as it needs to, from the handler's thread or any other (an
 * asynchronous handler's too):
 *
 * <pre class="code">
 * &#064;DelayedJobListener("reports.build")
 * void build(DelayedJob&lt;ReportRequest&gt; job) {
 *     for (Chunk chunk : reports.chunks(job.payload())) {
 *         if (!job.extendTtr(Duration.ofMinutes(2))) {
 *             return; // expired or delivered again: another consumer has the job now
 *         }
 *         reports.write(chunk);
 *     }
 * }
 * </pre>
 *
 * @param <T> the payload type
 * @author delayqueue contributors
 */
public final class DelayedJob<T> {

	private static final Lease UNBOUND = (ttr) -> true;

	private final String id;

	private final String topic;

	private final T payload;

	private final int attempt;

	private final Instant dueAt;

	private final Map<String, String> headers;

	private final Lease lease;

	/**
	 * Create a job that belongs to no delivery, as a unit test of a handler does: it has
	 * no time to run that could elapse, so {@link #extendTtr(Duration)} always succeeds.
	 * @param id the job id
	 * @param topic the topic it was taken from
	 * @param payload the payload, converted to the listener's declared type
	 * @param attempt this delivery's number, 1 for the first
	 * @param dueAt when the job was due, by the Redis clock
	 * @param headers the headers it was sent with; an unmodifiable copy is kept
	 */
	public DelayedJob(String id, String topic, T payload, int attempt, Instant dueAt, Map<String, String> headers) {
		this(id, topic, payload, attempt, dueAt, headers, UNBOUND);
	}

	/**
	 * Create a job bound to a delivery, whose time to run the lease extends.
	 * @param id the job id
	 * @param topic the topic it was taken from
	 * @param payload the payload, converted to the listener's declared type
	 * @param attempt this delivery's number, 1 for the first
	 * @param dueAt when the job was due, by the Redis clock
	 * @param headers the headers it was sent with; an unmodifiable copy is kept
	 * @param lease extends the delivery's time to run
	 */
	public DelayedJob(String id, String topic, T payload, int attempt, Instant dueAt, Map<String, String> headers,
			Lease lease) {
		this.id = Objects.requireNonNull(id, "id");
		this.topic = Objects.requireNonNull(topic, "topic");
		this.payload = payload;
		this.attempt = attempt;
		this.dueAt = Objects.requireNonNull(dueAt, "dueAt");
		this.headers = Map.copyOf(headers);
		this.lease = Objects.requireNonNull(lease, "lease");
	}

	/**
	 * Return the job id.
	 * @return the id
	 */
	public String id() {
		return this.id;
	}

	/**
	 * Return the topic the job was taken from.
	 * @return the topic
	 */
	public String topic() {
		return this.topic;
	}

	/**
	 * Return the payload, converted to the listener's declared type.
	 * @return the payload
	 */
	public T payload() {
		return this.payload;
	}

	/**
	 * Return this delivery's number, 1 for the first.
	 * @return the attempt
	 */
	public int attempt() {
		return this.attempt;
	}

	/**
	 * Return when the job was due, by the Redis clock.
	 * @return the due time
	 */
	public Instant dueAt() {
		return this.dueAt;
	}

	/**
	 * Return the headers the job was sent with.
	 * @return the headers, unmodifiable
	 */
	public Map<String, String> headers() {
		return this.headers;
	}

	/**
	 * Return the group the job was sent in, see {@link JobRequest.Builder#group(String)}.
	 * @return the group, or {@code null} for none
	 */
	public @Nullable String group() {
		return this.headers.get(JobRequest.GROUP_HEADER);
	}

	/**
	 * Extend this delivery's time to run to {@code ttr} from now, by the Redis clock, so
	 * that a handler that legitimately runs long keeps its delivery instead of the job
	 * being delivered again. An extension never shortens the time to run already granted,
	 * and is fenced by this delivery's attempt like the acknowledgement: it is refused,
	 * and this method returns {@code false}, once the delivery's time to run has elapsed
	 * or the job was delivered again (to this consumer or another). A handler told so
	 * should stop: its job belongs to another delivery, and whatever this one returns
	 * changes nothing.
	 * <p>
	 * One round trip to Redis; callable from any thread, as often as needed.
	 * @param ttr how long from now the delivery may still run, at least 1 ms
	 * @return {@code true} if the delivery is still this handler's until then,
	 * {@code false} if the extension was refused
	 * @throws InvalidJobException if {@code ttr} is under 1 ms or over
	 * {@link DelayQueueTemplate#MAX_DELAY}
	 * @throws org.springframework.dao.DataAccessException if Redis cannot be reached
	 */
	public boolean extendTtr(Duration ttr) {
		Objects.requireNonNull(ttr, "ttr");
		JobConstraints.checkTtr(this.topic, this.id, ttr);
		return this.lease.extend(ttr);
	}

	@Override
	public boolean equals(@Nullable Object other) {
		if (this == other) {
			return true;
		}
		return other instanceof DelayedJob<?> job && this.attempt == job.attempt && this.id.equals(job.id)
				&& this.topic.equals(job.topic) && Objects.equals(this.payload, job.payload)
				&& this.dueAt.equals(job.dueAt) && this.headers.equals(job.headers);
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.id, this.topic, this.payload, this.attempt, this.dueAt, this.headers);
	}

	@Override
	public String toString() {
		return "DelayedJob[id=" + this.id + ", topic=" + this.topic + ", payload=" + this.payload + ", attempt="
				+ this.attempt + ", dueAt=" + this.dueAt + ", headers=" + this.headers + "]";
	}

	/**
	 * Extends the time to run of the delivery a {@link DelayedJob} belongs to. The
	 * listener container binds each job it passes to a handler to its delivery; a test
	 * may pass its own.
	 */
	@FunctionalInterface
	public interface Lease {

		/**
		 * Extend the delivery's time to run, see {@link DelayedJob#extendTtr(Duration)}.
		 * @param ttr how long from now the delivery may still run, already checked
		 * @return {@code true} if extended, {@code false} if refused
		 */
		boolean extend(Duration ttr);

	}

}
