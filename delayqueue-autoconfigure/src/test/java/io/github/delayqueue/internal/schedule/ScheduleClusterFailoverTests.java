package io.github.delayqueue.internal.schedule;

import java.time.Duration;
import java.util.List;

import io.github.delayqueue.autoconfigure.DelayQueueSchedulesAutoConfiguration;
import io.github.delayqueue.core.DelayQueueSchedules;
import io.github.delayqueue.test.DelayQueueContextRunner;
import io.github.delayqueue.test.RedisTestCluster;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Schedules on a real Redis Cluster while the master that holds the schedule's topic
 * fails over: a manual {@code CLUSTER FAILOVER} loses and doubles no tick; with a killed
 * master no tick can be decided until its replica takes over, and a schedule that fires
 * every missed tick then runs each of them, once. Each test has a cluster of its own, as
 * a killed node changes it.
 */
class ScheduleClusterFailoverTests {

	private static final String TOPIC = "failover.ticks";

	private RedisTestCluster cluster;

	private ApplicationContextRunner runner;

	@BeforeEach
	void setUp() {
		TickLedger.clear();
		this.cluster = RedisTestCluster.start();
		this.runner = DelayQueueContextRunner.create(this.cluster)
			.withConfiguration(AutoConfigurations.of(DelayQueueSchedulesAutoConfiguration.class))
			.withUserConfiguration(TickLedger.Recorder.class)
			.withPropertyValues("ticks.topic=" + TOPIC, "delayqueue.schedules.ticking.topic=" + TOPIC,
					"delayqueue.schedules.ticking.every=1s", "delayqueue.schedules.ticking.misfire=fire-all");
	}

	@AfterEach
	void tearDown() {
		this.cluster.close();
	}

	@Test
	void losesAndDoublesNoTickWhenTheTopicsMasterFailsOverByHand() {
		this.runner.run((context) -> {
			await().atMost(Duration.ofSeconds(30)).until(() -> TickLedger.runs(TOPIC).size() >= 3);
			this.cluster.failover(replicaOf(topicMaster()));
			int runs = TickLedger.runs(TOPIC).size();
			await().atMost(Duration.ofSeconds(60)).until(() -> TickLedger.runs(TOPIC).size() >= runs + 4);
			assertThat(context.getBean(DelayQueueSchedules.class).find("ticking").orElseThrow().missedTicks()).isZero();
		});
		List<Long> ticks = TickLedger.ticks(TOPIC);
		ScheduleTicksTests.assertConsecutiveOnce(ticks, 1000);
		System.out.println("SCHEDULES cluster, manual failover: " + ticks.size() + " ticks, each once, none missing");
	}

	@Test
	void runsEveryTickOnceAfterTheTopicsMasterIsKilledAndItsReplicaTakesOver() {
		this.runner.run((context) -> {
			await().atMost(Duration.ofSeconds(30)).until(() -> TickLedger.runs(TOPIC).size() >= 3);
			RedisTestServer master = topicMaster();
			master.kill();
			int runs = TickLedger.runs(TOPIC).size();
			// Ticks that fell due while the slot had no master run once it has one again.
			await().atMost(Duration.ofSeconds(90)).until(() -> TickLedger.runs(TOPIC).size() >= runs + 4);
			master.restart();
		});
		List<Long> ticks = TickLedger.ticks(TOPIC);
		ScheduleTicksTests.assertConsecutiveOnce(ticks, 1000);
		System.out.println("SCHEDULES cluster, killed master: " + ticks.size() + " ticks, each once, none missing");
	}

	// The master that holds the topic's slot: masters own equal thirds of the slots.
	private RedisTestServer topicMaster() {
		String reply = this.cluster.masters().get(0).command("CLUSTER", "KEYSLOT", "{dq:" + TOPIC + "}:jobs");
		int slot = Integer.parseInt(reply.substring(1).trim());
		return this.cluster.nodes().get(slot * 3 / 16384);
	}

	private RedisTestServer replicaOf(RedisTestServer master) {
		return this.cluster.nodes().get(this.cluster.nodes().indexOf(master) + 3);
	}

}
