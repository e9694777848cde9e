package io.github.delayqueue.benchmark;

import java.util.List;

/**
 * What every scenario needs of a delay queue, so that each scenario runs the same steps
 * on our starter and on Redisson.
 */
interface QueueClient extends AutoCloseable {

	/**
	 * Name the queue in the report.
	 * @return the name
	 */
	String name();

	/**
	 * Enqueue one job with one synchronous call.
	 * @param topic the topic
	 * @param payload the payload
	 * @param delayMillis the delay
	 */
	void send(String topic, String payload, long delayMillis);

	/**
	 * Enqueue one job due at an epoch time, with one synchronous call.
	 * @param topic the topic
	 * @param payload the payload
	 * @param dueAtMillis the due time
	 */
	void sendAt(String topic, String payload, long dueAtMillis);

	/**
	 * Enqueue many jobs as fast as the client allows: our batch call, Redisson's
	 * asynchronous offers awaited together.
	 * @param topic the topic
	 * @param payloads the payloads
	 * @param dueAtMillis when they are all due
	 */
	void sendMany(String topic, List<String> payloads, long dueAtMillis);

	/**
	 * Start consumers of a topic that report to a sink.
	 * @param topic the topic
	 * @param threads how many jobs run at once
	 * @param sink hears of each delivery
	 */
	void startConsumers(String topic, int threads, JobSink sink);

	/**
	 * Stop every consumer started.
	 */
	void stopConsumers();

	/**
	 * Name the Redis list that due jobs are moved into.
	 * @param topic the topic
	 * @return the key
	 */
	String readyListKey(String topic);

	@Override
	void close();

	/**
	 * Hears of deliveries: a handler start with the due time written into the payload,
	 * then its acknowledgement.
	 */
	interface JobSink {

		void started(String payload);

		void acknowledged();

	}

}
