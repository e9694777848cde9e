package io.github.delayqueue.internal.dashboard;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.JobInfo;
import io.github.delayqueue.core.JobRequest;
import io.github.delayqueue.core.JobState;
import io.github.delayqueue.core.NonRetryableJobException;
import io.github.delayqueue.internal.presence.ListenerPresence;
import io.github.delayqueue.internal.store.JobClaims;
import io.github.delayqueue.internal.store.TopicLimiter;
import io.github.delayqueue.test.RedisExtension;
import jakarta.servlet.Filter;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The dashboard as an operator sees it: a real web application on a random port, a real
 * Redis, and headless Chromium clicking through the page. Screenshots of the overview and
 * of a topic land in {@code target/screenshots}.
 */
@ExtendWith(RedisExtension.class)
class DashboardBrowserTests {

	private static final Duration PATIENCE = Duration.ofSeconds(30);

	@RegisterExtension
	final DashboardInBrowser dashboard = shop();

	private HeadlessChromium browser;

	/**
	 * The dashboard of the shop below: orders, and payments that die at their first
	 * failure.
	 * @return the fixture
	 */
	static DashboardInBrowser shop() {
		return new DashboardInBrowser(ShopApplication.class, "delayqueue.history.flush-interval=200ms",
				"delayqueue.topics.payments.capture.retry.max-attempts=1");
	}

	@BeforeEach
	void setUp() {
		this.browser = this.dashboard.browser();
	}

	@Test
	void overviewShowsTopicsCountsListenersAndThroughput() throws Exception {
		String page = this.dashboard.start("delayqueue.dashboard.read-only=false");
		DelayQueueOperations queue = this.dashboard.bean(DelayQueueOperations.class);
		DelayQueueAdmin admin = this.dashboard.bean(DelayQueueAdmin.class);
		for (int i = 0; i < 40; i++) {
			queue.send("orders.confirm", "order-" + i);
		}
		for (int i = 0; i < 3; i++) {
			queue.send("orders.timeout", "late-" + i, Duration.ofMinutes(30));
		}
		queue.send("invoices.unheard", "invoice-1");
		await().atMost(PATIENCE).until(() -> admin.stats("orders.confirm").pending() == 0);

		this.browser.open(page);

		await().atMost(PATIENCE).untilAsserted(() -> {
			assertThat(this.browser.text("tr[data-topic='orders.timeout'] td[data-state='delayed']")).isEqualTo("3");
			assertThat(this.browser.text("tr[data-topic='invoices.unheard'] td[data-state='ready']")).isEqualTo("1");
			assertThat(this.browser.text("tr[data-topic='invoices.unheard'] td.listeners")).isEqualTo("no consumer");
			assertThat(this.browser.text("tr[data-topic='orders.timeout'] td.listeners"))
				.isEqualTo("1 instance · 2 threads");
			assertThat(this.browser.text("#throughput-totals")).contains("40 completed");
		});
		assertThat(this.browser.all("#throughput-plot canvas")).isNotEmpty();
		assertThat(this.browser.consoleErrors()).as("errors in the browser's console").isEmpty();
		this.browser.screenshot("dashboard-overview");
		this.browser.preferDark(true);
		this.browser.screenshot("dashboard-overview-dark");
	}

	@Test
	void pollsEveryFiveSecondsOnlyWhileTheTabIsVisible() {
		String page = this.dashboard.start();
		AtomicInteger polls = this.dashboard.bean(TopicPolls.class).count;
		this.browser.open(page);
		await().atMost(PATIENCE).until(() -> polls.get() >= 2);

		String dashboard = this.browser.hideBehindNewTab();
		int whenHidden = polls.get();

		// Two polling periods with the tab in the background: not one call.
		await().during(Duration.ofSeconds(11))
			.atMost(Duration.ofSeconds(20))
			.until(() -> polls.get() <= whenHidden + 1);
		int hiddenCalls = polls.get();
		this.browser.show(dashboard);
		await().atMost(Duration.ofSeconds(8)).until(() -> polls.get() > hiddenCalls);
	}

