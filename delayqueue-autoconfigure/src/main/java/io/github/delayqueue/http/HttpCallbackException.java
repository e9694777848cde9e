package io.github.delayqueue.http;

import io.github.delayqueue.core.DelayQueueException;
import org.jspecify.annotations.Nullable;

/**
 * Thrown when an HTTP callback failed in a way a later attempt may cure: a 408, 429 or
 * 5xx answer, a timeout or a connection error. The job is retried on its topic's backoff;
 * list this class under the topic's {@code retry.non-retryable} to make such failures
 * final instead.
 *
 * @author delayqueue contributors
 */
public class HttpCallbackException extends DelayQueueException {

	private final int statusCode;

	/**
	 * Create an exception.
	 * @param message what failed, kept as the job's last error
	 * @param statusCode the answer's status, or {@code 0} when there was no answer
	 * @param cause the underlying failure
	 */
	public HttpCallbackException(String message, int statusCode, @Nullable Throwable cause) {
		super(message, cause);
		this.statusCode = statusCode;
	}

	/**
	 * Return the answer's HTTP status.
	 * @return the status, or {@code 0} when there was no answer (timeout, connection
	 * error)
	 */
	public int getStatusCode() {
		return this.statusCode;
	}

}
