package io.github.delayqueue.internal.dashboard;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Cron expressions and rates in words, as the Schedules tab shows them.
 */
class CronDescriptionTests {

	@Test
	void tellsTheCommonShapesOfCronExpressions() {
		assertThat(CronDescription.of("* * * * * *")).isEqualTo("every second");
		assertThat(CronDescription.of("*/10 * * * * *")).isEqualTo("every 10 seconds");
		assertThat(CronDescription.of("0 * * * * *")).isEqualTo("every minute");
		assertThat(CronDescription.of("0 */5 * * * *")).isEqualTo("every 5 minutes");
		assertThat(CronDescription.of("0 0 * * * *")).isEqualTo("every hour");
		assertThat(CronDescription.of("0 15 * * * *")).isEqualTo("every hour at minute 15");
		assertThat(CronDescription.of("0 0 */6 * * *")).isEqualTo("every 6 hours at minute 0");
		assertThat(CronDescription.of("0 0 2 * * *")).isEqualTo("every day at 02:00");
		assertThat(CronDescription.of("30 0 2 * * *")).isEqualTo("every day at 02:00:30");
		assertThat(CronDescription.of("0 30 9 * * MON-FRI")).isEqualTo("every Monday to Friday at 09:30");
		assertThat(CronDescription.of("0 0 10 * * SAT,SUN")).isEqualTo("every Saturday and Sunday at 10:00");
		assertThat(CronDescription.of("0 0 10 * * 1")).isEqualTo("every Monday at 10:00");
		assertThat(CronDescription.of("0 0 4 1 * *")).isEqualTo("on day 1 of every month at 04:00");
		assertThat(CronDescription.of("0 0 0 25 DEC *")).isEqualTo("every year on 25 December at 00:00");
		assertThat(CronDescription.of("@daily")).isEqualTo("every day at 00:00");
		assertThat(CronDescription.of("@hourly")).isEqualTo("every hour");
	}

	@Test
	void leavesOtherShapesToTheExpression() {
		assertThat(CronDescription.of("0 0 9-17 * * MON-FRI")).isNull();
		assertThat(CronDescription.of("0 0 0 L * *")).isNull();
		assertThat(CronDescription.of("0 0 12 ? * 2#1")).isNull();
	}

	@Test
	void tellsRates() {
		assertThat(CronDescription.of(Duration.ofSeconds(1))).isEqualTo("every second");
		assertThat(CronDescription.of(Duration.ofMinutes(5))).isEqualTo("every 5 minutes");
		assertThat(CronDescription.of(Duration.ofMinutes(90))).isEqualTo("every 1 hour 30 minutes");
		assertThat(CronDescription.of(Duration.ofDays(1))).isEqualTo("every day");
	}

}