	@Test
	void jobFoundByIdFromTheOverviewOpensItsDetail() throws Exception {
		String page = this.dashboard.start("delayqueue.dashboard.read-only=false",
				"delayqueue.dashboard.show-payloads=always");
		DelayQueueOperations queue = this.dashboard.bean(DelayQueueOperations.class);
		DelayQueueAdmin admin = this.dashboard.bean(DelayQueueAdmin.class);
		queue.send(JobRequest.builder("orders.timeout", new Order(42, "EUR"))
			.id("order-42")
			.delay(Duration.ofHours(2))
			.header("tenant", "acme")
			.build());
		this.browser.open(page);
		await().atMost(PATIENCE).until(() -> !this.browser.all("tr[data-topic='orders.timeout']").isEmpty());

		this.browser.one("#lookup").sendKeys("order-42\n");

		await().atMost(PATIENCE).untilAsserted(() -> {
			assertThat(this.browser.text("#job-id")).isEqualTo("order-42");
			assertThat(this.browser.text("#job-state")).isEqualTo("delayed");
			assertThat(this.browser.text("#job-payload")).contains("\"number\": 42").contains("\"currency\": \"EUR\"");
			assertThat(this.browser.text("#job-headers")).contains("tenant").contains("acme");
		});
		this.browser.click("button[data-action='run-now']");
		await().atMost(PATIENCE)
			.untilAsserted(() -> assertThat(this.browser.text("#notice")).contains("ready to run now"));
		await().atMost(PATIENCE).until(() -> queue.find("orders.timeout", "order-42").isEmpty());
	}

	@Test
	void cancellingAJobAsksOnceMore() throws Exception {
		String page = this.dashboard.start("delayqueue.dashboard.read-only=false");
		DelayQueueOperations queue = this.dashboard.bean(DelayQueueOperations.class);
		DelayQueueAdmin admin = this.dashboard.bean(DelayQueueAdmin.class);
		queue.send(JobRequest.builder("orders.timeout", new Order(7, "EUR"))
			.id("order-7")
			.delay(Duration.ofHours(2))
			.build());
		this.browser.open(page + "#/topics/orders.timeout/jobs/order-7");
		await().atMost(PATIENCE).untilAsserted(() -> assertThat(this.browser.text("#job-state")).isEqualTo("delayed"));

		this.browser.click("button[data-action='cancel']");
		assertThat(this.browser.text(".question")).isEqualTo("Cancel job order-7?");
		this.browser.screenshot("dashboard-cancel-question");
		this.browser.click("button[data-action='cancel-keep']");
		assertThat(queue.find("orders.timeout", "order-7")).isPresent();
		this.browser.click("button[data-action='cancel']");
		this.browser.click("button[data-action='cancel-confirm']");

		await().atMost(PATIENCE)
			.untilAsserted(() -> assertThat(this.browser.text("#notice")).contains("Job order-7 was cancelled"));
		assertThat(queue.find("orders.timeout", "order-7")).isEmpty();
	}

