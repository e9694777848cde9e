package io.github.delayqueue.samples.ordertimeout;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.JobRequest;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Service;

/**
 * Places, pays and closes orders, scheduling and cancelling their timeout jobs. Orders
 * live in memory: the sample is about the queue, not about storage.
 *
 * @author delayqueue contributors
 */
@Service
public class OrderService {

	private static final Log logger = LogFactory.getLog(OrderService.class);

	// Ids come from Redis so that they never repeat a job id still pending from a run
	// against the same (non-embedded) Redis.
	private static final String ORDER_SEQUENCE = "sample:order-id";

	private final Map<Long, Order> orders = new ConcurrentHashMap<>();

	private final DelayQueueOperations delayQueue;

	private final StringRedisTemplate redis;

	public OrderService(DelayQueueOperations delayQueue, StringRedisTemplate redis) {
		this.delayQueue = delayQueue;
		this.redis = redis;
	}

	/**
	 * Place an order and schedule its closing.
	 * @param item what is ordered
	 * @param closeAfter how long it may stay unpaid
	 * @return the order
	 */
	public Order place(String item, Duration closeAfter) {
		Long id = this.redis.opsForValue().increment(ORDER_SEQUENCE);
		Instant now = Instant.now();
		Order order = new Order(id, item, Order.Status.PENDING, now, now.plus(closeAfter));
		this.orders.put(id, order);
		this.delayQueue.send(JobRequest.builder(OrderTimeout.TOPIC, new OrderTimeout(id))
			.id(OrderTimeout.jobId(id))
			.delay(closeAfter)
			.build());
		logger.debug("Placed order " + id + "; it closes at " + order.closesAt() + " unless paid");
		return order;
	}

	/**
	 * Pay an order that is still pending, and cancel its timeout job.
	 * @param id the order
	 * @return the order after the attempt: {@code PAID}, or {@code CLOSED} when too late
	 */
	public Optional<Order> pay(long id) {
		Order order = this.orders.computeIfPresent(id, (key, current) -> (current.status() == Order.Status.PENDING)
				? current.withStatus(Order.Status.PAID) : current);
		if (order != null && order.status() == Order.Status.PAID) {
			// false when the job is already running: the listener then finds the order
			// paid.
			this.delayQueue.cancel(OrderTimeout.TOPIC, OrderTimeout.jobId(id));
		}
		return Optional.ofNullable(order);
	}

	/**
	 * Close an order if it is still pending.
	 * @param id the order
	 * @return {@code true} if this call closed it
	 */
	boolean closeIfUnpaid(long id) {
		boolean[] closed = new boolean[1];
		this.orders.computeIfPresent(id, (key, current) -> {
			closed[0] = current.status() == Order.Status.PENDING;
			return closed[0] ? current.withStatus(Order.Status.CLOSED) : current;
		});
		return closed[0];
	}

	public Optional<Order> find(long id) {
		return Optional.ofNullable(this.orders.get(id));
	}

	public Collection<Order> all() {
		return this.orders.values();
	}

}
