package io.github.delayqueue.internal.dashboard;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.JobInfo;
import io.github.delayqueue.core.JobRequest;
import io.github.delayqueue.core.JobState;
import io.github.delayqueue.internal.presence.ListenerPresence;
import io.github.delayqueue.test.RedisExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A job's timeline in the dashboard's job view, in headless Chromium: each step on a
 * vertical line and the attempts with the error of the failed one, hidden as the job's
 * own values are; the dashboard named as who requeued a job; the timeline of a job that
 * is gone; and a plain word when the topic records no timeline. Screenshots land in
 * {@code target/screenshots}.
 */
@ExtendWith(RedisExtension.class)
class JobTimelineBrowserTests {

	private static final Duration PATIENCE = Duration.ofSeconds(30);

	@RegisterExtension
	final DashboardInBrowser dashboard = new DashboardInBrowser(CaptureApplication.class,
			"delayqueue.topics.payments.capture.timeline=true",
			"delayqueue.topics.payments.capture.completed-retention=1h",
			"delayqueue.topics.payments.capture.retry.backoff.delay=200ms",
			"delayqueue.topics.payments.capture.retry.backoff.jitter=0ms",
			"delayqueue.topics.payments.refund.timeline=true",
			"delayqueue.topics.payments.refund.completed-retention=1h",
			"delayqueue.topics.payments.refund.retry.max-attempts=1", "delayqueue.topics.receipts.timeline=true");

	private HeadlessChromium browser;

	@BeforeEach
	void setUp() {
		this.browser = this.dashboard.browser();
	}

	@Test
	void jobViewShowsEachStepAndTheFailedAttemptWithItsError() throws Exception {
		String page = this.dashboard.start("delayqueue.dashboard.show-payloads=always");
		captureAndWaitForCompletion("payment-42", "payment 42");

		this.browser.open(page + "#/topics/payments.capture/jobs/payment-42");

		await().atMost(PATIENCE)
			.untilAsserted(() -> assertThat(steps()).containsSubsequence("sent", "claimed", "failed", "retried",
					"claimed", "completed"));
		assertThat(this.browser.text("#job-timeline li[data-step='failed'] .step-error"))
			.isEqualTo("java.lang.IllegalStateException: card issuer unavailable for payment 42");
		assertThat(this.browser.text("#job-timeline li[data-step='failed'] .step-facts")).contains("attempt 1")
			.contains(ListenerPresence.hostName());
		assertThat(this.browser.text("#job-timeline li[data-step='retried'] .step-facts")).contains("due ");
		assertThat(this.browser.all("#job-attempts tbody tr")).hasSize(2);
		assertThat(this.browser.text("#job-attempts tr[data-attempt='1']")).contains("failed")
			.contains("card issuer unavailable for payment 42");
		assertThat(this.browser.text("#job-attempts tr[data-attempt='2']")).contains("completed");
		assertThat(this.browser.consoleErrors()).as("errors in the browser's console").isEmpty();
		this.browser.scrollTo("#job-attempts-title");
		this.browser.screenshot("dashboard-job-timeline");
		this.browser.preferDark(true);
		this.browser.screenshot("dashboard-job-timeline-dark");
	}

	@Test
	void jobViewHidesHostAndErrorMessageOfEachStepAsItHidesTheJobsValues() throws Exception {
		String page = this.dashboard.start();
		captureAndWaitForCompletion("payment-7", "payment 7");

		this.browser.open(page + "#/topics/payments.capture/jobs/payment-7");

		await().atMost(PATIENCE).untilAsserted(() -> assertThat(steps()).contains("failed", "completed"));
		assertThat(this.browser.text("#job-timeline li[data-step='failed'] .step-error"))
			.isEqualTo("java.lang.IllegalStateException: " + JobInfo.HIDDEN);
		assertThat(this.browser.text("#job-timeline")).contains(JobInfo.HIDDEN + ":")
			.doesNotContain(ListenerPresence.hostName())
			.doesNotContain("card issuer");
		assertThat(this.browser.text("#job-attempts")).doesNotContain("card issuer");
		assertThat(this.browser.text("#job-payload")).startsWith("Hidden");
	}

