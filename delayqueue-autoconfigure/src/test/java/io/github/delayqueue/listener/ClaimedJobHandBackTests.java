package io.github.delayqueue.listener;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.DelayedJob;
import io.github.delayqueue.core.JobInfo;
import io.github.delayqueue.core.JobState;
import io.github.delayqueue.internal.store.JobClaims;
import io.github.delayqueue.internal.store.JobClaims.Claim;
import io.github.delayqueue.internal.store.JobClaims.ClaimCall;
import io.github.delayqueue.test.DelayQueueContextRunner;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Jobs a container claimed but could not run are handed back at once, uncounted, and a
 * restarted container never runs its claim loop beside one left behind by the stop.
 * Claims go to the real Redis; the tests only make a claim call fail or stall after it.
 */
@ExtendWith(RedisExtension.class)
class ClaimedJobHandBackTests {

	private ApplicationContextRunner runner;

	@BeforeEach
	void setUp(RedisTestServer server) {
		server.flushAll();
		this.runner = DelayQueueContextRunner.create(server)
			.withUserConfiguration(RecordingListener.class)
			.withPropertyValues("delayqueue.defaults.ttr=60s");
	}

	@Test
	void handsBackWhatEarlierCallsClaimedWhenALaterClaimCallFails() {
		this.runner.run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
			DelayedJobListenerContainer container = container(
					context.getBean(DelayedJobListenerEndpointRegistry.class));
			JobClaims claims = context.getBean(JobClaims.class);
			AtomicBoolean failed = new AtomicBoolean();
			container.setClaimer((call) -> {
				if (call.queue().equals("second") && failed.compareAndSet(false, true)) {
					throw new IllegalStateException("claim of the second topic failed on purpose");
				}
				return claims.claim(call);
			});
			String id = queue.send("first", "x");
			container.start();
			RecordingListener listener = context.getBean(RecordingListener.class);
			await().atMost(Duration.ofSeconds(15)).until(() -> listener.attempts.containsKey(id));
			assertThat(failed).isTrue();
			assertThat(listener.attempts.get(id)).containsExactly(1);
		});
	}

	@Test
	void handsBackWhatAClaimBroughtAfterTheContainerStopped() {
		this.runner.run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
			DelayedJobListenerContainer container = container(
					context.getBean(DelayedJobListenerEndpointRegistry.class));
			StallingClaimer claimer = new StallingClaimer(context.getBean(JobClaims.class));
			container.setClaimer(claimer);
			container.start();
			String id = queue.send("first", "held");
			assertThat(claimer.stalled.await(15, TimeUnit.SECONDS)).isTrue();
			assertThat(queue.find("first", id).orElseThrow().state()).isEqualTo(JobState.RUNNING);
			container.stop();
			claimer.release.countDown();
			JobInfo job = await().atMost(Duration.ofSeconds(10))
				.until(() -> queue.find("first", id).orElseThrow(), (info) -> info.state() == JobState.READY);
			assertThat(job.attempts()).isZero();
			assertThat(context.getBean(RecordingListener.class).attempts).isEmpty();
		});
	}

	@Test
	void startsTheNextClaimLoopOnlyOnceTheOneLeftBehindByTheStopHasEnded() {
		this.runner.run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
			DelayedJobListenerContainer container = container(
					context.getBean(DelayedJobListenerEndpointRegistry.class));
			RecordingListener listener = context.getBean(RecordingListener.class);
			StallingClaimer claimer = new StallingClaimer(context.getBean(JobClaims.class));
			container.setClaimer(claimer);
			container.start();
			String held = queue.send("first", "held");
			assertThat(claimer.stalled.await(15, TimeUnit.SECONDS)).isTrue();
			// The stop gives up on the stalled loop after a while and leaves it behind.
			container.stop();
			container.start();
			String sent = queue.send("first", "sent after the restart");
			await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(5)).until(listener.attempts::isEmpty);
			claimer.release.countDown();
			await().atMost(Duration.ofSeconds(15))
				.until(() -> listener.attempts.containsKey(held) && listener.attempts.containsKey(sent));
			assertThat(listener.attempts.get(held)).containsExactly(1);
			assertThat(listener.attempts.get(sent)).containsExactly(1);
			await().atMost(Duration.ofSeconds(10)).until(() -> admin.stats("first").pending() == 0);
		});
	}

	private static DelayedJobListenerContainer container(DelayedJobListenerEndpointRegistry registry) {
		DelayedJobListenerContainer container = registry.getListenerContainer("recording");
		assertThat(container).isNotNull();
		return container;
	}

	/**
	 * Claims for real, then holds the first claim that brings a job until released, as a
	 * reply held up by a slow or unreachable Redis would.
	 */
	static final class StallingClaimer implements DelayedJobListenerContainer.Claimer {

		final CountDownLatch stalled = new CountDownLatch(1);

		final CountDownLatch release = new CountDownLatch(1);

		private final JobClaims claims;

		StallingClaimer(JobClaims claims) {
			this.claims = claims;
		}

		@Override
		public Claim claim(ClaimCall call) {
			Claim claim = this.claims.claim(call);
			if (!claim.jobs().isEmpty() && this.stalled.getCount() > 0) {
				this.stalled.countDown();
				try {
					this.release.await(30, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
			return claim;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class RecordingListener {

		final Map<String, List<Integer>> attempts = new ConcurrentHashMap<>();

		@DelayedJobListener(id = "recording", topics = { "first", "second" }, concurrency = "2", autoStartup = "false")
		void on(DelayedJob<String> job) {
			this.attempts.computeIfAbsent(job.id(), (id) -> new CopyOnWriteArrayList<>()).add(job.attempt());
		}

	}

}
