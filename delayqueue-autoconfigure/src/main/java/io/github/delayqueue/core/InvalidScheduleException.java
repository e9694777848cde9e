package io.github.delayqueue.core;

/**
 * Thrown before anything is written to Redis when a schedule cannot be accepted: a bad id
 * or topic, a cron expression Spring cannot read, an unknown time zone, both or neither
 * of a cron expression and a rate, a payload that cannot be serialized; or when a change
 * at run time would overrule the application's configuration.
 *
 * @author delayqueue contributors
 */
public class InvalidScheduleException extends DelayQueueException {

	/**
	 * Create an exception naming what is wrong with the schedule.
	 * @param message the culprit and the rule it breaks
	 */
	public InvalidScheduleException(String message) {
		super(message);
	}

}
