package io.github.delayqueue.internal.scheduler;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.github.delayqueue.core.DelayQueueTemplate;
import io.github.delayqueue.core.JobInfo;
import io.github.delayqueue.core.JobRequest;
import io.github.delayqueue.core.JobState;
import io.github.delayqueue.internal.store.DelayQueueScript;
import io.github.delayqueue.internal.store.JobClaims;
import io.github.delayqueue.internal.support.TopicPolicy;
import io.github.delayqueue.test.DelayQueueFixture;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.data.redis.core.ListOperations;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The scheduler moving due jobs to READY on a real Redis.
 */
@ExtendWith(RedisExtension.class)
class DelayedJobSchedulerTests {

	/**
	 * Lateness that only a scheduler that missed its wake-up, or waited for its cap,
	 * reaches: generous, for machines shared with other builds.
	 */
	private static final long LATE = 5000;

	private DelayQueueFixture fixture;

	private DelayQueueTemplate template;

	@BeforeEach
	void setUp(RedisTestServer server) {
		server.flushAll();
		this.fixture = new DelayQueueFixture(server);
		this.template = this.fixture.template();
	}

	@AfterEach
	void tearDown() {
		this.fixture.close();
	}

	// How soon after its due time the scheduler wakes is a unit test's business
	// (TopicSweeperTests); a shared machine makes any tight bound here flaky.
	@Test
	void makesAJobReadyNoEarlierThanItsDueTimeAndLongBeforeTheCap() {
		DelayedJobScheduler scheduler = this.fixture.scheduler(1000, Duration.ofSeconds(30));
		this.template.setDueTimeListener(scheduler);
		// As in an application, whose scheduler sweeps the topics it knows at start.
		scheduler.addTopic("timers");
		scheduler.start();
		String sweep = DelayQueueScript.SWEEP.script().getSha1();
		await().atMost(Duration.ofSeconds(5))
			.until(() -> this.fixture.redis()
				.execute((RedisCallback<List<Boolean>>) (connection) -> connection.scriptingCommands()
					.scriptExists(sweep)), (exists) -> exists.get(0));
		for (int round = 0; round < 3; round++) {
			String id = this.template.send("timers", "t" + round, Duration.ofMillis(500));
			JobInfo sent = this.template.find("timers", id).orElseThrow();
			assertThat(Duration.between(sent.createdAt(), sent.dueAt())).isEqualTo(Duration.ofMillis(500));
			// A blocking pop returns the moment the job is pushed to READY.
			assertThat(this.fixture.redis()
				.opsForList()
				.rightPopAndLeftPush("{dq:timers}:ready", "popped", Duration.ofSeconds(10))).isEqualTo(id);
			long seenReadyAt = this.fixture.redisTimeMillis();
			assertThat(seenReadyAt).isGreaterThanOrEqualTo(sent.dueAt().toEpochMilli());
			assertThat(seenReadyAt - sent.dueAt().toEpochMilli()).isLessThan(LATE);
		}
	}

	@Test
	void makesTenThousandJobsDueAtTheSameInstantReadyEachOnce() {
		DelayedJobScheduler scheduler = this.fixture.scheduler(1000, Duration.ofSeconds(5));
		this.template.setDueTimeListener(scheduler);
		scheduler.start();
		Instant due = Instant.ofEpochMilli(this.fixture.redisTimeMillis() + 1000);
		List<JobRequest> requests = new ArrayList<>();
		for (int i = 0; i < 10_000; i++) {
			requests.add(JobRequest.builder("burst", i).dueAt(due).build());
		}
		Set<String> ids = new HashSet<>(this.template.sendAll(requests));
		await().atMost(Duration.ofSeconds(10))
			.until(() -> this.fixture.redis().opsForList().size("{dq:burst}:ready"), (size) -> size == 10_000);
		List<String> ready = this.fixture.redis().opsForList().range("{dq:burst}:ready", 0, -1);
		assertThat(ready).doesNotHaveDuplicates();
		assertThat(new HashSet<>(ready)).isEqualTo(ids);
		assertThat(this.fixture.redis().opsForZSet().size("{dq:burst}:delayed")).isZero();
	}

