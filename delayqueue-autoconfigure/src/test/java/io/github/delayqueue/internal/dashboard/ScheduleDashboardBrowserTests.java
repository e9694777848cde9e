package io.github.delayqueue.internal.dashboard;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayQueueSchedules;
import io.github.delayqueue.core.ScheduleInfo;
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
 * The dashboard's Schedules tab in headless Chromium: the cron in words, the zone, the
 * next fire times, the latest runs with their outcome, missed ticks, and pause, resume
 * and trigger-now buttons; none of them on a read-only page, where the server refuses the
 * actions too. Screenshots land in {@code target/screenshots}.
 */
@ExtendWith(RedisExtension.class)
class ScheduleDashboardBrowserTests {

	private static final Duration PATIENCE = Duration.ofSeconds(30);

	@RegisterExtension
	final DashboardInBrowser dashboard = new DashboardInBrowser(ReportApplication.class,
			"delayqueue.schedules.report.topic=reports", "delayqueue.schedules.report.cron=*/2 * * * * *",
			"delayqueue.schedules.report.zone=Europe/Berlin", "delayqueue.schedules.nightly.topic=reports",
			"delayqueue.schedules.nightly.cron=0 30 2 * * MON-FRI",
			"delayqueue.schedules.nightly.zone=America/New_York", "delayqueue.schedules.sync.topic=partner.sync",
			"delayqueue.schedules.sync.every=1s");

	private HeadlessChromium browser;

	@BeforeEach
	void setUp() {
		this.browser = this.dashboard.browser();
	}

	@Test
	void showsSchedulesAndPausesResumesAndTriggersThem() throws Exception {
		String page = this.dashboard.start("delayqueue.dashboard.read-only=false");
		DelayQueueSchedules schedules = this.dashboard.bean(DelayQueueSchedules.class);
		await().atMost(PATIENCE)
			.until(() -> schedules.find("report").map(ScheduleInfo::recentRuns).orElse(List.of()).size() >= 2);

		this.browser.open(page + "#/schedules");

		await().atMost(PATIENCE).untilAsserted(() -> {
			assertThat(this.browser.text("tr[data-schedule='report'] td.when .description"))
				.isEqualTo("every 2 seconds");
			assertThat(this.browser.text("tr[data-schedule='report'] td.when .expression"))
				.isEqualTo("*/2 * * * * * · Europe/Berlin");
			assertThat(this.browser.text("tr[data-schedule='nightly'] td.when .description"))
				.isEqualTo("every Monday to Friday at 02:30");
			assertThat(this.browser.text("tr[data-schedule='sync'] td.when .description")).isEqualTo("every second");
			assertThat(this.browser.all("tr[data-schedule='report'] td.next li")).hasSize(3);
			assertThat(this.browser.text("tr[data-schedule='report'] td.runs")).contains("done");
			assertThat(this.browser.text("tr[data-schedule='sync'] td.runs")).contains("waiting");
			assertThat(this.browser.text("tr[data-schedule='report'] td.missed")).isEqualTo("0");
			assertThat(this.browser.text("nav.sections a[aria-current='page']")).isEqualTo("Schedules");
		});
		assertThat(this.browser.consoleErrors()).as("errors in the browser's console").isEmpty();
		this.browser.screenshot("dashboard-schedules");

		this.browser.click("tr[data-schedule='report'] button[data-action='pause']");
		await().atMost(PATIENCE).untilAsserted(() -> {
			assertThat(this.browser.text("#notice")).isEqualTo("report paused: no tick runs until it is resumed");
			assertThat(this.browser.text("tr[data-schedule='report'] th .badge.paused")).isEqualTo("paused");
			assertThat(this.browser.text("tr[data-schedule='report'] td.next")).isEqualTo("–");
		});
		assertThat(schedules.find("report").orElseThrow().paused()).isTrue();

		this.browser.click("tr[data-schedule='report'] button[data-action='trigger']");
		await().atMost(PATIENCE).untilAsserted(() -> {
			assertThat(this.browser.text("#notice")).startsWith("report triggered: job report@");
			assertThat(this.browser.text("tr[data-schedule='report'] td.runs")).contains("by hand");
		});
		this.browser.screenshot("dashboard-schedules-paused");

		this.browser.click("tr[data-schedule='report'] button[data-action='resume']");
		await().atMost(PATIENCE).untilAsserted(() -> {
			assertThat(this.browser.text("#notice")).isEqualTo("report resumed from its next tick");
			assertThat(this.browser.all("tr[data-schedule='report'] th .badge.paused")).isEmpty();
		});
		assertThat(schedules.find("report").orElseThrow().paused()).isFalse();
		this.browser.preferDark(true);
		this.browser.screenshot("dashboard-schedules-dark");
		assertThat(this.browser.consoleErrors()).as("errors in the browser's console").isEmpty();
	}

	@Test
	void offersNoActionOnAReadOnlyPageAndTheServerRefusesThem() throws Exception {
		String page = this.dashboard.start();
		this.browser.open(page + "#/schedules");
		await().atMost(PATIENCE)
			.untilAsserted(() -> assertThat(this.browser.all("tr[data-schedule='report']")).isNotEmpty());

		assertThat(this.browser.all("#schedules button")).isEmpty();
		assertThat(this.browser.fetchStatus("POST", page + "/api/schedules/report/pause")).isEqualTo(403);
		assertThat(this.dashboard.bean(DelayQueueSchedules.class).find("report").orElseThrow().paused()).isFalse();
		this.browser.screenshot("dashboard-schedules-read-only");
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class ReportApplication {

		@Bean
		Reports reports() {
			return new Reports();
		}

	}

	static class Reports {

		@DelayedJobListener("reports")
		void build(Map<String, Object> tick) {
		}

	}

}
