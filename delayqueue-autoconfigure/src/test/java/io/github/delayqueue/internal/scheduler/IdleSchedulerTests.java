package io.github.delayqueue.internal.scheduler;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.DelayQueueTemplate;
import io.github.delayqueue.core.JobInfo;
import io.github.delayqueue.core.JobRequest;
import io.github.delayqueue.core.JobState;
import io.github.delayqueue.internal.store.JobClaims;
import io.github.delayqueue.test.DelayQueueContextRunner;
import io.github.delayqueue.test.DelayQueueFixture;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The scheduler while its topics are idle and wake-ups arrive: it leaves them alone for
 * the long idle cap, yet still fires jobs sent elsewhere on time, requeues deliveries
 * claimed elsewhere on time, even by an instance that runs no scheduler, and finds what
 * lost messages hid once it subscribes again. Each test runs on a Redis of its own, so
 * that command counts are the scheduler's.
 */
@ExtendWith(RedisExtension.class)
class IdleSchedulerTests {

	private static final Duration MAX_SLEEP = Duration.ofMillis(200);

	private static final Duration IDLE_MAX_SLEEP = Duration.ofHours(1);

	private static final Duration HEARTBEAT_INTERVAL = Duration.ofSeconds(1);

	/**
	 * Lateness far below the idle cap, which a scheduler reaches only if no message woke
	 * it: generous, for machines shared with other builds. How soon a woken scheduler
	 * sweeps is unit-tested (TopicSweeperTests, SweepCapTests).
	 */
	private static final long LATE = 5000;

	private RedisTestServer server;

	private DelayQueueFixture fixture;

	private RedisMessageListenerContainer subscription;

	@BeforeEach
	void setUp() {
		this.server = RedisTestServer.startDedicated();
		this.fixture = new DelayQueueFixture(this.server);
	}

	@AfterEach
	void tearDown() throws Exception {
		if (this.subscription != null) {
			this.subscription.stop();
			this.subscription.destroy();
		}
		this.fixture.close();
		this.server.close();
	}

	@Test
	void sweepsAQuietTopicOnlyWhileWakeUpsMayBeMissed() {
		DelayedJobScheduler scheduler = idleScheduler("quiet");
		// Not subscribed yet: every max-sleep.
		long before = sweeps();
		await().atMost(Duration.ofSeconds(5)).until(() -> sweeps() >= before + 3);
		subscribe(scheduler);
		awaitNoSweeps();
		// Messages stop arriving, which only the unanswered heartbeat shows: every
		// max-sleep again.
		this.subscription.stop();
		long lost = sweeps();
		await().atMost(Duration.ofSeconds(5)).until(() -> sweeps() >= lost + 3);
	}

	@Test
	void firesAJobSentByAnotherInstanceOnTimeWhileIdle() {
		subscribe(idleScheduler("quiet"));
		awaitNoSweeps();
		// A template that does not know this scheduler, as on another instance; one
		// topic the scheduler knows, one it never heard of.
		DelayQueueTemplate otherInstance = this.fixture.template();
		for (String topic : new String[] { "quiet", "new" }) {
			String id = otherInstance.send(topic, "x", Duration.ofMillis(300));
			JobInfo sent = otherInstance.find(topic, id).orElseThrow();
			long readyAt = awaitState(topic, id, JobState.READY);
			assertThat(readyAt - sent.dueAt().toEpochMilli()).isBetween(0L, LATE);
		}
	}

	@Test
	void requeuesADeliveryClaimedByAnotherInstanceWhenItsTimeToRunElapsesWhileIdle() {
		subscribe(idleScheduler("claimed"));
		awaitNoSweeps();
		// Another instance, without a scheduler, claims a job whose own time to run is
		// far shorter than the topic's, which is what its container reports; then it
		// dies or hangs.
		DelayQueueTemplate otherInstance = this.fixture.template();
		String id = otherInstance.send(JobRequest.builder("claimed", "x").ttr(Duration.ofSeconds(1)).build());
		JobClaims claims = new JobClaims(this.fixture.scripts(), this.fixture.keys());
		ClaimAnnouncer announcer = new ClaimAnnouncer(this.fixture.redis(), this.fixture.keys().claimChannel(),
				MAX_SLEEP, null);
		JobClaims.Claim claim = claims.claim("claimed", null, 1, Duration.ofMinutes(1));
		assertThat(claim.jobs()).hasSize(1);
		announcer.jobScheduled("claimed", claim.redisNow() + Duration.ofMinutes(1).toMillis());
		long deadline = claim.redisNow() + 1000;
		long readyAt = awaitState("claimed", id, JobState.READY);
		assertThat(readyAt - deadline).isBetween(0L, LATE);
	}

	@Test
	void sweepsEveryTopicWhenItSubscribesAgainAfterLosingItsConnection() {
		subscribe(idleScheduler("hidden"));
		DelayQueueTemplate otherInstance = this.fixture.template();
		String id = otherInstance.send("hidden", "x", Duration.ofHours(1));
		awaitNoSweeps();
		// An earlier due time that nobody announced: what a lost wake-up leaves behind.
		long due = this.fixture.redisTimeMillis() + 1500;
		this.fixture.redis().opsForZSet().add(this.fixture.keys().topic("hidden").delayed(), id, due);
		assertThat(this.server.command("CLIENT", "KILL", "TYPE", "pubsub")).startsWith(":1");
		long readyAt = awaitState("hidden", id, JobState.READY);
		assertThat(readyAt - due).isBetween(0L, LATE);
	}

