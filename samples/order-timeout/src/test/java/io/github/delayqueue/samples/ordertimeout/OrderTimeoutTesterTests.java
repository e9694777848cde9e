package io.github.delayqueue.samples.ordertimeout;

import java.time.Duration;

import io.github.delayqueue.test.AutoConfigureDelayQueue;
import io.github.delayqueue.test.DelayQueueTester;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Orders close 30 minutes after they were placed unless paid, proved without waiting 30
 * minutes: {@link DelayQueueTester} moves the timeout topic's time forward on Redis and
 * the real scheduler, listener and partner call do the rest. The test support's Redis
 * stands in for the sample's own.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "sample.embedded-redis.enabled=false", "demo.enabled=false", "partner.refused-orders=0",
				"partner.flaky-every=0" })
@AutoConfigureDelayQueue
class OrderTimeoutTesterTests {

	private static final Duration THIRTY_MINUTES = Duration.ofMinutes(30);

	@Autowired
	private OrderService orders;

	@Autowired
	private PartnerNotifier notifier;

	@Autowired
	private DelayQueueTester delayQueue;

	@Test
	void anUnpaidOrderIsClosed30MinutesAfterItWasPlacedAndThePartnerIsTold() {
		long delivered = this.notifier.delivered();
		Order order = this.orders.place("book", THIRTY_MINUTES);

		this.delayQueue.advance(OrderTimeout.TOPIC, Duration.ofMinutes(29));
		this.delayQueue.awaitIdle(OrderTimeout.TOPIC);
		assertThat(status(order)).isEqualTo(Order.Status.PENDING);
		this.delayQueue.assertThat(OrderTimeout.TOPIC)
			.job(OrderTimeout.jobId(order.id()))
			.isDelayed()
			.isDueIn(Duration.ofMinutes(1), Duration.ofSeconds(10));

		this.delayQueue.advance(OrderTimeout.TOPIC, Duration.ofMinutes(1));
		this.delayQueue.awaitIdle(OrderTimeout.TOPIC, OrderClosed.TOPIC);

		assertThat(status(order)).isEqualTo(Order.Status.CLOSED);
		this.delayQueue.assertThat(OrderTimeout.TOPIC).hasSent(1).job(OrderTimeout.jobId(order.id())).isGone();
		assertThat(this.delayQueue.sentPayloads(OrderClosed.TOPIC, OrderClosed.class)).extracting(OrderClosed::orderId)
			.containsExactly(order.id());
		this.delayQueue.assertThat(OrderClosed.TOPIC).isIdle().hasNoDeadJobs();
		assertThat(this.notifier.delivered()).isEqualTo(delivered + 1);
	}

	@Test
	void aPaidOrderStaysPaidAndNoPartnerIsTold() {
		Order order = this.orders.place("lamp", THIRTY_MINUTES);
		assertThat(this.orders.pay(order.id())).get().extracting(Order::status).isEqualTo(Order.Status.PAID);

		assertThat(this.delayQueue.advance(OrderTimeout.TOPIC, THIRTY_MINUTES)).isZero();
		this.delayQueue.awaitIdle(OrderTimeout.TOPIC, OrderClosed.TOPIC);

		assertThat(status(order)).isEqualTo(Order.Status.PAID);
		this.delayQueue.assertThat(OrderTimeout.TOPIC).hasSent(1).hasDelayed(0);
		this.delayQueue.assertThat(OrderClosed.TOPIC).hasSent(0);
	}

	private Order.Status status(Order order) {
		return this.orders.find(order.id()).orElseThrow().status();
	}

}
