package io.github.delayqueue.samples.ordertimeout;

import java.time.Instant;

/**
 * Payload of the job that tells the partner an order was closed.
 *
 * @param orderId the closed order
 * @param closedAt when it was closed
 * @author delayqueue contributors
 */
public record OrderClosed(long orderId, Instant closedAt) {

	/**
	 * Topic of partner notifications.
	 */
	public static final String TOPIC = "partner.notify";

	/**
	 * Return the job id of an order's notification: one per order, so a second send for
	 * the same order is refused while the first is pending.
	 * @param orderId the order
	 * @return the job id
	 */
	public static String jobId(long orderId) {
		return "order-closed-" + orderId;
	}

}