	@Test
	void keptFinishedJobsShowInTheirTopicAndTheirJobViewWithTheirHostHidden() throws Exception {
		String page = this.dashboard.start("delayqueue.topics.orders.confirm.completed-retention=1h");
		DelayQueueOperations queue = this.dashboard.bean(DelayQueueOperations.class);
		queue.send(JobRequest.builder("orders.confirm", new Order(1, "EUR")).id("confirm-1").build());
		queue.send(JobRequest.builder("orders.confirm", new Order(2, "EUR"))
			.id("confirm-2")
			.delay(Duration.ofHours(1))
			.build());
		queue.cancel("orders.confirm", "confirm-2");
		await().atMost(PATIENCE)
			.until(() -> queue.find("orders.confirm", "confirm-1")
				.map(JobInfo::state)
				.orElse(null) == JobState.COMPLETED);

		this.browser.open(page + "#/topics/orders.confirm?state=completed");
		await().atMost(PATIENCE).untilAsserted(() -> {
			assertThat(this.browser.all("#jobs tr[data-job='confirm-1']")).hasSize(1);
			assertThat(this.browser.text("a[data-tab='completed'] .tab-count")).isEqualTo("1");
		});
		assertThat(this.browser.text("#jobs thead")).containsIgnoringCase("Finished");
		this.browser.screenshot("dashboard-topic-completed");
		this.browser.open(page + "#/topics/orders.confirm?state=cancelled");
		await().atMost(PATIENCE)
			.untilAsserted(() -> assertThat(this.browser.all("#jobs tr[data-job='confirm-2']")).hasSize(1));
		this.browser.open(page + "#/topics/orders.confirm/jobs/confirm-1");
		await().atMost(PATIENCE)
			.untilAsserted(() -> assertThat(this.browser.text("#job-state")).isEqualTo("completed"));
		assertThat(this.browser.text("#job-finished")).isNotEmpty();
		assertThat(this.browser.text("#job-finished-by")).startsWith(JobInfo.HIDDEN + ":")
			.doesNotContain(ListenerPresence.hostName());
		this.browser.screenshot("dashboard-job-completed");
	}

	@Test
	void groupsWaitingForTheirTurnShowInTheirTopicWithTheirNamesHidden() throws Exception {
		String page = this.dashboard.start();
		DelayQueueOperations queue = this.dashboard.bean(DelayQueueOperations.class);
		for (int i = 0; i < 4; i++) {
			queue.send(JobRequest.builder("reports.monthly", Map.of("report", i)).group("acme").build());
		}
		for (int i = 4; i < 6; i++) {
			queue.send(JobRequest.builder("reports.monthly", Map.of("report", i)).group("globex").build());
		}
		// No listener runs for the topic: one claim lines its ready jobs up by group.
		JobClaims claims = this.dashboard.bean(JobClaims.class);
		assertThat(claims.claim("reports.monthly", null, 1, Duration.ofSeconds(30)).jobs()).hasSize(1);
		// acme runs one job under a group concurrency of one and a rate limit of one a
		// minute, and a second delivery is refused: acme is held back by its own limits.
		TopicLimiter.Limits limits = new TopicLimiter.Limits(0, Duration.ofSeconds(1), 0, 1, 1, Duration.ofMinutes(1));
		assertThat(claims.limiter()
			.admit("reports.monthly", limits,
					List.of(new TopicLimiter.Delivery("report-0", 1, Duration.ofMinutes(1), "acme"),
							new TopicLimiter.Delivery("report-1", 1, Duration.ofMinutes(1), "acme")))
			.verdicts()).isEqualTo("ag");

		this.browser.open(page + "#/topics/reports.monthly?state=ready");
		await().atMost(PATIENCE)
			.untilAsserted(() -> assertThat(this.browser.text("#topic-groups"))
				.isEqualTo("2 groups have ready jobs waiting for their turn: " + JobInfo.HIDDEN
						+ " 3 (1 running, held back by its limits), " + JobInfo.HIDDEN + " 1"));
		assertThat(this.browser.all("#jobs tr[data-job]")).hasSize(5);
		this.browser.screenshot("dashboard-topic-groups");
	}