	@Test
	void neverMovesAJobTwiceOrDropsOneWhenTwoSchedulersRace() {
		DelayedJobScheduler first = this.fixture.scheduler(50, Duration.ofMillis(200));
		DelayedJobScheduler second = this.fixture.scheduler(50, Duration.ofMillis(200));
		first.addTopic("race");
		second.addTopic("race");
		first.start();
		second.start();
		long now = this.fixture.redisTimeMillis();
		List<JobRequest> requests = new ArrayList<>();
		for (int i = 0; i < 5000; i++) {
			requests.add(JobRequest.builder("race", i).dueAt(Instant.ofEpochMilli(now + (i % 100) * 10)).build());
		}
		Set<String> ids = new HashSet<>(this.template.sendAll(requests));
		await().atMost(Duration.ofSeconds(10))
			.until(() -> this.fixture.redis().opsForZSet().size("{dq:race}:delayed"), (left) -> left == 0);
		List<String> ready = this.fixture.redis().opsForList().range("{dq:race}:ready", 0, -1);
		assertThat(ready).hasSize(5000).doesNotHaveDuplicates();
		assertThat(new HashSet<>(ready)).isEqualTo(ids);
	}

	@Test
	void movesDueJobsOldestFirst() {
		DelayedJobScheduler scheduler = this.fixture.scheduler(7, Duration.ofSeconds(5));
		long now = this.fixture.redisTimeMillis();
		List<String> expected = new ArrayList<>();
		for (int i = 0; i < 30; i++) {
			expected.add(this.template.sendAt("order", i, Instant.ofEpochMilli(now - 1000 + i)));
		}
		scheduler.addTopic("order");
		scheduler.start();
		await().atMost(Duration.ofSeconds(5))
			.until(() -> this.fixture.redis().opsForList().size("{dq:order}:ready"), (size) -> size == 30);
		List<String> ready = new ArrayList<>(this.fixture.redis().opsForList().range("{dq:order}:ready", 0, -1));
		Collections.reverse(ready);
		assertThat(ready).containsExactlyElementsOf(expected);
	}

	@Test
	void isWokenByAnotherInstancesEarlierJob(RedisTestServer server) {
		DelayedJobScheduler scheduler = this.fixture.scheduler(1000, Duration.ofSeconds(30));
		RedisMessageListenerContainer wakeUps = new RedisMessageListenerContainer();
		wakeUps.setConnectionFactory(this.fixture.connectionFactory());
		WakeUpSubscriber subscriber = new WakeUpSubscriber(scheduler, this.fixture.keys());
		wakeUps.addMessageListener(subscriber, subscriber.channels());
		wakeUps.afterPropertiesSet();
		wakeUps.start();
		try {
			this.template.send("remote", "far", Duration.ofHours(1));
			scheduler.start();
			await().atMost(Duration.ofSeconds(5)).until(wakeUps::isListening);
			// Sent as another instance would: by a template that knows no scheduler.
			DelayQueueTemplate otherInstance = this.fixture.template();
			String id = otherInstance.send("remote", "near", Duration.ofMillis(300));
			JobInfo sent = otherInstance.find("remote", id).orElseThrow();
			long readyAt = awaitReady("remote", id);
			assertThat(readyAt - sent.dueAt().toEpochMilli()).isBetween(0L, LATE);
		}
		finally {
			wakeUps.stop();
		}
	}

	@Test
	void findsJobsWhoseWakeUpWasLostWithinTheMaximumSleep() {
		DelayedJobScheduler scheduler = this.fixture.scheduler(1000, Duration.ofSeconds(1));
		scheduler.addTopic("lost");
		scheduler.start();
		String id = this.template.send("lost", "x", Duration.ofMillis(100));
		JobInfo sent = this.template.find("lost", id).orElseThrow();
		long readyAt = awaitReady("lost", id);
		// Never without the cap: nothing told the scheduler of the job.
		assertThat(readyAt - sent.dueAt().toEpochMilli()).isLessThan(1000 + LATE);
	}

	@Test
	void returnsExpiredDeliveriesAndBuriesThoseWithoutAttemptsLeft() {
		DelayedJobScheduler scheduler = this.fixture.scheduler(1000, Duration.ofMillis(200));
		String retried = this.template.send(JobRequest.builder("ttr", "a").ttr(Duration.ofMillis(100)).build());
		String buried = this.template
			.send(JobRequest.builder("ttr", "b").ttr(Duration.ofMillis(100)).maxAttempts(1).build());
		JobClaims claims = new JobClaims(this.fixture.scripts(), this.fixture.keys());
		assertThat(claims.claim("ttr", null, 10, Duration.ofMinutes(1)).jobs()).hasSize(2);
		scheduler.addTopic("ttr");
		scheduler.start();
		await().atMost(Duration.ofSeconds(5))
			.until(() -> this.template.find("ttr", buried).map(JobInfo::state).orElse(null) == JobState.DEAD);
		JobInfo again = this.template.find("ttr", retried).orElseThrow();
		assertThat(again.state()).isEqualTo(JobState.READY);
		assertThat(again.attempts()).isEqualTo(1);
		assertThat(this.template.find("ttr", buried).orElseThrow().lastError())
			.isEqualTo("Time to run elapsed on attempt 1 of 1");
	}

