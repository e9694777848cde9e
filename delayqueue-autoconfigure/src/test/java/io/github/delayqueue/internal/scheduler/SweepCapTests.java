package io.github.delayqueue.internal.scheduler;

import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How long a topic may go unswept, on a clock the test moves.
 */
class SweepCapTests {

	private static final long MAX_SLEEP = 100;

	private static final long IDLE_MAX_SLEEP = 10_000;

	private final AtomicLong now = new AtomicLong(1_000);

	private final WakeUpChannelHealth health = new WakeUpChannelHealth(MAX_SLEEP, 5_000, this.now::get);

	private final SweepCap cap = new SweepCap(MAX_SLEEP, IDLE_MAX_SLEEP, this.health, this.now::get);

	@Test
	void isTheShortCapUntilTheChannelsAreSubscribed() {
		assertThat(this.cap.of("orders", 1_000_000)).isEqualTo(MAX_SLEEP);
	}

	@Test
	void isTheIdleCapWhileMessagesArriveAndNothingIsWatched() {
		this.health.subscribed(true);

		assertThat(this.cap.of("orders", this.now.get())).isEqualTo(IDLE_MAX_SLEEP);
		assertThat(this.cap.ofUnwatched(this.now.get())).isEqualTo(IDLE_MAX_SLEEP);
	}

	@Test
	void watchesAClaimedTopicForTwiceTheShortCap() {
		this.health.subscribed(true);
		this.cap.watch("orders", 2_000);

		assertThat(this.cap.of("orders", 2_000 + 2 * MAX_SLEEP - 1)).isEqualTo(MAX_SLEEP);
		assertThat(this.cap.of("other", 2_000)).isEqualTo(IDLE_MAX_SLEEP);
		assertThat(this.cap.of("orders", 2_000 + 2 * MAX_SLEEP)).isEqualTo(IDLE_MAX_SLEEP);
	}

	@Test
	void watchesEveryTopicAfterMessagesMayHaveBeenMissed() {
		this.health.subscribed(true);
		this.cap.watchAll(2_000);

		assertThat(this.cap.of("orders", 2_000 + 2 * MAX_SLEEP - 1)).isEqualTo(MAX_SLEEP);
		assertThat(this.cap.ofUnwatched(2_000 + 2 * MAX_SLEEP - 1)).isEqualTo(MAX_SLEEP);
		assertThat(this.cap.of("orders", 2_000 + 2 * MAX_SLEEP)).isEqualTo(IDLE_MAX_SLEEP);
	}

	@Test
	void isTheShortCapWhileHeartbeatsGoUnanswered() {
		this.health.subscribed(true);
		this.health.heartbeatSent(2_000);

		assertThat(this.health.turnedSilent(2_000 + MAX_SLEEP)).isTrue();
		assertThat(this.cap.of("orders", 2_000 + MAX_SLEEP)).isEqualTo(MAX_SLEEP);
	}

	@Test
	void neverMakesTheIdleCapShorterThanTheShortOne() {
		this.health.subscribed(true);
		this.cap.setIdleMaxSleep(MAX_SLEEP / 2);

		assertThat(this.cap.of("orders", this.now.get())).isEqualTo(MAX_SLEEP);
	}

}
