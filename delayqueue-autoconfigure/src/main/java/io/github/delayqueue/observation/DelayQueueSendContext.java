package io.github.delayqueue.observation;

import java.util.Map;

import io.micrometer.observation.transport.SenderContext;
import org.jspecify.annotations.Nullable;

/**
 * What a send observation knows: the topic, the job id (for one job) and how many jobs
 * the send carries. Its carrier is a map of headers into which the application's
 * propagator writes the trace context; the template copies it into every job it sends.
 *
 * @author delayqueue contributors
 */
public class DelayQueueSendContext extends SenderContext<Map<String, String>> {

	private final String topic;

	private @Nullable String jobId;

	private final int jobCount;

	/**
	 * Create a context.
	 * @param carrier the headers the trace context is written to
	 * @param topic the topic, or {@code multiple} for a batch over several topics
	 * @param jobId the job id, or {@code null} for a batch of more than one job
	 * @param jobCount how many jobs the send carries
	 */
	public DelayQueueSendContext(Map<String, String> carrier, String topic, @Nullable String jobId, int jobCount) {
		super((headers, key, value) -> {
			if (headers != null) {
				headers.put(key, value);
			}
		});
		setCarrier(carrier);
		this.topic = topic;
		this.jobId = jobId;
		this.jobCount = jobCount;
		setRemoteServiceName("redis");
	}

	/**
	 * Return the topic.
	 * @return the topic, or {@code multiple}
	 */
	public String getTopic() {
		return this.topic;
	}

	/**
	 * Return the job id.
	 * @return the id, or {@code null} for a batch of more than one job
	 */
	public @Nullable String getJobId() {
		return this.jobId;
	}

	/**
	 * Set the job id, once a generated one is known.
	 * @param jobId the id
	 */
	public void setJobId(String jobId) {
		this.jobId = jobId;
	}

	/**
	 * Return how many jobs the send carries.
	 * @return the count
	 */
	public int getJobCount() {
		return this.jobCount;
	}

}
