package io.github.delayqueue.test;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.annotation.Recurring;
import io.github.delayqueue.core.DelayedJob;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * The application whose recurring schedules the tester's tests move in time: a nightly
 * report at 2 o'clock in Berlin, and a sync every five minutes.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
class ScheduleTestApplication {

	@Bean
	Reports reports() {
		return new Reports();
	}

	static class Reports {

		final List<DelayedJob<Map<String, Object>>> builtJobs = new CopyOnWriteArrayList<>();

		final List<DelayedJob<Map<String, Object>>> synced = new CopyOnWriteArrayList<>();

		@Recurring(cron = "0 0 2 * * *", zone = "Europe/Berlin")
		@DelayedJobListener(id = "nightly-report", topics = "reports.nightly")
		void buildNightlyReport(DelayedJob<Map<String, Object>> tick) {
			this.builtJobs.add(tick);
		}

		// The ticks the nightly report was built for.
		List<Instant> built() {
			return this.builtJobs.stream().map(DelayedJob::dueAt).toList();
		}

		@Recurring(every = "5m")
		@DelayedJobListener(id = "partner-sync", topics = "partner.sync")
		void sync(DelayedJob<Map<String, Object>> tick) {
			this.synced.add(tick);
		}

	}

}
