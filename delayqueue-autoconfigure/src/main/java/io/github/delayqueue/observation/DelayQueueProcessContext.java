package io.github.delayqueue.observation;

import java.time.Instant;
import java.util.Map;

import io.micrometer.observation.transport.ReceiverContext;
import org.jspecify.annotations.Nullable;

/**
 * What a handler-run observation knows: the job, its attempt, the listener, and what
 * became of the job. Its carrier is the job's headers, from which the application's
 * propagator reads the send's trace context, unless the run is linked to the send instead
 * (see {@link #isLinkedToSend()}).
 *
 * @author delayqueue contributors
 */
public class DelayQueueProcessContext extends ReceiverContext<Map<String, String>> {

	private static final Map<String, String> NO_HEADERS = Map.of();

	private final String topic;

	private final String jobId;

	private final int attempt;

	private final String listenerId;

	private final Map<String, String> headers;

	private final Instant sentAt;

	private final Instant dueAt;

	private final boolean linkedToSend;

	private @Nullable String outcome;

	/**
	 * Create a context.
	 * @param headers the job's headers
	 * @param topic the topic
	 * @param jobId the job id
	 * @param attempt the delivery attempt, from 1
	 * @param listenerId the listener that runs the handler
	 * @param sentAt when the job was sent
	 * @param dueAt when the job was due
	 * @param linkedToSend whether the run starts a trace of its own that links to the
	 * send's span, rather than continuing the send's trace
	 */
	public DelayQueueProcessContext(Map<String, String> headers, String topic, String jobId, int attempt,
			String listenerId, Instant sentAt, Instant dueAt, boolean linkedToSend) {
		super((carrier, key) -> (carrier != null) ? carrier.get(key) : null);
		// Linked runs read no parent: they start a trace of their own.
		setCarrier(linkedToSend ? NO_HEADERS : headers);
		this.headers = headers;
		this.topic = topic;
		this.jobId = jobId;
		this.attempt = attempt;
		this.listenerId = listenerId;
		this.sentAt = sentAt;
		this.dueAt = dueAt;
		this.linkedToSend = linkedToSend;
		setRemoteServiceName("redis");
	}

	/**
	 * Return the topic.
	 * @return the topic
	 */
	public String getTopic() {
		return this.topic;
	}

	/**
	 * Return the job id.
	 * @return the id
	 */
	public String getJobId() {
		return this.jobId;
	}

	/**
	 * Return the delivery attempt.
	 * @return the attempt, from 1
	 */
	public int getAttempt() {
		return this.attempt;
	}

	/**
	 * Return the listener that runs the handler.
	 * @return the listener id
	 */
	public String getListenerId() {
		return this.listenerId;
	}

	/**
	 * Return the job's headers, which hold the send's trace context.
	 * @return the headers
	 */
	public Map<String, String> getHeaders() {
		return this.headers;
	}

	/**
	 * Return when the job was sent.
	 * @return the send time, by the Redis clock
	 */
	public Instant getSentAt() {
		return this.sentAt;
	}

	/**
	 * Return when the job was due.
	 * @return the due time, by the Redis clock
	 */
	public Instant getDueAt() {
		return this.dueAt;
	}

	/**
	 * Whether the run starts a trace of its own with a link to the send's span, because
	 * the job was due long after it was sent
	 * ({@code delayqueue.observation.link-long-delays}).
	 * @return whether the run is linked rather than a child of the send
	 */
	public boolean isLinkedToSend() {
		return this.linkedToSend;
	}

	/**
	 * Return what became of the job.
	 * @return {@code success}, {@code retry}, {@code dead}, or {@code null} while unknown
	 */
	public @Nullable String getOutcome() {
		return this.outcome;
	}

	/**
	 * Set what became of the job.
	 * @param outcome {@code success}, {@code retry} or {@code dead}
	 */
	public void setOutcome(String outcome) {
		this.outcome = outcome;
	}

}
