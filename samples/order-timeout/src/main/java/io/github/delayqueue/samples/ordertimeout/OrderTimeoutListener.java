package io.github.delayqueue.samples.ordertimeout;

import java.time.Instant;
import java.util.Optional;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.DelayedJob;
import io.github.delayqueue.core.DuplicateJobException;
import io.github.delayqueue.core.JobRequest;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.stereotype.Component;

/**
 * Closes orders that are still unpaid when their timeout falls due, and has the partner
 * told about each closed order.
 *
 * @author delayqueue contributors
 */
@Component
public class OrderTimeoutListener {

	private static final Log logger = LogFactory.getLog(OrderTimeoutListener.class);

	private final OrderService orders;

	private final DelayQueueOperations delayQueue;

	private final Lateness lateness;

	public OrderTimeoutListener(OrderService orders, DelayQueueOperations delayQueue, Lateness lateness) {
		this.orders = orders;
		this.delayQueue = delayQueue;
		this.lateness = lateness;
	}

	@DelayedJobListener(OrderTimeout.TOPIC)
	void onTimeout(DelayedJob<OrderTimeout> job) {
		this.lateness.record(job.dueAt());
		long id = job.payload().orderId();
		if (this.orders.closeIfUnpaid(id)) {
			logger.debug("Closed unpaid order " + id);
		}
		Optional<Order> order = this.orders.find(id);
		if (order.isEmpty()) {
			// Orders live in memory: a job left from an earlier run against the same
			// Redis.
			logger.info("Order " + id + " is unknown to this run; dropping its timeout");
			return;
		}
		if (order.get().status() == Order.Status.CLOSED) {
			notifyPartner(id);
		}
	}

	// Also on a repeated delivery of an order already closed (delivery is at-least-once):
	// the job id makes a second notification for the same order a no-op while one is
	// pending.
	private void notifyPartner(long id) {
		try {
			this.delayQueue.send(JobRequest.builder(OrderClosed.TOPIC, new OrderClosed(id, Instant.now()))
				.id(OrderClosed.jobId(id))
				.build());
		}
		catch (DuplicateJobException ex) {
			logger.debug("Partner notification for order " + id + " is already pending");
		}
	}

}
