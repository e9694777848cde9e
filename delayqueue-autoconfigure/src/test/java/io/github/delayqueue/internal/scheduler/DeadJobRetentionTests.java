package io.github.delayqueue.internal.scheduler;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How often dead jobs are looked for, from their retention.
 */
class DeadJobRetentionTests {

	@Test
	void purgesEveryTenthOfTheRetentionButWithinOneToTenMinutes() {
		assertThat(interval(Duration.ofDays(7))).isEqualTo(Duration.ofMinutes(10));
		assertThat(interval(Duration.ofHours(1))).isEqualTo(Duration.ofMinutes(6));
		assertThat(interval(Duration.ofMinutes(5))).isEqualTo(Duration.ofMinutes(1));
		assertThat(interval(Duration.ZERO)).isEqualTo(Duration.ofMinutes(1));
		assertThat(interval(Duration.ofDays(365 * 1000))).isEqualTo(Duration.ofMinutes(10));
	}

	private static Duration interval(Duration retention) {
		return Duration.ofNanos(DeadJobRetention.interval(retention));
	}

}