	@Test
	void handsBackIdsThatAConsumerMovedButNeverClaimed() {
		String id = this.template.send("orphans", "x");
		// What a consumer that died right after its blocking move leaves behind.
		assertThat(this.fixture.redis()
			.opsForList()
			.move(ListOperations.MoveFrom.fromTail("{dq:orphans}:ready"),
					ListOperations.MoveTo.toHead("{dq:orphans}:claiming")))
			.isEqualTo(id);
		DelayedJobScheduler scheduler = this.fixture.scheduler(1000, Duration.ofMillis(100));
		scheduler.setOrphanCheckInterval(Duration.ofMillis(200));
		scheduler.addTopic("orphans");
		scheduler.start();
		await().atMost(Duration.ofSeconds(5))
			.until(() -> this.fixture.redis().opsForList().range("{dq:orphans}:ready", 0, -1),
					(ids) -> ids.contains(id));
		assertThat(this.fixture.redis().opsForList().size("{dq:orphans}:claiming")).isZero();
	}

	@Test
	void purgesDeadJobsPastTheirTopicsRetentionAsItStarts() {
		String old = this.template
			.send(JobRequest.builder("graves", "old").ttr(Duration.ofMillis(100)).maxAttempts(1).build());
		String recent = this.template
			.send(JobRequest.builder("graves", "recent").ttr(Duration.ofMillis(100)).maxAttempts(1).build());
		JobClaims claims = new JobClaims(this.fixture.scripts(), this.fixture.keys());
		assertThat(claims.claim("graves", null, 10, Duration.ofMinutes(1)).jobs()).hasSize(2);
		DelayedJobScheduler burier = this.fixture.scheduler(1000, Duration.ofMillis(200));
		burier.addTopic("graves");
		burier.start();
		await().atMost(Duration.ofSeconds(5))
			.until(() -> this.template.find("graves", recent).map(JobInfo::state).orElse(null) == JobState.DEAD
					&& this.template.find("graves", old).map(JobInfo::state).orElse(null) == JobState.DEAD);
		burier.stop();
		// Dead for two hours, in a topic that keeps dead jobs for one.
		this.fixture.redis()
			.opsForZSet()
			.add(this.fixture.keys().topic("graves").dead(), old,
					this.fixture.redisTimeMillis() - Duration.ofHours(2).toMillis());
		TopicPolicy defaults = TopicPolicy.defaults();
		TopicPolicy keepAnHour = new TopicPolicy(defaults.ttr(), defaults.concurrency(), defaults.maxAttempts(),
				defaults.backoff(), defaults.nonRetryable(), Duration.ofHours(1));
		DelayedJobScheduler scheduler = this.fixture.scheduler(1000, Duration.ofMillis(200), (topic) -> keepAnHour);
		scheduler.addTopic("graves");
		scheduler.start();
		await().atMost(Duration.ofSeconds(5)).until(() -> this.template.find("graves", old).isEmpty());
		assertThat(this.template.find("graves", recent).map(JobInfo::state)).contains(JobState.DEAD);
	}

	@Test
	void catchesUpOnOverdueJobsAfterRedisWasDown() {
		try (RedisTestServer own = RedisTestServer.startDedicated("--appendonly", "yes", "--appendfsync", "always");
				DelayQueueFixture fixture = new DelayQueueFixture(own)) {
			DelayQueueTemplate template = fixture.template();
			DelayedJobScheduler scheduler = fixture.scheduler(100, Duration.ofSeconds(1));
			template.setDueTimeListener(scheduler);
			scheduler.start();
			long due = fixture.redisTimeMillis() + 1500;
			List<JobRequest> requests = new ArrayList<>();
			for (int i = 0; i < 1000; i++) {
				requests.add(JobRequest.builder("outage", i).dueAt(Instant.ofEpochMilli(due + i)).build());
			}
			List<String> ids = template.sendAll(requests);
			own.stop();
			await().atMost(Duration.ofSeconds(10)).until(() -> System.currentTimeMillis() > due + 2500);
			own.restart();
			await().atMost(Duration.ofSeconds(20))
				.until(() -> fixture.redis().opsForList().size("{dq:outage}:ready"), (size) -> size == 1000);
			List<String> ready = new ArrayList<>(fixture.redis().opsForList().range("{dq:outage}:ready", 0, -1));
			Collections.reverse(ready);
			assertThat(ready).containsExactlyElementsOf(ids);
		}
	}

	private long awaitReady(String topic, String id) {
		await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(1))
			.until(() -> this.template.find(topic, id).map(JobInfo::state).orElse(null) == JobState.READY);
		return this.fixture.redisTimeMillis();
	}

}
