package io.github.delayqueue.internal.scheduler;

import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Whether wake-up messages arrive, judged from heartbeats, on a clock the test moves.
 */
class WakeUpChannelHealthTests {

	private static final long ANSWER_WITHIN = 100;

	private static final long HEARTBEAT = 1_000;

	private final AtomicLong now = new AtomicLong(5_000);

	private final WakeUpChannelHealth health = new WakeUpChannelHealth(ANSWER_WITHIN, HEARTBEAT, this.now::get);

	@Test
	void sendsNoHeartbeatAndNeverTurnsSilentWhileUnsubscribed() {
		this.health.heartbeatSent(5_000);

		assertThat(this.health.isHealthy()).isFalse();
		assertThat(this.health.isHeartbeatDue(1_000_000)).isFalse();
		assertThat(this.health.turnedSilent(1_000_000)).isFalse();
		assertThat(this.health.nextCheck(42)).isEqualTo(42);
	}

	@Test
	void sendsAHeartbeatOneIntervalAfterSubscribing() {
		this.health.subscribed(true);

		assertThat(this.health.isHealthy()).isTrue();
		assertThat(this.health.isHeartbeatDue(5_000 + HEARTBEAT - 1)).isFalse();
		assertThat(this.health.isHeartbeatDue(5_000 + HEARTBEAT)).isTrue();
		assertThat(this.health.nextCheck(Long.MAX_VALUE - 1)).isEqualTo(5_000 + HEARTBEAT);
	}

	@Test
	void turnsSilentOnceWhenAHeartbeatGoesUnanswered() {
		this.health.subscribed(true);
		this.health.heartbeatSent(6_000);

		assertThat(this.health.nextCheck(Long.MAX_VALUE - 1)).isEqualTo(6_000 + ANSWER_WITHIN);
		assertThat(this.health.turnedSilent(6_000 + ANSWER_WITHIN - 1)).isFalse();
		assertThat(this.health.turnedSilent(6_000 + ANSWER_WITHIN)).isTrue();
		assertThat(this.health.turnedSilent(6_000 + ANSWER_WITHIN + 1)).isFalse();
		assertThat(this.health.isHealthy()).isFalse();
		// While silent, a heartbeat goes out every answer time, to notice the return.
		assertThat(this.health.isHeartbeatDue(6_000 + ANSWER_WITHIN)).isTrue();
		this.health.heartbeatSent(6_100);
		assertThat(this.health.isHeartbeatDue(6_100 + ANSWER_WITHIN)).isTrue();
	}

	@Test
	void isHealthyAgainWhenAnyMessageArrives() {
		this.health.subscribed(true);
		this.health.heartbeatSent(6_000);
		this.health.turnedSilent(6_000 + ANSWER_WITHIN);

		assertThat(this.health.heard()).isTrue();
		assertThat(this.health.isHealthy()).isTrue();
		assertThat(this.health.heard()).isFalse();
	}

	@Test
	void doesNotTurnSilentWhenTheHeartbeatWasHeard() {
		this.health.subscribed(true);
		this.health.heartbeatSent(6_000);
		this.health.heard();

		assertThat(this.health.turnedSilent(1_000_000)).isFalse();
	}

	@Test
	void doesNotTurnSilentWhenPublishingTheHeartbeatFailed() {
		this.health.subscribed(true);
		this.health.heartbeatSent(6_000);
		this.health.heartbeatFailed();

		assertThat(this.health.turnedSilent(1_000_000)).isFalse();
	}

	@Test
	void forgetsAPendingHeartbeatWhenTheSubscriptionEnds() {
		this.health.subscribed(true);
		this.health.heartbeatSent(6_000);
		this.health.subscribed(false);

		assertThat(this.health.turnedSilent(1_000_000)).isFalse();
		assertThat(this.health.isHealthy()).isFalse();
	}

}
