package io.github.delayqueue.core;

import java.time.Duration;

/**
 * Checks what a request says to do when its id is pending and turns it into what the
 * enqueue script reads.
 *
 * @author delayqueue contributors
 */
final class IfPendingCodes {

	private IfPendingCodes() {
	}

	/**
	 * Return the letter of a request's choice: none to reject, {@code k} to keep,
	 * {@code r} to replace.
	 * @param request the request
	 * @return the letter, {@code '\0'} for none
	 */
	static char code(JobRequest request) {
		return switch (request.ifPending()) {
			case REJECT -> '\0';
			case KEEP -> 'k';
			case REPLACE -> 'r';
		};
	}

	/**
	 * Return a request's debounce limit, checked.
	 * @param topic the topic, for messages
	 * @param request the request
	 * @return the limit in ms, or -1 for none
	 * @throws InvalidJobException if it is set without {@link IfPending#REPLACE}, or is
	 * negative or longer than {@link DelayQueueTemplate#MAX_DELAY}
	 */
	static long maxWaitMillis(String topic, JobRequest request) {
		Duration maxWait = request.debounceMaxWait();
		if (maxWait == null) {
			return -1;
		}
		if (request.ifPending() != IfPending.REPLACE) {
			throw new InvalidJobException("Job " + name(request) + " for topic '" + topic
					+ "' sets debounceMaxWait, which only IfPending.REPLACE uses; it says " + request.ifPending());
		}
		if (maxWait.isNegative() || maxWait.compareTo(DelayQueueTemplate.MAX_DELAY) > 0) {
			throw new InvalidJobException("debounceMaxWait of job " + name(request) + " for topic '" + topic
					+ "' must be between zero and " + DelayQueueTemplate.MAX_DELAY.toDays() + " days, was " + maxWait);
		}
		return maxWait.toMillis();
	}

	private static String name(JobRequest request) {
		return (request.id() != null) ? "'" + request.id() + "'" : "(generated id)";
	}

}