	@Test
	void deadJobIsRequeuedFromItsTopicAndTheCountsChange() throws Exception {
		String page = this.dashboard.start("delayqueue.dashboard.read-only=false");
		DelayQueueOperations queue = this.dashboard.bean(DelayQueueOperations.class);
		DelayQueueAdmin admin = this.dashboard.bean(DelayQueueAdmin.class);
		for (int i = 0; i < 3; i++) {
			queue.send(JobRequest.builder("payments.capture", Map.of("payment", i)).id("payment-" + i).build());
		}
		await().atMost(PATIENCE).until(() -> admin.stats("payments.capture").dead() == 3);

		this.browser.open(page + "#/topics/payments.capture?state=dead&size=20");
		await().atMost(PATIENCE).untilAsserted(() -> {
			assertThat(this.browser.all("#jobs tr[data-job]")).hasSize(3);
			assertThat(this.browser.text("a[data-tab='dead'] .tab-count")).isEqualTo("3");
		});
		this.browser.screenshot("dashboard-topic");

		// The payment service is fixed: requeued jobs now succeed.
		this.dashboard.bean(PaymentService.class).fixed.set(true);
		this.browser.click("tr[data-job='payment-1'] button[data-action='requeue']");

		await().atMost(PATIENCE).untilAsserted(() -> {
			assertThat(this.browser.text("a[data-tab='dead'] .tab-count")).isEqualTo("2");
			assertThat(this.browser.all("#jobs tr[data-job]")).hasSize(2);
		});
		assertThat(queue.find("payments.capture", "payment-1").map((job) -> job.state()))
			.isNotEqualTo(java.util.Optional.of(JobState.DEAD));

		this.browser.click("button[data-action='requeue-dead']");
		assertThat(this.browser.text(".question")).isEqualTo("Requeue 2 dead jobs of payments.capture?");
		this.browser.click("button[data-action='requeue-dead-confirm']");

		await().atMost(PATIENCE).untilAsserted(() -> {
			assertThat(this.browser.text("a[data-tab='dead'] .tab-count")).isEqualTo("0");
			assertThat(this.browser.text("#notice")).contains("2 dead jobs of payments.capture were requeued");
		});
		await().atMost(PATIENCE)
			.until(() -> admin.stats("payments.capture").pending() + admin.stats("payments.capture").dead() == 0);
	}

	@Test
	void pauseFromTheTopicStopsClaimsAndResumeLetsThemRun() {
		String page = this.dashboard.start("delayqueue.dashboard.read-only=false");
		DelayQueueOperations queue = this.dashboard.bean(DelayQueueOperations.class);
		DelayQueueAdmin admin = this.dashboard.bean(DelayQueueAdmin.class);
		this.browser.open(page + "#/topics/orders.timeout");
		await().atMost(PATIENCE).until(() -> !this.browser.all("button[data-action='pause']").isEmpty());

		this.browser.click("button[data-action='pause']");
		await().atMost(PATIENCE).untilAsserted(() -> assertThat(this.browser.text("#topic-facts")).contains("paused"));
		assertThat(admin.isPaused("orders.timeout")).isTrue();
		queue.send("orders.timeout", "held");
		await().atMost(PATIENCE)
			.untilAsserted(() -> assertThat(this.browser.text("a[data-tab='ready'] .tab-count")).isEqualTo("1"));

		this.browser.click("button[data-action='resume']");
		await().atMost(PATIENCE).until(() -> admin.stats("orders.timeout").pending() == 0);
		assertThat(admin.isPaused("orders.timeout")).isFalse();
	}

