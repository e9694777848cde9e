package io.github.delayqueue.core;

import org.jspecify.annotations.Nullable;

/**
 * Base class of every exception the delay queue throws on its own account.
 *
 * @author delayqueue contributors
 */
public class DelayQueueException extends RuntimeException {

	/**
	 * Create an exception with a message.
	 * @param message what went wrong
	 */
	public DelayQueueException(String message) {
		super(message);
	}

	/**
	 * Create an exception with a message and a cause.
	 * @param message what went wrong
	 * @param cause the underlying failure
	 */
	public DelayQueueException(String message, @Nullable Throwable cause) {
		super(message, cause);
	}

}
