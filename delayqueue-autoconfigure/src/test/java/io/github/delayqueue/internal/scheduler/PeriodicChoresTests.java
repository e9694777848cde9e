package io.github.delayqueue.internal.scheduler;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.delayqueue.core.DelayQueueTemplate;
import io.github.delayqueue.core.JobRequest;
import io.github.delayqueue.internal.store.DelayQueueKeys;
import io.github.delayqueue.internal.store.JobClaims;
import io.github.delayqueue.internal.store.JobHistory;
import io.github.delayqueue.internal.store.JobHistoryPolicy;
import io.github.delayqueue.internal.store.JobStore;
import io.github.delayqueue.internal.store.PartitionRegistry;
import io.github.delayqueue.internal.store.TopicKeys;
import io.github.delayqueue.internal.support.TopicPolicy;
import io.github.delayqueue.test.DelayQueueFixture;
import io.github.delayqueue.test.PartitionIds;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.data.redis.core.RedisCallback;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The scheduler's timed chores against a real Redis, driven by made-up times: each runs
 * when its turn has come and not before, whatever the wall clock says.
 */
@ExtendWith(RedisExtension.class)
class PeriodicChoresTests {

	private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

	private static final long MAX_SLEEP = 5 * SECOND;

	private static final long HEARTBEAT = 30 * SECOND;

	private static final long ORPHAN_CHECK = 30 * SECOND;

	// Far from zero, and negative, so that nothing passes only because times start at 0.
	private static final long START = -1_000_000 * SECOND;

	private DelayQueueFixture fixture;

	private WakeUpChannelHealth health;

	private TopicWakeUps wakeUps;

	private PeriodicChores chores;

	private final AtomicInteger sweepsOfEveryTopic = new AtomicInteger();

	@BeforeEach
	void setUp(RedisTestServer server) {
		server.flushAll();
		this.fixture = new DelayQueueFixture(server);
		long[] clock = { START };
		this.health = new WakeUpChannelHealth(MAX_SLEEP, HEARTBEAT, () -> clock[0]);
		this.wakeUps = new TopicWakeUps(() -> clock[0]);
		SweepCap cap = new SweepCap(MAX_SLEEP, 60 * SECOND, this.health, () -> clock[0]);
		this.chores = new PeriodicChores(new HousekeepingStore(this.fixture.scripts(), this.fixture.keys()),
				this.fixture.store(), (topic) -> TopicPolicy.defaults(), this.health, cap, this.wakeUps, MAX_SLEEP,
				this.sweepsOfEveryTopic::incrementAndGet);
		this.chores.setOrphanCheckInterval(ORPHAN_CHECK);
	}

	@AfterEach
	void tearDown() {
		this.fixture.close();
	}

	@Test
	void looksForTopicsAtOnceAndAgainOnlyWhenItsTurnComes() {
		this.chores.setOrphanCheckInterval(1000 * SECOND);
		this.fixture.store().registerTopic("first");
		this.chores.start(START);
		assertThat(this.chores.nextDue()).isEqualTo(START);
		this.chores.refreshTopicsIfDue(START);
		assertThat(this.wakeUps.topics()).containsExactly("first");
		long next = this.chores.nextDue();
		assertThat(next - START).isPositive();
		this.fixture.store().registerTopic("second");
		this.chores.refreshTopicsIfDue(next - 1);
		assertThat(this.wakeUps.topics()).containsExactly("first");
		this.chores.refreshTopicsIfDue(next);
		assertThat(this.wakeUps.topics()).containsExactlyInAnyOrder("first", "second");
	}

