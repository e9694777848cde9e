package io.github.delayqueue.samples.ordertimeout;

/**
 * Payload of the job that closes an order if it is still unpaid.
 *
 * @param orderId the order to close
 * @author delayqueue contributors
 */
public record OrderTimeout(long orderId) {

	/**
	 * Topic of order timeouts.
	 */
	public static final String TOPIC = "orders.timeout";

	/**
	 * Return the job id of an order's timeout, so that paying can cancel it.
	 * @param orderId the order
	 * @return the job id
	 */
	public static String jobId(long orderId) {
		return "order-" + orderId;
	}

}
