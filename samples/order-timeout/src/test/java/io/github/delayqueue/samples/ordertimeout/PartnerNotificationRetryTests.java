package io.github.delayqueue.samples.ordertimeout;

import java.time.Duration;

import io.github.delayqueue.core.JobInfo;
import io.github.delayqueue.test.AutoConfigureDelayQueue;
import io.github.delayqueue.test.DelayQueueTester;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A partner that refuses a closed order's notification: the call is retried 1, 5 and 30
 * minutes apart, as a production schedule would have it, and the notification goes dead
 * after its fourth attempt, walked through in milliseconds with {@link DelayQueueTester}.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "sample.embedded-redis.enabled=false", "demo.enabled=false", "partner.refused-orders=1",
				"partner.flaky-every=0", "delayqueue.topics.partner.notify.retry.max-attempts=4",
				"delayqueue.topics.partner.notify.retry.backoff.schedule=1m,5m,30m" })
@AutoConfigureDelayQueue
class PartnerNotificationRetryTests {

	private static final Duration TOLERANCE = Duration.ofSeconds(10);

	@Autowired
	private OrderService orders;

	@Autowired
	private DelayQueueTester delayQueue;

	@Test
	void aRefusedNotificationIsRetriedOnTheScheduleThenDead() {
		Order order = this.orders.place("chair", Duration.ofMinutes(30));
		this.delayQueue.makeDue(OrderTimeout.TOPIC);
		this.delayQueue.awaitIdle(OrderTimeout.TOPIC, OrderClosed.TOPIC);
		String notification = OrderClosed.jobId(order.id());
		this.delayQueue.assertThat(OrderClosed.TOPIC)
			.job(notification)
			.isDelayed()
			.hasAttempts(1)
			.hasLastErrorContaining("503 Service Unavailable")
			.isDueIn(Duration.ofMinutes(1), TOLERANCE);

		this.delayQueue.advance(OrderClosed.TOPIC, Duration.ofMinutes(1));
		this.delayQueue.awaitIdle(OrderClosed.TOPIC);
		this.delayQueue.assertThat(OrderClosed.TOPIC)
			.job(notification)
			.hasAttempts(2)
			.isDueIn(Duration.ofMinutes(5), TOLERANCE);

		this.delayQueue.advance(OrderClosed.TOPIC, Duration.ofMinutes(5));
		this.delayQueue.awaitIdle(OrderClosed.TOPIC);
		this.delayQueue.assertThat(OrderClosed.TOPIC)
			.job(notification)
			.hasAttempts(3)
			.isDueIn(Duration.ofMinutes(30), TOLERANCE);

		this.delayQueue.advance(OrderClosed.TOPIC, Duration.ofMinutes(30));
		this.delayQueue.awaitIdle(OrderClosed.TOPIC);
		this.delayQueue.assertThat(OrderClosed.TOPIC).hasDead(1).job(notification).isDead().hasAttempts(4);
		assertThat(this.delayQueue.deadJobs(OrderClosed.TOPIC)).extracting(JobInfo::lastError)
			.singleElement()
			.asString()
			.contains("503 Service Unavailable");
		assertThat(this.delayQueue.failures(OrderClosed.TOPIC)).hasSize(4);
	}

}
