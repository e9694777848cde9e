package io.github.delayqueue.samples.ordertimeout;

import java.time.Instant;

/**
 * An order of the sample shop; it is closed when still unpaid at {@code closesAt}.
 *
 * @param id the order id
 * @param item what was ordered
 * @param status where the order stands
 * @param placedAt when it was placed
 * @param closesAt when it is closed unless paid first
 * @author delayqueue contributors
 */
public record Order(long id, String item, Status status, Instant placedAt, Instant closesAt) {

	Order withStatus(Status status) {
		return new Order(this.id, this.item, status, this.placedAt, this.closesAt);
	}

	/**
	 * Where an order stands.
	 */
	public enum Status {

		/**
		 * Placed and waiting for payment.
		 */
		PENDING,

		/**
		 * Paid in time; its timeout job was cancelled.
		 */
		PAID,

		/**
		 * Closed by its timeout job because it was not paid in time.
		 */
		CLOSED

	}

}
