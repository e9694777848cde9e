package io.github.delayqueue.internal.dashboard;

import java.time.Duration;
import java.util.Map;

import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.JobRequest;
import io.github.delayqueue.test.RedisExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A topic's jobs selected several at a time, filtered, and the throughput chart's range,
 * in headless Chromium on the shop of {@link DashboardBrowserTests}. Screenshots land in
 * {@code target/screenshots}.
 */
@ExtendWith(RedisExtension.class)
class DashboardSelectionBrowserTests {

	private static final Duration PATIENCE = Duration.ofSeconds(30);

	@RegisterExtension
	final DashboardInBrowser dashboard = DashboardBrowserTests.shop();

	@Test
	void twoSelectedDeadJobsAreRequeuedInOneActionAndLeaveTheDeadTab() throws Exception {
		String page = this.dashboard.start("delayqueue.dashboard.read-only=false",
				"delayqueue.dashboard.show-payloads=always");
		sendDeadPayments("payment-0", "payment-1", "payment-2");

		this.dashboard.browser().open(page + "#/topics/payments.capture?state=dead");
		await().atMost(PATIENCE)
			.untilAsserted(() -> assertThat(this.dashboard.browser().all("#jobs tr[data-job]")).hasSize(3));
		this.dashboard.browser().click("tr[data-job='payment-0'] input.select");
		this.dashboard.browser().click("tr[data-job='payment-2'] input.select");
		assertThat(this.dashboard.browser().text("#bulk-actions .selected-count")).isEqualTo("2 jobs selected");
		this.dashboard.browser().screenshotsLightAndDark("dashboard-selection");

		// The payment service is fixed: requeued jobs now succeed.
		this.dashboard.bean(DashboardBrowserTests.PaymentService.class).fixed.set(true);
		this.dashboard.browser().click("button[data-action='bulk-requeue']");

		await().atMost(PATIENCE).untilAsserted(() -> {
			assertThat(this.dashboard.browser().all("#jobs tr[data-job]")).hasSize(1);
			assertThat(this.dashboard.browser().all("#jobs tr[data-job='payment-1']")).hasSize(1);
			assertThat(this.dashboard.browser().text("#notice")).contains("2 jobs requeued");
		});
		assertThat(this.dashboard.browser().one("#bulk-actions").isDisplayed()).isFalse();
		this.dashboard.browser().click("#select-page");
		assertThat(this.dashboard.browser().text("#bulk-actions .selected-count")).isEqualTo("1 job selected");
		assertThat(this.dashboard.browser().consoleErrors()).as("errors in the browser's console").isEmpty();
	}

	@Test
	void jobsAreFilteredByIdPrefixAndReadOnlyOffersNeitherSelectionNorTheHiddenErrors() throws Exception {
		String page = this.dashboard.start();
		sendDeadPayments("payment-1", "payment-2", "refund-3");

		this.dashboard.browser().open(page + "#/topics/payments.capture?state=dead");
		await().atMost(PATIENCE)
			.untilAsserted(() -> assertThat(this.dashboard.browser().all("#jobs tr[data-job]")).hasSize(3));
		this.dashboard.browser().one("#filter-idPrefix").sendKeys("refund");

		await().atMost(PATIENCE).untilAsserted(() -> {
			assertThat(this.dashboard.browser().all("#jobs tr[data-job]")).hasSize(1);
			assertThat(this.dashboard.browser().all("#jobs tr[data-job='refund-3']")).hasSize(1);
			assertThat(this.dashboard.browser().text("#searched"))
				.contains("1 job matches among the newest 3 dead jobs searched");
		});
		assertThat(this.dashboard.browser().text("#error-filter-hidden")).contains("hidden");
		assertThat(this.dashboard.browser().all("#filter-error, input.select, #select-page, button[data-action]"))
			.isEmpty();
		this.dashboard.browser().screenshotsLightAndDark("dashboard-filter");
	}

	@Test
	void theChartStartsWhereItsDataStartsAndItsRangeIsChosen() throws Exception {
		String page = this.dashboard.start();
		DelayQueueOperations queue = this.dashboard.bean(DelayQueueOperations.class);
		DelayQueueAdmin admin = this.dashboard.bean(DelayQueueAdmin.class);
		for (int i = 0; i < 12; i++) {
			queue.send("orders.confirm", "order-" + i);
		}
		await().atMost(PATIENCE).until(() -> admin.stats("orders.confirm").pending() == 0);

		this.dashboard.browser().open(page);
		await().atMost(PATIENCE).untilAsserted(() -> {
			assertThat(this.dashboard.browser().text("#throughput-totals")).contains("Last hour")
				.contains("12 completed");
			// Up for a minute or two: 5 minutes drawn, not an hour of empty chart.
			assertThat(this.dashboard.browser().one("#throughput-plot").getAttribute("data-buckets")).isEqualTo("5");
		});
		this.dashboard.browser().screenshotsLightAndDark("dashboard-chart-hour");
		this.dashboard.browser().click("button[data-range='day']");
		await().atMost(PATIENCE).untilAsserted(() -> {
			assertThat(this.dashboard.browser().text("#throughput-totals")).contains("Last 24 hours")
				.contains("12 completed");
			assertThat(this.dashboard.browser().one("#throughput-plot").getAttribute("data-buckets")).isEqualTo("5");
		});
		this.dashboard.browser().click("button[data-range='five-minutes']");
		await().atMost(PATIENCE)
			.untilAsserted(
					() -> assertThat(this.dashboard.browser().text("#throughput-totals")).contains("Last 5 minutes"));
		this.dashboard.browser().screenshotsLightAndDark("dashboard-chart-five-minutes");
		assertThat(this.dashboard.browser().consoleErrors()).as("errors in the browser's console").isEmpty();
	}

	private void sendDeadPayments(String... ids) {
		DelayQueueOperations queue = this.dashboard.bean(DelayQueueOperations.class);
		DelayQueueAdmin admin = this.dashboard.bean(DelayQueueAdmin.class);
		for (String id : ids) {
			queue.send(JobRequest.builder("payments.capture", Map.of("payment", id)).id(id).build());
		}
		await().atMost(PATIENCE).until(() -> admin.stats("payments.capture").dead() == ids.length);
	}

}