	@Test
	void requeuesADeliveryOfAConsumerThatRunsNoSchedulerOnTimeWhileIdle() {
		String[] timing = { "delayqueue.scheduler.max-sleep=" + MAX_SLEEP.toMillis() + "ms",
				"delayqueue.scheduler.idle-max-sleep=1h" };
		ApplicationContextRunner schedulerOnly = DelayQueueContextRunner.create(this.server)
			.withPropertyValues(timing)
			.withPropertyValues("delayqueue.listener.enabled=false");
		ApplicationContextRunner consumerOnly = DelayQueueContextRunner.create(this.server)
			.withUserConfiguration(HangingListenerConfiguration.class)
			.withPropertyValues(timing)
			.withPropertyValues("delayqueue.scheduler.enabled=false", "delayqueue.topics.hang.ttr=1s",
					"delayqueue.topics.hang.concurrency=2");
		schedulerOnly.run((scheduling) -> {
			assertThat(scheduling).hasNotFailed();
			await().atMost(Duration.ofSeconds(5))
				.until(scheduling.getBean("delayQueueWakeUpContainer",
						RedisMessageListenerContainer.class)::isListening);
			awaitNoSweeps();
			consumerOnly.run((consuming) -> {
				HangingListener listener = consuming.getBean(HangingListener.class);
				try {
					String id = consuming.getBean(DelayQueueOperations.class).send("hang", "x");
					String running = this.fixture.keys().topic("hang").running();
					await().atMost(Duration.ofSeconds(10))
						.until(() -> this.fixture.redis().opsForZSet().score(running, id) != null);
					long deadline = this.fixture.redis().opsForZSet().score(running, id).longValue();
					await().atMost(Duration.ofSeconds(10))
						.pollInterval(Duration.ofMillis(1))
						.until(() -> this.fixture.template().find("hang", id).orElseThrow().attempts() >= 2);
					long redeliveredAt = this.fixture.redisTimeMillis();
					assertThat(redeliveredAt - deadline).isBetween(0L, LATE);
				}
				finally {
					listener.release.countDown();
				}
			});
		});
	}

	private DelayedJobScheduler idleScheduler(String topic) {
		DelayedJobScheduler scheduler = this.fixture.scheduler(1000, MAX_SLEEP);
		scheduler.setIdleMaxSleep(IDLE_MAX_SLEEP);
		scheduler.setHeartbeatInterval(HEARTBEAT_INTERVAL);
		scheduler.addTopic(topic);
		scheduler.start();
		return scheduler;
	}

	private void subscribe(DelayedJobScheduler scheduler) {
		RedisMessageListenerContainer container = new RedisMessageListenerContainer();
		container.setConnectionFactory(this.fixture.connectionFactory());
		WakeUpSubscriber subscriber = new WakeUpSubscriber(scheduler, this.fixture.keys());
		container.addMessageListener(subscriber, subscriber.channels());
		container.afterPropertiesSet();
		container.start();
		this.subscription = container;
		await().atMost(Duration.ofSeconds(5)).until(container::isListening);
	}

	/**
	 * Wait until no topic has been swept for ten times the maximum sleep: the watch after
	 * the subscription ended and only the idle cap, an hour, applies.
	 */
	private void awaitNoSweeps() {
		AtomicLong seen = new AtomicLong(-1);
		await().atMost(Duration.ofSeconds(15)).during(MAX_SLEEP.multipliedBy(10)).until(() -> {
			long now = sweeps();
			return seen.getAndSet(now) == now;
		});
	}

	/**
	 * Count the sweeps so far: each one of a topic whose sorted sets hold nothing new
	 * reads their two heads, and nothing else the scheduler runs uses {@code ZRANGE}.
	 */
	private long sweeps() {
		Matcher calls = Pattern.compile("cmdstat_zrange:calls=(\\d+)")
			.matcher(this.server.command("INFO", "commandstats"));
		return calls.find() ? Long.parseLong(calls.group(1)) / 2 : 0;
	}

	private long awaitState(String topic, String id, JobState state) {
		DelayQueueTemplate template = this.fixture.template();
		await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(1))
			.until(() -> template.find(topic, id).map(JobInfo::state).orElse(null) == state);
		return this.fixture.redisTimeMillis();
	}

	@Configuration(proxyBeanMethods = false)
	static class HangingListenerConfiguration {

		@Bean
		HangingListener hangingListener() {
			return new HangingListener();
		}

	}

	static class HangingListener {

		final CountDownLatch release = new CountDownLatch(1);

		@DelayedJobListener("hang")
		void hang(String payload) throws InterruptedException {
			// Past the time to run, as a stuck handler or a dead instance would be.
			this.release.await(30, TimeUnit.SECONDS);
		}

	}

}
