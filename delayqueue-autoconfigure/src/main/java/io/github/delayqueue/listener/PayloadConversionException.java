package io.github.delayqueue.listener;

import io.github.delayqueue.core.NonRetryableJobException;

/**
 * Thrown when a job's payload cannot be converted to the type a listener method declares:
 * retrying cannot help, so the job becomes dead with this as its last error.
 *
 * @author delayqueue contributors
 */
public class PayloadConversionException extends NonRetryableJobException {

	/**
	 * Create an exception.
	 * @param message what could not be converted to what
	 * @param cause the conversion failure
	 */
	public PayloadConversionException(String message, Throwable cause) {
		super(message, cause);
	}

}
