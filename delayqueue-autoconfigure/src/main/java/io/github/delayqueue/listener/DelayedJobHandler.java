package io.github.delayqueue.listener;

import io.github.delayqueue.core.DelayedJob;

/**
 * Handles the jobs of a listener registered in code, as a {@code @DelayedJobListener}
 * method taking a {@link DelayedJob} would: returning normally acknowledges the job,
 * throwing retries it or makes it dead by the topic's retry settings.
 *
 * <pre class="code">
 * DelayedJobListenerEndpoint endpoint = DelayedJobListenerEndpoint.builder("order-timeouts")
 *     .topics("orders.timeout")
 *     .handler(OrderTimeout.class, (job) -&gt; orders.closeIfUnpaid(job.payload().orderId()))
 *     .build();
 * </pre>
 *
 * @param <T> the payload type, which the payload is converted to from JSON
 * @author delayqueue contributors
 * @see DelayedJobListenerEndpoint.Builder#handler(Class, DelayedJobHandler)
 */
@FunctionalInterface
public interface DelayedJobHandler<T> {

	/**
	 * Handle a job.
	 * @param job the job, with its payload converted to the endpoint's payload type
	 * @throws Exception to retry the job, or make it dead, as a listener method's
	 * exception does
	 */
	void handle(DelayedJob<T> job) throws Exception;

}