	@Test
	void readsThePartitionSetsOfPartitionedTopicsOnly() {
		for (int i = 0; i < 10; i++) {
			this.fixture.store().registerTopic("plain-" + i);
		}
		// Another instance, which gives the topic "hot" 6 partitions; this one knows of
		// them only from what that one recorded.
		DelayQueueKeys partitioned = new DelayQueueKeys(DelayQueueFixture.PREFIX,
				(topic) -> topic.equals("hot") ? 6 : 1);
		new JobStore(this.fixture.scripts(), partitioned, this.fixture.codec()).registerTopic("hot");
		this.chores.start(START);
		long before = calls("smembers");
		this.chores.refreshTopicsIfDue(START);
		// The topics, the partitioned topics, the partition set of "hot": not one per
		// topic.
		assertThat(calls("smembers") - before).isEqualTo(3);
		assertThat(this.wakeUps.topics()).hasSize(10 + 6)
			.containsAll(partitioned.queues("hot"))
			.contains("plain-0", "plain-9");
	}

	@Test
	void retiresDrainedPartitionsNoLongerConfiguredAtStartAndSweepsThemNoMore() {
		long interval = 3600 * SECOND;
		this.chores.setPartitionRetirementInterval(interval);
		DelayQueueKeys six = new DelayQueueKeys(DelayQueueFixture.PREFIX, (topic) -> 6);
		JobStore sixStore = new JobStore(this.fixture.scripts(), six, this.fixture.codec());
		sixStore.registerTopic("hot");
		this.fixture.store().registerTopic("hot");
		this.chores.start(START);
		this.chores.refreshTopicsIfDue(START);
		assertThat(this.wakeUps.topics()).containsExactlyInAnyOrderElementsOf(six.queues("hot"));
		// The configuration is bound at start: a lowered number takes effect at once.
		assertThat(this.chores.retirePartitionsIfDue(START))
			.containsExactlyInAnyOrderElementsOf(six.queues("hot").subList(1, 6));
		assertThat(this.fixture.store().queues("hot")).containsExactly("hot");
		assertThat(this.wakeUps.topics()).containsExactly("hot");
		// None was left: the next look comes a whole interval later.
		sixStore.registerTopic("cool");
		assertThat(this.chores.retirePartitionsIfDue(START + interval - 1)).isEmpty();
		assertThat(this.fixture.store().queues("cool")).hasSize(6);
		assertThat(this.chores.retirePartitionsIfDue(START + interval)).hasSize(5);
		// Retired by another instance: forgotten at the next look at the topics.
		sixStore.registerTopic("warm");
		this.fixture.store().registerTopic("warm");
		long later = START + interval + 100 * SECOND;
		this.chores.refreshTopicsIfDue(later);
		assertThat(this.wakeUps.topics()).hasSize(1 + 1 + 6);
		assertThat(new PartitionRegistry(this.fixture.scripts(), this.fixture.keys()).retireDrained("warm").retired())
			.hasSize(5);
		this.chores.refreshTopicsIfDue(later + 100 * SECOND);
		assertThat(this.wakeUps.topics()).containsExactlyInAnyOrder("hot", "cool", "warm");
	}

