package io.github.delayqueue.http;

import java.net.InetAddress;
import java.util.List;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.InvalidJobException;
import io.github.delayqueue.core.NonRetryableJobException;

/**
 * The built-in listener of HTTP callback jobs: checks the host against the allow-list as
 * it is now and resolves it, since configuration or DNS may have changed since the job
 * was sent, then performs the call to the addresses that passed the check.
 *
 * @author delayqueue contributors
 */
public class HttpCallbackListener {

	private final HttpCallbackValidator validator;

	private final HttpCallbackExecutor executor;

	/**
	 * Create a listener.
	 * @param validator checks the host
	 * @param executor performs the call
	 */
	public HttpCallbackListener(HttpCallbackValidator validator, HttpCallbackExecutor executor) {
		this.validator = validator;
		this.executor = executor;
	}

	/**
	 * Perform a due callback; a refused one makes the job dead at once, a host that
	 * cannot be resolved is retried.
	 * @param callback the callback
	 */
	@DelayedJobListener(topics = "${delayqueue.http-callback.topic:http-callback}")
	public void call(HttpCallback callback) {
		List<InetAddress> addresses;
		try {
			addresses = this.validator.checkBeforeCall(callback);
		}
		catch (InvalidJobException ex) {
			throw new NonRetryableJobException(ex.getMessage(), ex);
		}
		this.executor.execute(callback, addresses);
	}

}
