package io.github.delayqueue.internal.store;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The wait between tries while Redis cannot be reached.
 */
class ReconnectBackoffTests {

	@Test
	void doublesFromOneHundredMillisecondsUpToTwoSeconds() {
		assertThat(ReconnectBackoff.delay(1)).isEqualTo(Duration.ofMillis(100));
		assertThat(ReconnectBackoff.delay(2)).isEqualTo(Duration.ofMillis(200));
		assertThat(ReconnectBackoff.delay(5)).isEqualTo(Duration.ofMillis(1600));
		assertThat(ReconnectBackoff.delay(6)).isEqualTo(Duration.ofSeconds(2));
		assertThat(ReconnectBackoff.delay(1000)).isEqualTo(Duration.ofSeconds(2));
	}

}
