package io.github.delayqueue.internal.scheduler;

import java.time.Duration;

import io.github.delayqueue.core.DelayQueueTemplate;
import io.github.delayqueue.core.JobInfo;
import io.github.delayqueue.core.JobState;
import io.github.delayqueue.internal.store.DelayQueueKeys;
import io.github.delayqueue.internal.store.JobStore;
import io.github.delayqueue.internal.support.TopicPolicy;
import io.github.delayqueue.test.DelayQueueFixture;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A send to a partitioned topic wakes the scheduler for the one partition it wrote to,
 * not for all of them: the sweeps a stream of sends causes do not grow with the number of
 * partitions.
 */
@ExtendWith(RedisExtension.class)
class PartitionWakeUpsTests {

	private static final String TOPIC = "wide";

	private static final int PARTITIONS = 64;

	private static final int SENDS = 1000;

	private DelayQueueFixture fixture;

	private DelayQueueTemplate template;

	private DelayedJobScheduler scheduler;

	@BeforeEach
	void setUp(RedisTestServer server) {
		server.flushAll();
		this.fixture = new DelayQueueFixture(server);
		DelayQueueKeys keys = new DelayQueueKeys(DelayQueueFixture.PREFIX, (topic) -> PARTITIONS);
		JobStore store = new JobStore(this.fixture.scripts(), keys, this.fixture.codec());
		this.template = new DelayQueueTemplate(store, this.fixture.codec(), this.fixture.jsonMapper());
		// A long cap: the sweeps counted are those the sends ask for.
		this.scheduler = new DelayedJobScheduler(this.fixture.scripts(), keys, store, (topic) -> TopicPolicy.defaults(),
				100, Duration.ofSeconds(30));
		this.template.setDueTimeListener(this.scheduler);
	}

	@AfterEach
	void tearDown() {
		this.scheduler.stop();
		this.fixture.close();
	}

	@Test
	void sweepsOnlyThePartitionOfAClaimOrRetryInTheTopicsOwnQueue() {
		this.template.send(TOPIC, "registers the topic", Duration.ofDays(1));
		this.scheduler.start();
		this.scheduler.addTopic(TOPIC);
		await().atMost(Duration.ofSeconds(10)).until(() -> this.scheduler.sweeps() >= PARTITIONS);
		await().atMost(Duration.ofSeconds(10)).during(Duration.ofMillis(300)).until(this::sweepsSettled);
		long before = this.scheduler.sweeps();
		ClaimAnnouncer announcer = new ClaimAnnouncer(this.fixture.redis(), "dq:claimed", Duration.ofSeconds(30),
				this.scheduler);

		// Partition 0's queue bears the topic's name: it is still one queue.
		announcer.jobScheduled(TOPIC, this.fixture.redisTimeMillis());

		await().atMost(Duration.ofSeconds(10)).until(() -> this.scheduler.sweeps() > before);
		await().during(Duration.ofMillis(500))
			.atMost(Duration.ofSeconds(5))
			.until(() -> this.scheduler.sweeps() - before == 1);
	}

	private long lastSeen = -1;

	private boolean sweepsSettled() {
		long now = this.scheduler.sweeps();
		boolean settled = now == this.lastSeen;
		this.lastSeen = now;
		return settled;
	}

	@Test
	void sweepsOnlyThePartitionEachSendWroteTo() {
		this.template.send(TOPIC, "registers the topic", Duration.ofDays(1));
		this.scheduler.start();
		this.scheduler.addTopic(TOPIC);
		// The first sweep of every partition, which the start asks for.
		await().atMost(Duration.ofSeconds(10)).until(() -> this.scheduler.sweeps() >= PARTITIONS);
		long before = this.scheduler.sweeps();

		for (int i = 0; i < SENDS; i++) {
			String id = this.template.send(TOPIC, i, Duration.ofMillis(1));
			await().atMost(Duration.ofSeconds(10))
				.pollDelay(Duration.ZERO)
				.pollInterval(Duration.ofMillis(1))
				.until(() -> this.template.find(TOPIC, id).map(JobInfo::state).orElse(null) == JobState.READY);
		}

		long sweeps = this.scheduler.sweeps() - before;
		// One sweep per send at most, give or take a few the start and the cap ask for.
		assertThat(sweeps).as("sweeps for %d sends to %d partitions", SENDS, PARTITIONS)
			.isBetween((long) SENDS / 2, (long) SENDS + 2 * PARTITIONS);
	}

}
