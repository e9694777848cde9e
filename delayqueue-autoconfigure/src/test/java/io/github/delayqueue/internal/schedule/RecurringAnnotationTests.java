package io.github.delayqueue.internal.schedule;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.annotation.Recurring;
import io.github.delayqueue.autoconfigure.DelayQueueSchedulesAutoConfiguration;
import io.github.delayqueue.core.DelayQueueSchedules;
import io.github.delayqueue.core.DelayedJob;
import io.github.delayqueue.core.RecurringSchedule.Overlap;
import io.github.delayqueue.core.ScheduleInfo;
import io.github.delayqueue.test.DelayQueueContextRunner;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link Recurring} beside {@link DelayedJobListener}: a schedule for the listener's
 * topic, with placeholders resolved, and start-up failures naming the method.
 */
@ExtendWith(RedisExtension.class)
class RecurringAnnotationTests {

	private ApplicationContextRunner runner;

	@BeforeEach
	void setUp(RedisTestServer server) {
		server.flushAll();
		this.runner = DelayQueueContextRunner.create(server)
			.withConfiguration(AutoConfigurations.of(DelayQueueSchedulesAutoConfiguration.class));
	}

	@Test
	void declaresAScheduleForTheTopicOfTheListener() {
		this.runner.withUserConfiguration(Ticking.class).withPropertyValues("sync.rate=1s").run((context) -> {
			assertThat(context).hasNotFailed();
			Ticking ticking = context.getBean(Ticking.class);
			await().atMost(Duration.ofSeconds(20)).until(() -> ticking.jobs.size() >= 2);
			assertThat(ticking.jobs).allSatisfy((job) -> {
				assertThat(job.id()).startsWith("partner-sync@");
				assertThat(job.payload()).isEqualTo(Map.of("full", false));
			});
			ScheduleInfo nightly = context.getBean(DelayQueueSchedules.class)
				.find("TickingListeners.nightly")
				.orElseThrow();
			assertThat(nightly.topic()).isEqualTo("reports.nightly");
			assertThat(nightly.cron()).isEqualTo("0 0 2 * * *");
			assertThat(nightly.zone().getId()).isEqualTo("Europe/Berlin");
			assertThat(nightly.declared()).isTrue();
			ScheduleInfo sync = context.getBean(DelayQueueSchedules.class).find("partner-sync").orElseThrow();
			assertThat(sync.overlap()).isEqualTo(Overlap.SKIP);
		});
	}

	@Test
	void takesTheTopicAndIdOfAListenerThatNamesThemWithExpressions() {
		this.runner.withUserConfiguration(WithExpressions.class).run((context) -> {
			assertThat(context).hasNotFailed();
			DelayQueueSchedules schedules = context.getBean(DelayQueueSchedules.class);
			// The schedule loop declares in its own thread once the context has started.
			await().atMost(Duration.ofSeconds(10)).until(() -> schedules.find("weekly-report").isPresent());
			assertThat(schedules.find("weekly-report").orElseThrow().topic()).isEqualTo("reports.weekly");
		});
	}

	@Test
	void failsStartUpNamingAMethodWithoutListener() {
		this.runner.withUserConfiguration(WithoutListener.class)
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("@Recurring method")
				.hasMessageContaining("WithoutListener.tick()")
				.hasMessageContaining("has no @DelayedJobListener"));
	}

	@Test
	void failsStartUpNamingAMethodWhoseListenerHasSeveralTopics() {
		this.runner.withUserConfiguration(SeveralTopics.class)
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("SeveralTopics.tick()")
				.hasMessageContaining("set @Recurring(topic = ...)"));
	}

	@Test
	void failsStartUpNamingAMethodWithABadCron() {
		this.runner.withUserConfiguration(BadCron.class)
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("BadCron.tick()")
				.hasMessageContaining("cron 'every day'"));
	}

	@Test
	void failsStartUpOnAnIdDeclaredTwice() {
		this.runner.withUserConfiguration(Ticking.class)
			.withPropertyValues("sync.rate=1s", "delayqueue.schedules.partner-sync.topic=x",
					"delayqueue.schedules.partner-sync.every=1h")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("declares schedule 'partner-sync', which delayqueue.schedules.partner-sync "
						+ "declares already"));
	}

	@Configuration(proxyBeanMethods = false)
	static class Ticking {

		final List<DelayedJob<Map<String, Object>>> jobs = new CopyOnWriteArrayList<>();

		@Bean
		TickingListeners tickingListeners() {
			return new TickingListeners(this);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class WithExpressions {

		@Bean
		ReportTopics reportTopics() {
			return new ReportTopics();
		}

		@Bean
		ExpressionListeners expressionListeners() {
			return new ExpressionListeners();
		}

	}

	static class ReportTopics {

		public String getWeekly() {
			return "reports.weekly";
		}

	}

	static class ExpressionListeners {

		@Recurring(cron = "0 0 3 * * MON")
		@DelayedJobListener(id = "#{'weekly' + '-report'}", topics = "#{@reportTopics.weekly}")
		void weekly() {
		}

	}

	static class TickingListeners {

		private final Ticking ticking;

		TickingListeners(Ticking ticking) {
			this.ticking = ticking;
		}

		@Recurring(id = "partner-sync", every = "${sync.rate}", payload = "{\"full\": false}", overlap = Overlap.SKIP)
		@DelayedJobListener("partner.sync")
		void sync(DelayedJob<Map<String, Object>> job) {
			this.ticking.jobs.add(job);
		}

		@Recurring(cron = "0 0 2 * * *", zone = "Europe/Berlin")
		@DelayedJobListener("reports.nightly")
		void nightly() {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class WithoutListener {

		@Bean
		Object withoutListener() {
			return new WithoutListener();
		}

		@Recurring(every = "1m")
		void tick() {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class SeveralTopics {

		@Bean
		Object severalTopics() {
			return new SeveralTopics();
		}

		@Recurring(every = "1m")
		@DelayedJobListener(topics = { "a", "b" })
		void tick() {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class BadCron {

		@Bean
		Object badCron() {
			return new BadCron();
		}

		@Recurring(cron = "every day")
		@DelayedJobListener("a")
		void tick() {
		}

	}

}
