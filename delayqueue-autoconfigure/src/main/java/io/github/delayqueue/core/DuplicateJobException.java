package io.github.delayqueue.core;

import java.util.List;

/**
 * Thrown when a job is sent with an id that the topic still holds pending (delayed, ready
 * or running). The job already stored is left unchanged. A dead job does not hold its id:
 * a new job with that id replaces it.
 *
 * @author delayqueue contributors
 */
public class DuplicateJobException extends DelayQueueException {

	private final String topic;

	private final List<String> jobIds;

	private final List<String> sentJobIds;

	/**
	 * Create an exception for ids that a topic already holds.
	 * @param topic the topic
	 * @param jobIds the refused ids
	 * @param message the full message
	 */
	public DuplicateJobException(String topic, List<String> jobIds, String message) {
		this(topic, jobIds, List.of(), message);
	}

	/**
	 * Create an exception for ids of a batch that their topics already hold.
	 * @param topic the topic of the first refused id
	 * @param jobIds the refused ids
	 * @param sentJobIds the ids of the batch's jobs that were sent
	 * @param message the full message, naming every refused id with its topic
	 */
	public DuplicateJobException(String topic, List<String> jobIds, List<String> sentJobIds, String message) {
		super(message);
		this.topic = topic;
		this.jobIds = List.copyOf(jobIds);
		this.sentJobIds = List.copyOf(sentJobIds);
	}

	/**
	 * Create an exception for one id that a topic already holds.
	 * @param topic the topic
	 * @param jobId the refused id
	 */
	public DuplicateJobException(String topic, String jobId) {
		this(topic, List.of(jobId),
				"Topic '" + topic + "' already holds a job with id '" + jobId + "'; the stored job is unchanged");
	}

	/**
	 * Return the topic that refused the ids; for a batch refused in several topics, the
	 * topic of the first refused id (the message names each).
	 * @return the topic
	 */
	public String getTopic() {
		return this.topic;
	}

	/**
	 * Return the ids that were refused.
	 * @return the refused ids
	 */
	public List<String> getJobIds() {
		return this.jobIds;
	}

	/**
	 * Return the ids of the jobs of a batch that were sent despite the refusal, in the
	 * order of the requests: the only way to learn the generated ones.
	 * @return the sent ids, empty for a single job
	 */
	public List<String> getSentJobIds() {
		return this.sentJobIds;
	}

}