	@Test
	void triesAgainSoonWhilePartitionsNoLongerConfiguredHoldJobsThenOnlyAtTheUsualInterval() {
		long interval = 3600 * SECOND;
		long retry = SECOND;
		this.chores.setOrphanCheckInterval(1000 * SECOND);
		this.chores.setPartitionRetirementInterval(interval);
		this.chores.setPartitionRetirementRetryInterval(retry);
		DelayQueueKeys six = new DelayQueueKeys(DelayQueueFixture.PREFIX, (topic) -> 6);
		JobStore sixStore = new JobStore(this.fixture.scripts(), six, this.fixture.codec());
		DelayQueueTemplate sixTemplate = new DelayQueueTemplate(sixStore, this.fixture.codec(),
				this.fixture.jsonMapper());
		String held = six.queues("hot").get(2);
		String id = sixTemplate.send(JobRequest.builder("hot", "x")
			.id(PartitionIds.idIn(six, "hot", held, 0))
			.delay(Duration.ofHours(1))
			.build());
		this.chores.start(START);
		this.chores.refreshTopicsIfDue(START);
		assertThat(this.chores.retirePartitionsIfDue(START)).hasSize(4).doesNotContain(held);
		// The scheduler wakes for the next try, before its next look at the topics.
		assertThat(this.chores.nextDue()).isEqualTo(START + retry);
		assertThat(this.chores.retirePartitionsIfDue(START + retry)).isEmpty();
		assertThat(sixTemplate.cancel("hot", id)).isTrue();
		assertThat(this.chores.retirePartitionsIfDue(START + 2 * retry - 1)).isEmpty();
		assertThat(this.fixture.store().queues("hot")).containsExactly("hot", held);
		assertThat(this.chores.retirePartitionsIfDue(START + 2 * retry)).containsExactly(held);
		assertThat(this.fixture.store().queues("hot")).containsExactly("hot");
		assertThat(this.wakeUps.topics()).containsExactly("hot");
		// None is left: the usual interval, which the scheduler does not wake for.
		assertThat(this.chores.nextDue()).isEqualTo(START + MAX_SLEEP);
		sixStore.registerTopic("cool");
		assertThat(this.chores.retirePartitionsIfDue(START + 2 * retry + interval - 1)).isEmpty();
		assertThat(this.chores.retirePartitionsIfDue(START + 2 * retry + interval)).hasSize(5);
	}

	@Test
	void looksForTopicsNoLaterThanAsked() {
		this.chores.start(START);
		this.chores.refreshTopicsIfDue(START);
		long next = this.chores.nextDue();
		this.chores.refreshTopicsNoLaterThan(START + SECOND);
		assertThat(this.chores.nextDue()).isEqualTo(START + SECOND);
		this.chores.refreshTopicsNoLaterThan(next + SECOND);
		assertThat(this.chores.nextDue()).isEqualTo(START + SECOND);
	}

	@Test
	void handsBackAnIdLeftInAClaimingListOnlyOnceSeenThereTwoChecksApart() {
		TopicKeys keys = this.fixture.keys().topic("orders");
		String id = this.fixture.template().send("orders", "x");
		// A consumer moved the id to its claiming list and died before claiming it.
		this.fixture.redis().opsForList().remove(keys.ready(), 1, id);
		this.fixture.redis().opsForList().leftPush(keys.claiming(), id);
		this.wakeUps.track("orders", START);
		this.chores.start(START);
		this.chores.refreshTopicsIfDue(START);
		this.chores.requeueOrphansIfDue(START + ORPHAN_CHECK - 1);
		assertThat(this.fixture.redis().opsForList().range(keys.claiming(), 0, -1)).containsExactly(id);
		this.chores.requeueOrphansIfDue(START + ORPHAN_CHECK);
		assertThat(this.fixture.redis().opsForList().range(keys.claiming(), 0, -1)).containsExactly(id);
		this.chores.requeueOrphansIfDue(START + 2 * ORPHAN_CHECK - 1);
		assertThat(this.fixture.redis().opsForList().range(keys.claiming(), 0, -1)).containsExactly(id);
		this.chores.requeueOrphansIfDue(START + 2 * ORPHAN_CHECK);
		assertThat(this.fixture.redis().opsForList().range(keys.claiming(), 0, -1)).isEmpty();
		assertThat(this.fixture.redis().opsForList().range(keys.ready(), 0, -1)).containsExactly(id);
	}

