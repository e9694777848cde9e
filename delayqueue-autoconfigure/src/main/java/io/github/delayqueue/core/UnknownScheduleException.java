package io.github.delayqueue.core;

/**
 * Thrown when a call names a schedule that does not exist.
 *
 * @author delayqueue contributors
 */
public class UnknownScheduleException extends InvalidScheduleException {

	/**
	 * Create an exception naming the schedule.
	 * @param id the schedule's id
	 */
	public UnknownScheduleException(String id) {
		super("No schedule '" + id + "'");
	}

}