	@Test
	void readOnlyPageUnderAContextPathShowsNoActionAndRefusesAForgedPost() throws Exception {
		String page = this.dashboard.start("server.servlet.context-path=/ops");
		DelayQueueOperations queue = this.dashboard.bean(DelayQueueOperations.class);
		DelayQueueAdmin admin = this.dashboard.bean(DelayQueueAdmin.class);
		queue.send(JobRequest.builder("payments.capture", Map.of("payment", 7)).id("payment-7").build());
		await().atMost(PATIENCE).until(() -> admin.stats("payments.capture").dead() == 1);
		queue.send("orders.timeout", "soon", Duration.ofHours(1));

		this.browser.open(page + "#/topics/payments.capture?state=dead");
		await().atMost(PATIENCE).untilAsserted(() -> {
			assertThat(this.browser.all("#jobs tr[data-job='payment-7']")).hasSize(1);
			assertThat(this.browser.text("#read-only")).isEqualTo("read-only");
		});
		assertThat(this.browser.all("button[data-action]")).isEmpty();
		this.browser.open(page + "#/topics/orders.timeout/jobs/"
				+ admin.jobs("orders.timeout", JobState.DELAYED, 0, 1).get(0).id());
		await().atMost(PATIENCE).untilAsserted(() -> assertThat(this.browser.text("#job-state")).isEqualTo("delayed"));
		assertThat(this.browser.all("button[data-action]")).isEmpty();

		long status = this.browser.fetchStatus("POST", "delayqueue/api/topics/payments.capture/jobs/payment-7/requeue");

		assertThat(status).isEqualTo(403);
		assertThat(admin.stats("payments.capture").dead()).isEqualTo(1);
	}

	@Test
	void postFromAnotherOriginIsRefused() throws Exception {
		String page = this.dashboard.start("delayqueue.dashboard.read-only=false");
		DelayQueueOperations queue = this.dashboard.bean(DelayQueueOperations.class);
		DelayQueueAdmin admin = this.dashboard.bean(DelayQueueAdmin.class);
		queue.send(JobRequest.builder("payments.capture", Map.of("payment", 9)).id("payment-9").build());
		await().atMost(PATIENCE).until(() -> admin.stats("payments.capture").dead() == 1);
		String target = page + "/api/topics/payments.capture/jobs/payment-9/requeue";
		String elsewhere = page.replace("localhost", "127.0.0.1");
		this.browser.open(elsewhere);
		await().atMost(PATIENCE).until(() -> !this.browser.all("header").isEmpty());

		long crossOrigin = this.browser.fetchStatus("POST", target);

		assertThat(crossOrigin).isEqualTo(-1);
		assertThat(admin.stats("payments.capture").dead()).isEqualTo(1);
		this.dashboard.bean(PaymentService.class).fixed.set(true);
		this.browser.open(page);
		assertThat(this.browser.fetchStatus("POST", target)).isEqualTo(200);
		await().atMost(PATIENCE)
			.until(() -> admin.stats("payments.capture").dead() + admin.stats("payments.capture").pending() == 0);
	}

	record Order(int number, String currency) {

	}

	/** Counts the page's calls for the overview, as its polling makes them. */
	static class TopicPolls {

		final AtomicInteger count = new AtomicInteger();

	}

	static class PaymentService {

		final AtomicBoolean fixed = new AtomicBoolean();

	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class ShopApplication {

		@Bean
		TopicPolls topicPolls() {
			return new TopicPolls();
		}

		@Bean
		FilterRegistrationBean<Filter> topicPollCounter(TopicPolls polls) {
			FilterRegistrationBean<Filter> registration = new FilterRegistrationBean<>((request, response, chain) -> {
				polls.count.incrementAndGet();
				chain.doFilter(request, response);
			});
			registration.addUrlPatterns("/delayqueue/api/topics");
			return registration;
		}

		@Bean
		PaymentService paymentService() {
			return new PaymentService();
		}

		@Bean
		Listeners listeners(PaymentService payments) {
			return new Listeners(payments);
		}

	}

	static class Listeners {

		private final PaymentService payments;

		Listeners(PaymentService payments) {
			this.payments = payments;
		}

		@DelayedJobListener(id = "orderTimeouts", topics = { "orders.timeout", "orders.confirm" }, concurrency = "2")
		void order(Object payload) {
		}

		@DelayedJobListener(id = "paymentCaptures", topics = "payments.capture")
		void capture(Map<String, Object> payment) {
			if (!this.payments.fixed.get()) {
				throw new NonRetryableJobException("card issuer unavailable for payment " + payment.get("payment"));
			}
		}

	}

}
