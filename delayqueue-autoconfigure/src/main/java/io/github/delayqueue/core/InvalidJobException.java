package io.github.delayqueue.core;

import org.jspecify.annotations.Nullable;

/**
 * Thrown before anything is written to Redis when a job cannot be accepted: a bad topic
 * name, a blank or over-long id, a negative delay, a payload that is too large or cannot
 * be serialized.
 *
 * @author delayqueue contributors
 */
public class InvalidJobException extends DelayQueueException {

	/**
	 * Create an exception naming what is wrong with the job.
	 * @param message the culprit and the rule it breaks
	 */
	public InvalidJobException(String message) {
		super(message);
	}

	/**
	 * Create an exception naming what is wrong with the job.
	 * @param message the culprit and the rule it breaks
	 * @param cause the underlying failure
	 */
	public InvalidJobException(String message, @Nullable Throwable cause) {
		super(message, cause);
	}

}
