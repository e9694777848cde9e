package io.github.delayqueue.internal.support;

import java.time.Duration;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The wait between attempts.
 */
class BackoffPolicyTests {

	private final Random random = new Random(42);

	@Test
	void growsByTheMultiplierUpToTheMaximum() {
		BackoffPolicy policy = new BackoffPolicy(Duration.ofSeconds(1), 2.0, Duration.ofSeconds(10), Duration.ZERO,
				List.of());
		assertThat(List.of(1, 2, 3, 4, 5, 6).stream().map((attempt) -> policy.delayAfter(attempt, this.random)))
			.containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(4), Duration.ofSeconds(8),
					Duration.ofSeconds(10), Duration.ofSeconds(10));
	}

	@Test
	void addsJitterThatGrowsWithTheMultiplier() {
		BackoffPolicy policy = new BackoffPolicy(Duration.ofSeconds(1), 3.0, Duration.ofHours(1),
				Duration.ofMillis(100), List.of());
		for (int i = 0; i < 1000; i++) {
			assertThat(policy.delayAfter(1, this.random).toMillis()).isBetween(900L, 1100L);
			assertThat(policy.delayAfter(2, this.random).toMillis()).isBetween(2700L, 3300L);
		}
	}

	@Test
	void followsAnExplicitScheduleAndRepeatsItsLastEntry() {
		BackoffPolicy policy = new BackoffPolicy(Duration.ofSeconds(1), 2.0, Duration.ofHours(1),
				Duration.ofMillis(100), List.of(Duration.ofMinutes(1), Duration.ofMinutes(3), Duration.ofMinutes(5)));
		assertThat(List.of(1, 2, 3, 4, 9).stream().map((attempt) -> policy.delayAfter(attempt, this.random)))
			.containsExactly(Duration.ofMinutes(1), Duration.ofMinutes(3), Duration.ofMinutes(5), Duration.ofMinutes(5),
					Duration.ofMinutes(5));
	}

	@Test
	void neverWaitsANegativeTime() {
		BackoffPolicy policy = new BackoffPolicy(Duration.ZERO, 1.0, Duration.ofSeconds(1), Duration.ofSeconds(5),
				List.of());
		for (int i = 0; i < 1000; i++) {
			assertThat(policy.delayAfter(1, this.random).isNegative()).isFalse();
		}
	}

}
