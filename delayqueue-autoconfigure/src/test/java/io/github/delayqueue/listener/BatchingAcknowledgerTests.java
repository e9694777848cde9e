package io.github.delayqueue.listener;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.github.delayqueue.internal.store.JobClaims.ClaimedJob;
import io.github.delayqueue.internal.support.JobEventListener;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Batching acknowledgements of finished deliveries, without Redis.
 */
class BatchingAcknowledgerTests {

	private final List<List<String>> calls = new CopyOnWriteArrayList<>();

	private final List<String> completed = new CopyOnWriteArrayList<>();

	private final JobEventListener events = new JobEventListener() {

		@Override
		public void jobCompleted(String topic, Duration runTime) {
			BatchingAcknowledgerTests.this.completed.add(topic);
		}

	};

	@Test
	void sendsALoneAcknowledgementAtOnce() {
		BatchingAcknowledger acknowledger = new BatchingAcknowledger(this::acknowledgeAll, this.events);
		acknowledger.acknowledge(job("orders", "1"), Duration.ofMillis(5), Duration.ofSeconds(60), 1000L);
		assertThat(this.calls).containsExactly(List.of("orders:1"));
		assertThat(this.completed).containsExactly("orders");
	}

	@Test
	void sendsAcknowledgementsQueuedDuringACallTogetherByTopic() throws Exception {
		CountDownLatch inFirstCall = new CountDownLatch(1);
		CountDownLatch finishFirstCall = new CountDownLatch(1);
		BatchingAcknowledger acknowledger = new BatchingAcknowledger((topic, jobs, deadlines) -> {
			if (this.calls.isEmpty()) {
				inFirstCall.countDown();
				await(finishFirstCall);
			}
			return acknowledgeAll(topic, jobs, deadlines);
		}, this.events);
		CompletableFuture<Void> first = CompletableFuture
			.runAsync(() -> acknowledger.acknowledge(job("a", "1"), Duration.ZERO, Duration.ofSeconds(60), 1000L));
		assertThat(inFirstCall.await(10, TimeUnit.SECONDS)).isTrue();
		// The flush is busy: these only queue up, and their workers return at once.
		acknowledger.acknowledge(job("a", "2"), Duration.ZERO, Duration.ofSeconds(60), 1000L);
		acknowledger.acknowledge(job("b", "3"), Duration.ZERO, Duration.ofSeconds(60), 1000L);
		acknowledger.acknowledge(job("a", "4"), Duration.ZERO, Duration.ofSeconds(60), 1000L);
		assertThat(this.calls).isEmpty();
		finishFirstCall.countDown();
		first.get(10, TimeUnit.SECONDS);
		assertThat(this.calls).containsExactly(List.of("a:1"), List.of("a:2", "a:4"), List.of("b:3"));
		assertThat(this.completed).hasSize(4);
	}

	@Test
	void countsNothingForFencedOrFailedAcknowledgements() {
		BatchingAcknowledger fenced = new BatchingAcknowledger((topic, jobs, deadlines) -> new boolean[jobs.size()],
				this.events);
		fenced.acknowledge(job("orders", "1"), Duration.ZERO, Duration.ofSeconds(1), 1000L);
		BatchingAcknowledger failing = new BatchingAcknowledger((topic, jobs, deadlines) -> {
			throw new IllegalStateException("Redis is away");
		}, this.events);
		failing.acknowledge(job("orders", "2"), Duration.ZERO, Duration.ofSeconds(1), 1000L);
		failing.acknowledge(job("orders", "3"), Duration.ZERO, Duration.ofSeconds(1), 1000L);
		assertThat(this.completed).isEmpty();
	}

	private boolean[] acknowledgeAll(String topic, List<ClaimedJob> jobs, long[] deadlines) {
		List<String> ids = new ArrayList<>();
		for (int i = 0; i < jobs.size(); i++) {
			assertThat(deadlines[i]).isEqualTo(1000L);
			ids.add(topic + ":" + jobs.get(i).id());
		}
		this.calls.add(ids);
		boolean[] acknowledged = new boolean[jobs.size()];
		Arrays.fill(acknowledged, true);
		return acknowledged;
	}

	private static ClaimedJob job(String topic, String id) {
		return new ClaimedJob(topic, topic, id, 1, "{}");
	}

	private static void await(CountDownLatch latch) {
		try {
			latch.await(10, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
