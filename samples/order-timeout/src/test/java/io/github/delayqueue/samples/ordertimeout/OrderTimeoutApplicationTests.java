package io.github.delayqueue.samples.ordertimeout;

import java.time.Duration;

import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueOperations;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpStatusCode;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sample on the embedded Redis, with a demo small and quick enough for a test.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "demo.orders=40", "demo.pay-ratio=0.5", "demo.close-after=2s", "demo.spread=500ms",
				"demo.progress-interval=100ms", "partner.refused-orders=2", "partner.flaky-every=1",
				"delayqueue.topics.partner.notify.retry.max-attempts=3",
				"delayqueue.topics.partner.notify.retry.backoff.schedule=100ms,200ms", "orders.close-after=1h" })
class OrderTimeoutApplicationTests {

	@Autowired
	private DemoRunner demo;

	@Autowired
	private DelayQueueOperations delayQueue;

	@Autowired
	private DelayQueueAdmin admin;

	@Autowired
	private PartnerNotifier notifier;

	@LocalServerPort
	private int port;

	@Test
	void demoClosesTheUnpaidOrdersAndParksTheRefusedNotificationsAsDead() {
		DemoSummary summary = awaitSummary();
		assertThat(summary.complete()).isTrue();
		assertThat(summary.orders()).isEqualTo(40);
		assertThat(summary.paid()).isEqualTo(20);
		assertThat(summary.closed()).isEqualTo(20);
		assertThat(summary.pending()).isZero();
		assertThat(summary.dead()).isEqualTo(2);
		assertThat(summary.delivered()).isEqualTo(18);
		// flaky-every=1: every notification failed its first call, so each needed a
		// retry.
		assertThat(summary.retried()).isEqualTo(20);
		assertThat(summary.latenessP99()).isGreaterThanOrEqualTo(summary.latenessP50());
	}

	@Test
	void deadNotificationsSucceedOnceRequeuedAfterThePartnerIsFixed() {
		DemoSummary summary = awaitSummary();
		assertThat(this.admin.deadJobs(OrderClosed.TOPIC, 0, 10)).hasSize(2)
			.allSatisfy((job) -> assertThat(job.lastError()).contains("503 Service Unavailable"));
		long delivered = this.notifier.delivered();
		assertThat(this.admin.requeueDead(OrderClosed.TOPIC)).isEqualTo(summary.dead());
		await().atMost(Duration.ofSeconds(20))
			.untilAsserted(() -> assertThat(this.notifier.delivered()).isEqualTo(delivered + summary.dead()));
		assertThat(this.admin.stats(OrderClosed.TOPIC).dead()).isZero();
	}

	@Test
	void payingAnOrderCancelsItsTimeoutJob() {
		RestClient client = RestClient.create("http://localhost:" + this.port);
		Order order = client.post().uri("/orders").retrieve().body(Order.class);
		assertThat(order).isNotNull();
		assertThat(this.delayQueue.find(OrderTimeout.TOPIC, OrderTimeout.jobId(order.id()))).isPresent();
		Order paid = client.post().uri("/orders/{id}/pay", order.id()).retrieve().body(Order.class);
		assertThat(paid).isNotNull();
		assertThat(paid.status()).isEqualTo(Order.Status.PAID);
		assertThat(this.delayQueue.find(OrderTimeout.TOPIC, OrderTimeout.jobId(order.id()))).isEmpty();
	}

	@Test
	void servesHealthWithTheQueueOnTheEmbeddedRedis() {
		RestClient client = RestClient.create("http://localhost:" + this.port);
		HttpStatusCode status = client.get().uri("/actuator/health").retrieve().toBodilessEntity().getStatusCode();
		assertThat(status.is2xxSuccessful()).isTrue();
	}

	@Test
	void servesTheDashboardReadOnlyWithTheDemoTopics() {
		awaitSummary();
		RestClient client = RestClient.create("http://localhost:" + this.port);
		String page = client.get().uri("/delayqueue").retrieve().body(String.class);
		String topics = client.get().uri("/delayqueue/api/topics").retrieve().body(String.class);
		String settings = client.get().uri("/delayqueue/api/settings").retrieve().body(String.class);
		HttpStatusCode script = client.get()
			.uri("/delayqueue/assets/app.js")
			.retrieve()
			.toBodilessEntity()
			.getStatusCode();
		assertThat(page).contains("delayqueue/assets/app.js");
		assertThat(topics).contains("\"topic\":\"" + OrderClosed.TOPIC + "\"");
		assertThat(settings).contains("\"readOnly\":true");
		assertThat(script.is2xxSuccessful()).isTrue();
	}

	private DemoSummary awaitSummary() {
		await().atMost(Duration.ofSeconds(30)).until(() -> this.demo.summary().isPresent());
		return this.demo.summary().orElseThrow();
	}

}
