package io.github.delayqueue.listener;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.DelayedJob;
import io.github.delayqueue.internal.store.JobClaims;
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
 * A claim that Redis runs while its reply is late: the client gives up on it after the
 * command timeout, but the script claimed the job all the same. The claim is asked again
 * with the same token, so it hands over that job instead of leaving it running, unseen,
 * until its time to run ends and spends the attempt.
 */
@ExtendWith(RedisExtension.class)
class ClaimReplyTimeoutTests {

	private ApplicationContextRunner runner;

	@BeforeEach
	void setUp(RedisTestServer server) {
		server.flushAll();
		this.runner = DelayQueueContextRunner.create(server)
			.withUserConfiguration(RecordingListener.class)
			.withPropertyValues("delayqueue.command-timeout=300ms", "delayqueue.defaults.retry.max-attempts=1",
					"delayqueue.defaults.ttr=3s", "delayqueue.scheduler.max-sleep=200ms");
	}

	@Test
	void runsAJobWhoseClaimReplyTimedOutOnItsOnlyAttempt(RedisTestServer server) {
		this.runner.run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
			DelayedJobListenerContainer container = context.getBean(DelayedJobListenerEndpointRegistry.class)
				.getListenerContainer("stalled");
			assertThat(container).isNotNull();
			JobClaims claims = context.getBean(JobClaims.class);
			AtomicBoolean stalled = new AtomicBoolean();
			container.setClaimer((call) -> {
				if (call.movedId() != null && stalled.compareAndSet(false, true)) {
					// Redis holds every command for a while from now on, this claim
					// included: its reply comes long after the command timeout.
					server.command("CLIENT", "PAUSE", "1500");
				}
				return claims.claim(call);
			});
			container.start();
			// Idle: the job's id comes from the waiter's blocking move.
			await().atMost(Duration.ofSeconds(10)).until(() -> RedisExtension.blockedClients(server) == 1);
			String id = queue.send("stalled", "only once");
			RecordingListener listener = context.getBean(RecordingListener.class);
			await().atMost(Duration.ofSeconds(15)).until(() -> !listener.attempts.isEmpty());
			assertThat(stalled).isTrue();
			assertThat(listener.attempts).containsExactly(1);
			await().atMost(Duration.ofSeconds(10)).until(() -> queue.find("stalled", id).isEmpty());
			assertThat(admin.stats("stalled").dead()).isZero();
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class RecordingListener {

		final List<Integer> attempts = new CopyOnWriteArrayList<>();

		@DelayedJobListener(id = "stalled", topics = "stalled", autoStartup = "false")
		void on(DelayedJob<String> job) {
			this.attempts.add(job.attempt());
		}

	}

}
