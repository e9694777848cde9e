package io.github.delayqueue.test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.JobInfo;
import io.github.delayqueue.core.JobRequest;
import io.github.delayqueue.core.JobState;
import io.github.delayqueue.internal.store.DelayQueueKeys;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.env.Environment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * The tester on a real Redis and the real scheduler and listeners: time moves forward in
 * milliseconds, retry schedules are walked through, topics are waited for, and what was
 * sent, thrown and buried is told.
 */
@SpringBootTest(classes = TestApplication.class,
		properties = { "delayqueue.topics.webhooks.retry.max-attempts=3",
				"delayqueue.topics.webhooks.retry.backoff.schedule=1m,3m", "delayqueue.topics.slow.ttr=1m",
				"delayqueue.topics.slow.concurrency=2", "delayqueue.topics.parts.partitions=4" })
@AutoConfigureDelayQueue
class DelayQueueTesterTests {

	@Autowired
	private DelayQueueTester tester;

	@Autowired
	private DelayQueueOperations delayQueue;

	@Autowired
	private TestApplication.Handlers handlers;

	@Autowired
	private DelayQueueKeys keys;

	@Autowired
	private Environment environment;

	@BeforeEach
	void forgetWhatEarlierTestsHandled() {
		this.handlers.handled.clear();
	}

	@Test
	void aJobFallsDueWhenTimeHasMovedPastItsDelayAndNotBefore() {
		String id = this.delayQueue.send("reminders", "pay your order", Duration.ofMinutes(30));

		assertThat(this.tester.advance("reminders", Duration.ofMinutes(29))).isZero();
		this.tester.awaitIdle("reminders");
		assertThat(this.handlers.payloads("reminders")).isEmpty();
		this.tester.assertThat("reminders").job(id).isDelayed().isDueIn(Duration.ofMinutes(1), Duration.ofSeconds(5));

		assertThat(this.tester.advance("reminders", Duration.ofMinutes(1))).isEqualTo(1);
		this.tester.awaitIdle("reminders");
		assertThat(this.handlers.payloads("reminders")).containsExactly("pay your order");
		this.tester.assertThat("reminders").job(id).isGone();
	}

	@Test
	void movedTimesReadAlikeEverywhere() {
		String id = this.delayQueue.send("reminders", "later", Duration.ofHours(2));
		JobInfo before = this.tester.find("reminders", id).orElseThrow();

		this.tester.advance("reminders", Duration.ofHours(1));

		JobInfo after = this.tester.find("reminders", id).orElseThrow();
		assertThat(after.dueAt()).isEqualTo(before.dueAt().minus(Duration.ofHours(1)));
		assertThat(after.createdAt()).isEqualTo(before.createdAt().minus(Duration.ofHours(1)));
		assertThat(Duration.between(this.tester.now(), after.dueAt())).isBetween(Duration.ofMinutes(59),
				Duration.ofHours(1));
	}

	@Test
	void makeDueHandsOverEveryDelayedJobOfTheTopicInDueOrder() {
		this.delayQueue.send("reminders", "third", Duration.ofDays(3));
		this.delayQueue.send("reminders", "first", Duration.ofMinutes(10));
		this.delayQueue.send("reminders", "second", Duration.ofHours(5));

		assertThat(this.tester.makeDue("reminders")).isEqualTo(3);
		this.tester.awaitIdle("reminders");

		assertThat(this.handlers.payloads("reminders")).containsExactly("first", "second", "third");
	}

	@Test
	void timeMovesForOneTopicOnly() {
		this.delayQueue.send("reminders", "moved", Duration.ofMinutes(5));
		String other = this.delayQueue.send("other", "kept", Duration.ofMinutes(5));

		this.tester.advance("reminders", Duration.ofMinutes(5));
		this.tester.awaitIdle();

		assertThat(this.handlers.payloads("reminders")).containsExactly("moved");
		assertThat(this.handlers.payloads("other")).isEmpty();
		this.tester.assertThat("other").hasDelayed(1).job(other).isDueIn(Duration.ofMinutes(5), Duration.ofSeconds(5));
	}

	@Test
	void aRetryScheduleOfMinutesIsWalkedThroughUntilTheJobIsDead() {
		String id = this.delayQueue.send("webhooks", "order 42");
		this.tester.awaitIdle("webhooks");
		this.tester.assertThat("webhooks")
			.job(id)
			.isDelayed()
			.hasAttempts(1)
			.hasLastErrorContaining("partner answered 500 to order 42")
			.isDueIn(Duration.ofMinutes(1), Duration.ofSeconds(5));

		this.tester.advance("webhooks", Duration.ofSeconds(50));
		this.tester.awaitIdle("webhooks");
		this.tester.assertThat("webhooks").job(id).isDelayed().hasAttempts(1);

		this.tester.advance("webhooks", Duration.ofSeconds(10));
		this.tester.awaitIdle("webhooks");
		this.tester.assertThat("webhooks")
			.job(id)
			.isDelayed()
			.hasAttempts(2)
			.isDueIn(Duration.ofMinutes(3), Duration.ofSeconds(5));

		this.tester.advance("webhooks", Duration.ofMinutes(3));
		this.tester.awaitIdle("webhooks");

		this.tester.assertThat("webhooks").isIdle().hasSent(1).hasDead(1).job(id).isDead().hasAttempts(3);
		assertThat(this.tester.deadJobs("webhooks")).singleElement()
			.satisfies((job) -> assertThat(job.lastError()).contains("partner answered 500 to order 42"));
		assertThat(this.tester.failures("webhooks")).hasSize(3)
			.allSatisfy((failure) -> assertThat(failure).isInstanceOf(IllegalStateException.class));
	}

