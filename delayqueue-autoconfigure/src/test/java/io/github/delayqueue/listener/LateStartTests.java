package io.github.delayqueue.listener;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.DelayedJob;
import io.github.delayqueue.core.JobEvent;
import io.github.delayqueue.core.JobRequest;
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
 * A rate-limited job claimed ahead of a free worker that waits past its start window (the
 * handler before it ran long) goes back to READY without spending its attempt, and runs
 * later as its first attempt: its rate limit counted it as started within the window of
 * its admission, so a later start could put more than the limit in a window.
 */
@ExtendWith(RedisExtension.class)
class LateStartTests {

	private static final int QUICK_JOBS = 200;

	private ApplicationContextRunner runner;

	@BeforeEach
	void setUp(RedisTestServer server) {
		server.flushAll();
		// A limit far above the rate, so that no admission is refused: each hand-back is
		// one found too late to start. Its start window is a twentieth of the period.
		this.runner = DelayQueueContextRunner.create(server)
			.withUserConfiguration(SlowThenQuickListener.class)
			.withPropertyValues("delayqueue.topics.late.rate-limit.limit=100000",
					"delayqueue.topics.late.rate-limit.period=1s", "delayqueue.topics.late.timeline=true");
	}

	@Test
	void aJobThatWaitedPastItsStartWindowGoesBackAndRunsLaterAsItsFirstAttempt() {
		this.runner.run((context) -> {
			SlowThenQuickListener listener = context.getBean(SlowThenQuickListener.class);
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			// Quick jobs first: their run times make the listener claim ahead of its one
			// worker.
			List<JobRequest> quick = new ArrayList<>();
			for (int i = 0; i < QUICK_JOBS; i++) {
				quick.add(JobRequest.builder("late", "quick-" + i).id("quick-" + i).build());
			}
			queue.sendAll(quick);
			await().atMost(Duration.ofSeconds(20)).until(() -> listener.attempts.size() == QUICK_JOBS);
			// Then one that holds the worker well past a start window, with jobs behind
			// it
			// that the listener claims ahead meanwhile.
			List<JobRequest> behind = new ArrayList<>();
			behind.add(JobRequest.builder("late", "slow").id("slow").build());
			for (int i = 0; i < 20; i++) {
				behind.add(JobRequest.builder("late", "behind-" + i).id("behind-" + i).build());
			}
			queue.sendAll(behind);
			await().atMost(Duration.ofSeconds(10)).until(() -> listener.attempts.containsKey("slow"));
			DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
			// Claimed meanwhile, waiting for the worker that the slow job holds.
			await().atMost(Duration.ofSeconds(10))
				.until(() -> admin.timeline("late", "behind-0")
					.stream()
					.anyMatch((event) -> event.type() == JobEvent.Type.CLAIMED));
			listener.release.countDown();
			await().atMost(Duration.ofSeconds(20)).until(() -> listener.attempts.size() == QUICK_JOBS + behind.size());
			assertThat(listener.attempts).allSatisfy((id, attempt) -> assertThat(attempt).as(id).isOne());
			List<JobEvent.Type> steps = admin.timeline("late", "behind-0").stream().map(JobEvent::type).toList();
			assertThat(steps).containsSubsequence(JobEvent.Type.CLAIMED, JobEvent.Type.RELEASED, JobEvent.Type.CLAIMED,
					JobEvent.Type.COMPLETED);
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class SlowThenQuickListener {

		final Map<String, Integer> attempts = new ConcurrentHashMap<>();

		final CountDownLatch release = new CountDownLatch(1);

		@DelayedJobListener(topics = "late", concurrency = "1")
		void on(DelayedJob<String> job) throws InterruptedException {
			this.attempts.merge(job.id(), job.attempt(), Math::max);
			if (job.id().equals("slow")) {
				// Well past a start window; released by the test once a job behind it is
				// claimed.
				this.release.await(10, TimeUnit.SECONDS);
			}
		}

	}

}