	@Test
	void publishesAHeartbeatWhenDueAndSweepsEveryTopicOnceItGoesUnanswered() {
		this.health.subscribed(true);
		this.chores.start(START);
		long due = START + HEARTBEAT;
		long publishes = publishes();
		this.chores.checkWakeUpChannel(due - 1);
		assertThat(publishes()).isEqualTo(publishes);
		this.chores.checkWakeUpChannel(due);
		assertThat(publishes()).isEqualTo(publishes + 1);
		this.chores.checkWakeUpChannel(due + MAX_SLEEP - 1);
		assertThat(this.sweepsOfEveryTopic).hasValue(0);
		this.chores.checkWakeUpChannel(due + MAX_SLEEP);
		assertThat(this.sweepsOfEveryTopic).hasValue(1);
		// Silent now: heartbeats go out every max-sleep until one is heard.
		assertThat(publishes()).isEqualTo(publishes + 2);
		this.chores.checkWakeUpChannel(due + 2 * MAX_SLEEP);
		assertThat(this.sweepsOfEveryTopic).hasValue(1);
		assertThat(publishes()).isEqualTo(publishes + 3);
	}

	@Test
	void heardHeartbeatsSweepNothing() {
		this.health.subscribed(true);
		this.chores.start(START);
		List<Long> publishedAt = new ArrayList<>();
		for (long now = START; now - (START + 5 * HEARTBEAT) <= 0; now += SECOND) {
			long before = publishes();
			this.chores.checkWakeUpChannel(now);
			if (publishes() > before) {
				publishedAt.add(now);
				this.health.heard();
			}
		}
		assertThat(publishedAt).containsExactly(START + HEARTBEAT, START + 2 * HEARTBEAT, START + 3 * HEARTBEAT,
				START + 4 * HEARTBEAT, START + 5 * HEARTBEAT);
		assertThat(this.sweepsOfEveryTopic).hasValue(0);
	}

	private long publishes() {
		return calls("publish");
	}

	private long calls(String command) {
		Properties stats = this.fixture.redis()
			.execute((RedisCallback<Properties>) (connection) -> connection.serverCommands().info("commandstats"));
		String calls = (stats != null) ? stats.getProperty("cmdstat_" + command) : null;
		if (calls == null) {
			return 0;
		}
		return Long.parseLong(calls.replaceAll("^calls=(\\d+),.*", "$1"));
	}

	@Test
	void trimsKeptJobsBeyondALoweredCountCapAndTimelineListSetsWhenTheirTurnComesThoughNoJobFinishes() {
		int[] maxCount = { 100 };
		JobHistory history = new JobHistory((topic) -> new JobHistoryPolicy(Duration.ofHours(1), maxCount[0]),
				"host-a");
		this.fixture.store().setJobHistory(history);
		JobClaims claims = new JobClaims(this.fixture.scripts(), this.fixture.keys());
		claims.setJobHistory(history);
		for (int i = 0; i < 5; i++) {
			this.fixture.template().send(JobRequest.builder("receipts", "r").id("r-" + i).build());
		}
		claims.ack("receipts", claims.claim("receipts", null, 5, Duration.ofMinutes(1)).jobs());
		String finished = this.fixture.keys().topic("receipts").finished();
		assertThat(this.fixture.redis().opsForHash().size(finished)).isEqualTo(5);
		this.wakeUps.track("receipts", START);
		this.chores.start(START);

		String listSet = this.fixture.keys().topic("receipts").timelinePrefix() + "/lists";
		this.fixture.redis().opsForSet().add(listSet, "vanished");

		maxCount[0] = 2;
		this.chores.trimKeptJobsIfDue(START);
		assertThat(this.fixture.redis().opsForHash().size(finished)).isEqualTo(2);
		assertThat(this.fixture.redis().hasKey(listSet)).as("an id whose job and list are gone").isFalse();

		maxCount[0] = 1;
		this.chores.trimKeptJobsIfDue(START + SECOND);
		assertThat(this.fixture.redis().opsForHash().size(finished)).as("not its turn yet").isEqualTo(2);
		this.chores.trimKeptJobsIfDue(START + PeriodicChores.KEPT_TRIM_NANOS);
		assertThat(this.fixture.redis().opsForHash().size(finished)).isEqualTo(1);
		assertThat(this.fixture.template().find("receipts", "r-4")).isPresent();
	}

}