	@Test
	void timeMovesForEveryPartitionOfAPartitionedTopic() {
		List<String> ids = new ArrayList<>();
		for (int i = 0; i < 24; i++) {
			ids.add(this.delayQueue.send("parts", "part " + i, Duration.ofHours(1)));
		}
		assertThat(ids.stream().map((id) -> this.keys.queueOf("parts", id)).distinct()).hasSize(4);

		assertThat(this.tester.advance("parts", Duration.ofHours(1))).isEqualTo(24);
		this.tester.awaitIdle("parts");

		assertThat(this.handlers.payloads("parts")).hasSize(24);
		this.tester.assertThat("parts").isIdle().hasDelayed(0);
	}

	@Test
	void aDeliveryWhoseTimeToRunIsMovedPastItsEndIsDeliveredAgain() {
		CountDownLatch hang = new CountDownLatch(1);
		this.handlers.hang = hang;
		try {
			String id = this.delayQueue.send("slow", "hangs");
			await().atMost(Duration.ofSeconds(10))
				.until(() -> this.tester.find("slow", id).map(JobInfo::state).orElse(null) == JobState.RUNNING);

			assertThat(this.tester.advanceTimeToRun("slow", Duration.ofMinutes(1))).isEqualTo(1);
			this.tester.awaitIdle("slow");

			assertThat(this.handlers.handled).filteredOn((job) -> job.topic().equals("slow"))
				.extracting((job) -> job.attempt())
				.containsExactly(1, 2);
		}
		finally {
			hang.countDown();
		}
	}

	@Test
	void awaitIdleFailsNamingWhatIsLeftToDo() {
		CountDownLatch hang = new CountDownLatch(1);
		this.handlers.hang = hang;
		try {
			this.delayQueue.send("slow", "hangs");
			assertThatExceptionOfType(AssertionError.class)
				.isThrownBy(() -> this.tester.awaitIdle(Duration.ofMillis(300), "slow"))
				.withMessageContaining("Not idle within PT0.3S")
				.withMessageContaining("'slow' has 0 due, 0 ready and 1 running");
		}
		finally {
			hang.countDown();
		}
		this.tester.awaitIdle("slow");
	}

	@Test
	void recordsTheJobsSentWithTheirPayloads() {
		this.delayQueue.send("reminders", "now");
		this.delayQueue.send("reminders", "in an hour", Duration.ofHours(1));
		this.delayQueue
			.send(JobRequest.builder("outbox", Map.of("order", 7)).id("order-7").header("origin", "test").build());
		this.delayQueue
			.sendAll(List.of(JobRequest.builder("outbox", "a").build(), JobRequest.builder("outbox", "b").build()));

		this.tester.assertThat("reminders").hasSent(2).hasSentPayloads("now", "in an hour");
		assertThat(this.tester.sent("reminders").get(1).delay()).isEqualTo(Duration.ofHours(1));
		assertThat(this.tester.sent("outbox")).extracting(SentJob::payload)
			.containsExactly(Map.of("order", 7), "a", "b");
		SentJob chosen = this.tester.sent("outbox").get(0);
		assertThat(chosen.id()).isEqualTo("order-7");
		assertThat(chosen.headers()).containsEntry("origin", "test");
		assertThat(this.tester.sentPayloads("outbox", Object.class)).hasSize(3);
		// No listener takes them: they wait, and the topic is not idle.
		this.tester.assertThat("outbox").hasReady(3);
		assertThat(this.tester.isIdle("outbox")).isFalse();
	}

	@Test
	void timeMovesForwardOnly() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.tester.advance("reminders", Duration.ofSeconds(-1)))
			.withMessageContaining("PT-1S");
	}

	@Test
	void theContextHasAKeyPrefixOfItsOwn() {
		assertThat(this.environment.getProperty("delayqueue.key-prefix")).matches("dq-test-[0-9a-f]{8}");
		assertThat(this.keys.wakeChannel()).startsWith(this.environment.getProperty("delayqueue.key-prefix"));
		assertThat(Duration.between(this.tester.now(), Instant.now()).abs()).isLessThan(Duration.ofMinutes(1));
	}

}
