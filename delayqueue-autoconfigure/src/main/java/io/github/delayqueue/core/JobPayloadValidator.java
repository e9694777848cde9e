package io.github.delayqueue.core;

/**
 * Checks payloads when they are sent, before anything is written to Redis. Beans of this
 * type are applied by {@link DelayQueueTemplate} to every job.
 *
 * @author delayqueue contributors
 */
@FunctionalInterface
public interface JobPayloadValidator {

	/**
	 * Check a payload about to be sent.
	 * @param topic the topic
	 * @param payload the payload
	 * @throws InvalidJobException if the payload must not be sent
	 */
	void validate(String topic, Object payload);

}
