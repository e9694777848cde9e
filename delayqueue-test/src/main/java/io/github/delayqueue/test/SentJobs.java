package io.github.delayqueue.test;

import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The jobs sent during a test, in the order they were sent, safe to add to from handler
 * threads while a test reads them.
 *
 * @author delayqueue contributors
 */
public final class SentJobs {

	private final ConcurrentLinkedQueue<SentJob> jobs = new ConcurrentLinkedQueue<>();

	/**
	 * Record a sent job.
	 * @param job the job
	 */
	void add(SentJob job) {
		this.jobs.add(job);
	}

	/**
	 * Return every job sent so far.
	 * @return the jobs, oldest first
	 */
	public List<SentJob> all() {
		return List.copyOf(this.jobs);
	}

	/**
	 * Return the jobs sent to a topic so far.
	 * @param topic the topic
	 * @return the jobs, oldest first
	 */
	public List<SentJob> to(String topic) {
		return this.jobs.stream().filter((job) -> job.topic().equals(topic)).toList();
	}

	/**
	 * Return the payloads of the jobs sent to a topic so far, as a type.
	 * @param <T> the type
	 * @param topic the topic
	 * @param type the payloads' class, or one of its supertypes
	 * @return the payloads, oldest first
	 * @throws ClassCastException if a payload is of another type
	 */
	public <T> List<T> payloads(String topic, Class<T> type) {
		return to(topic).stream().map((job) -> job.payload(type)).toList();
	}

	/**
	 * Forget every job recorded so far.
	 */
	public void clear() {
		this.jobs.clear();
	}

}