	@Test
	void requeueFromTheJobViewNamesTheDashboardInTheTimeline() throws Exception {
		String page = this.dashboard.start("delayqueue.dashboard.read-only=false",
				"delayqueue.dashboard.show-payloads=always");
		DelayQueueOperations queue = this.dashboard.bean(DelayQueueOperations.class);
		queue.send(JobRequest.builder("payments.refund", "refund 5").id("refund-5").build());
		await().atMost(PATIENCE)
			.until(() -> queue.find("payments.refund", "refund-5").map(JobInfo::state).orElse(null) == JobState.DEAD);
		this.browser.open(page + "#/topics/payments.refund/jobs/refund-5");
		await().atMost(PATIENCE).untilAsserted(() -> assertThat(steps()).endsWith("dead"));

		// The refund service is back: the requeued job completes.
		this.dashboard.bean(Captures.class).refundsBack.set(true);
		this.browser.click("button[data-action='requeue']");

		await().atMost(PATIENCE)
			.untilAsserted(() -> assertThat(steps()).containsSubsequence("failed", "dead", "requeued", "completed"));
		assertThat(this.browser.text("#job-timeline li[data-step='requeued'] .step-detail")).isEqualTo("by dashboard");
		assertThat(this.browser.text("#job-attempts tr[data-round='0']")).contains("failed")
			.contains("refund service down for refund 5");
		assertThat(this.browser.text("#job-attempts tr[data-round='1']")).contains("completed");
		this.browser.scrollTo("#job-attempts-title");
		this.browser.screenshot("dashboard-job-timeline-requeued");
	}

	@Test
	void jobViewOfACompletedJobItsTopicDoesNotKeepStillShowsItsTimeline() throws Exception {
		String page = this.dashboard.start();
		DelayQueueOperations queue = this.dashboard.bean(DelayQueueOperations.class);
		queue.send(JobRequest.builder("receipts", "receipt 3").id("receipt-3").build());
		await().atMost(PATIENCE).until(() -> this.dashboard.bean(Captures.class).receipts.contains("receipt 3"));
		await().atMost(PATIENCE).until(() -> queue.find("receipts", "receipt-3").isEmpty());

		this.browser.open(page + "#/topics/receipts/jobs/receipt-3");

		await().atMost(PATIENCE).untilAsserted(() -> {
			assertThat(this.browser.text("#job-missing")).contains("receipt-3");
			assertThat(steps()).containsSubsequence("sent", "claimed", "completed");
		});
	}

	@Test
	void jobViewSaysSoWhenItsTopicRecordsNoTimeline() throws Exception {
		String page = this.dashboard.start();
		this.dashboard.bean(DelayQueueOperations.class)
			.send(JobRequest.builder("orders.timeout", "order 9").id("order-9").delay(Duration.ofHours(1)).build());

		this.browser.open(page + "#/topics/orders.timeout/jobs/order-9");

		await().atMost(PATIENCE)
			.untilAsserted(() -> assertThat(this.browser.text("#job-timeline"))
				.isEqualTo("This topic records no timeline: set delayqueue.topics.orders.timeout.timeline=true"));
		assertThat(this.browser.all("#job-attempts")).isEmpty();
		this.browser.screenshot("dashboard-job-no-timeline");
	}

	// The first capture fails, the second completes.
	private void captureAndWaitForCompletion(String id, String payment) {
		DelayQueueOperations queue = this.dashboard.bean(DelayQueueOperations.class);
		queue.send(JobRequest.builder("payments.capture", payment).id(id).build());
		await().atMost(PATIENCE)
			.until(() -> queue.find("payments.capture", id).map(JobInfo::state).orElse(null) == JobState.COMPLETED);
	}

	private List<String> steps() {
		return this.browser.all("#job-timeline li[data-step]")
			.stream()
			.map((step) -> step.getAttribute("data-step"))
			.toList();
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class CaptureApplication {

		@Bean
		Captures captures() {
			return new Captures();
		}

	}

	/**
	 * Fails the first capture of each payment: its card issuer answers the second time.
	 */
	static class Captures {

		private final Set<String> failed = ConcurrentHashMap.newKeySet();

		final AtomicBoolean refundsBack = new AtomicBoolean();

		final Set<String> receipts = ConcurrentHashMap.newKeySet();

		@DelayedJobListener(id = "captures", topics = "payments.capture")
		void capture(String payment) {
			if (this.failed.add(payment)) {
				throw new IllegalStateException("card issuer unavailable for " + payment);
			}
		}

		@DelayedJobListener(id = "refunds", topics = "payments.refund")
		void refund(String refund) {
			if (!this.refundsBack.get()) {
				throw new IllegalStateException("refund service down for " + refund);
			}
		}

		@DelayedJobListener(id = "receipts", topics = "receipts")
		void receipt(String receipt) {
			this.receipts.add(receipt);
		}

		@DelayedJobListener(id = "timeouts", topics = "orders.timeout")
		void timeout(String order) {
		}

	}

}
