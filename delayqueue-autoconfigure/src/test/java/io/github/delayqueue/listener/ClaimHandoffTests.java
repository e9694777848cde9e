package io.github.delayqueue.listener;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The meeting point of a claim loop and its waiters, without Redis.
 */
class ClaimHandoffTests {

	private final ClaimHandoff handoff = new ClaimHandoff(() -> 10);

	@BeforeEach
	void open() {
		this.handoff.open();
	}

	@Test
	void letsWaitersBlockOnlyOnceTheLoopIsIdle() throws Exception {
		CompletableFuture<Boolean> waiter = CompletableFuture.supplyAsync(this.handoff::awaitIdle);
		await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(5)).until(() -> !waiter.isDone());
		CompletableFuture<ClaimHandoff.ReadyId> loop = CompletableFuture
			.supplyAsync(() -> awaitReady(Duration.ofSeconds(10)));
		assertThat(waiter.get(10, TimeUnit.SECONDS)).isTrue();
		assertThat(this.handoff.offer("orders", "42")).isTrue();
		assertThat(loop.get(10, TimeUnit.SECONDS)).isEqualTo(new ClaimHandoff.ReadyId("orders", "42"));
	}

	@Test
	void endsAnIdleSpellEmptyHandedWhenNothingIsHandedOver() {
		assertThat(awaitReady(Duration.ofMillis(50))).isNull();
	}

	@Test
	void handsOverIdsInTheOrderTheyCame() {
		this.handoff.offer("high", "1");
		this.handoff.offer("low", "2");
		assertThat(this.handoff.poll()).isEqualTo(new ClaimHandoff.ReadyId("high", "1"));
		assertThat(awaitReady(Duration.ofSeconds(1))).isEqualTo(new ClaimHandoff.ReadyId("low", "2"));
		assertThat(this.handoff.poll()).isNull();
	}

	@Test
	void refusesHandOversOnceClosedAndReturnsThoseNotTaken() {
		this.handoff.offer("orders", "1");
		assertThat(this.handoff.close()).containsExactly(new ClaimHandoff.ReadyId("orders", "1"));
		assertThat(this.handoff.isRunning()).isFalse();
		assertThat(this.handoff.offer("orders", "2")).isFalse();
		assertThat(this.handoff.close()).isEmpty();
	}

	@Test
	void wakesEveryoneWaitingWhenClosed() throws Exception {
		CompletableFuture<Boolean> waiter = CompletableFuture.supplyAsync(this.handoff::awaitIdle);
		CompletableFuture<Void> pause = CompletableFuture.runAsync(() -> this.handoff.pause(Duration.ofMinutes(1)));
		await().during(Duration.ofMillis(100)).atMost(Duration.ofSeconds(5)).until(() -> !waiter.isDone());
		this.handoff.close();
		assertThat(waiter.get(10, TimeUnit.SECONDS)).isFalse();
		pause.get(10, TimeUnit.SECONDS);
		assertThat(awaitReady(Duration.ofMinutes(1))).isNull();
	}

	private ClaimHandoff.ReadyId awaitReady(Duration maxWait) {
		try {
			return this.handoff.awaitReady(maxWait);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}
