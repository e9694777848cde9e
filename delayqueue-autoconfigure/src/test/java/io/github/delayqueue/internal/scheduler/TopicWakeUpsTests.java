package io.github.delayqueue.internal.scheduler;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * When each topic is next swept, on a clock the test moves.
 */
class TopicWakeUpsTests {

	private final AtomicLong now = new AtomicLong(1_000);

	private final TopicWakeUps wakeUps = new TopicWakeUps(this.now::get);

	@Test
	void sweepsATopicAtTheEarliestTimeAskedFor() {
		this.wakeUps.request("orders", 500);
		this.wakeUps.request("orders", 300);
		this.wakeUps.request("orders", 400);

		assertThat(this.wakeUps.due(299)).isEmpty();
		assertThat(this.wakeUps.due(300)).containsExactly("orders");
	}

	@Test
	void keepsARequestMadeDuringASweepOfItsTopic() {
		this.wakeUps.request("orders", 100);
		this.wakeUps.sweepStarting("orders");
		// Another instance announces an earlier job while the sweep reads Redis.
		this.wakeUps.request("orders", 150);
		this.wakeUps.sweepFinished("orders", 900);

		assertThat(this.wakeUps.due(150)).containsExactly("orders");
	}

	@Test
	void forgetsRequestsThatTheSweepCovered() {
		this.wakeUps.request("orders", 100);
		this.wakeUps.sweepStarting("orders");
		this.wakeUps.sweepFinished("orders", 900);

		assertThat(this.wakeUps.due(899)).isEmpty();
		assertThat(this.wakeUps.due(900)).containsExactly("orders");
	}

	@Test
	void bringsEveryTopicForwardButPostponesNone() {
		this.wakeUps.request("soon", 100);
		this.wakeUps.request("late", 10_000);

		this.wakeUps.requestAll(500);

		assertThat(this.wakeUps.due(499)).containsExactly("soon");
		assertThat(this.wakeUps.due(500)).containsExactlyInAnyOrder("soon", "late");
	}

	@Test
	void tracksATopicFoundInRedisWithoutMovingItsWakeUp() {
		this.wakeUps.request("known", 5_000);

		this.wakeUps.track("known", 100);
		this.wakeUps.track("found", 100);

		assertThat(this.wakeUps.due(100)).containsExactly("found");
		assertThat(this.wakeUps.topics()).containsExactlyInAnyOrder("known", "found");
	}

	@Test
	void comparesTimesAcrossTheWrapOfTheClock() {
		this.wakeUps.request("orders", Long.MAX_VALUE);

		assertThat(this.wakeUps.due(Long.MAX_VALUE + 1)).containsExactly("orders");
		assertThat(this.wakeUps.due(Long.MAX_VALUE - 1)).isEmpty();
	}

	@Test
	void doesNotSleepWhenATopicIsDue() {
		this.wakeUps.request("orders", this.now.get());

		// A sleep would last until the deadline, centuries away.
		assertTimeoutPreemptively(Duration.ofSeconds(30), () -> this.wakeUps.awaitNext(Long.MAX_VALUE));
	}

	@Test
	void doesNotSleepOnceStopped() {
		long never = this.now.get() + Duration.ofDays(365).toNanos();
		this.wakeUps.request("orders", never);
		this.wakeUps.stop();

		assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
			this.wakeUps.awaitNext(never);
			this.wakeUps.pause(never);
		});
	}

}
