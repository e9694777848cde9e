package io.github.delayqueue.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.github.delayqueue.internal.store.DelayQueueScript;
import io.github.delayqueue.internal.store.JobClaims;
import io.github.delayqueue.internal.store.JobClaims.Claim;
import io.github.delayqueue.internal.store.JobClaims.ClaimedJob;
import io.github.delayqueue.internal.store.ReadyWait;
import io.github.delayqueue.internal.store.TopicKeys;
import io.github.delayqueue.test.DelayQueueFixture;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.data.redis.core.script.RedisScript;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Cancel and reschedule against a real Redis: they never search the ready list, so a
 * cancelled or rescheduled READY job leaves a ghost entry there, which a claim drops and
 * never delivers, even when the same id is sent again.
 */
@ExtendWith(RedisExtension.class)
class CancelAndRescheduleTests {

	private static final Duration TTR = Duration.ofMinutes(1);

	private DelayQueueFixture fixture;

	private DelayQueueTemplate template;

	private DelayQueueAdmin admin;

	private JobClaims claims;

	@BeforeEach
	void setUp(RedisTestServer server) {
		server.flushAll();
		this.fixture = new DelayQueueFixture(server);
		this.template = this.fixture.template();
		this.admin = this.fixture.admin();
		this.claims = new JobClaims(this.fixture.scripts(), this.fixture.keys());
	}

	@AfterEach
	void tearDown() {
		this.fixture.close();
	}

	@Test
	void cancelsOnlyDelayedAndReadyJobs() {
		JobsInEveryState jobs = jobsInEveryState();

		assertThat(this.template.cancel("orders", jobs.done())).isFalse();
		assertThat(this.template.cancel("orders", jobs.running())).isFalse();
		assertThat(this.template.cancel("orders", jobs.dead())).isFalse();
		assertThat(this.template.cancel("orders", "never-sent")).isFalse();
		assertThat(this.template.cancel("orders", jobs.delayed())).isTrue();
		assertThat(this.template.cancel("orders", jobs.ready())).isTrue();
		assertThat(this.template.cancel("orders", jobs.ready())).isFalse();

		assertThat(this.template.find("orders", jobs.delayed())).isEmpty();
		assertThat(this.template.find("orders", jobs.ready())).isEmpty();
		assertThat(this.template.find("orders", jobs.running()).orElseThrow().state()).isEqualTo(JobState.RUNNING);
		assertThat(this.template.find("orders", jobs.dead()).orElseThrow().state()).isEqualTo(JobState.DEAD);
		assertThat(this.admin.stats("orders")).isEqualTo(new TopicStats("orders", 0, 0, 1, 1));
		assertThat(claimAll("orders")).isEmpty();
		assertThat(ghosts("orders")).isEmpty();
	}

	@Test
	void reschedulesOnlyDelayedAndReadyJobs() {
		JobsInEveryState jobs = jobsInEveryState();

		assertThat(this.template.reschedule("orders", jobs.done(), Duration.ofMinutes(1))).isFalse();
		assertThat(this.template.reschedule("orders", jobs.running(), Duration.ofMinutes(1))).isFalse();
		assertThat(this.template.reschedule("orders", jobs.dead(), Duration.ofMinutes(1))).isFalse();
		assertThat(this.template.reschedule("orders", jobs.dead(), Duration.ZERO)).isFalse();
		assertThat(this.template.reschedule("orders", "never-sent", Duration.ofMinutes(1))).isFalse();
		assertThat(this.template.reschedule("orders", jobs.delayed(), Duration.ofMinutes(2))).isTrue();
		assertThat(this.template.reschedule("orders", jobs.ready(), Duration.ofMinutes(3))).isTrue();

		assertThat(this.template.find("orders", jobs.delayed()).orElseThrow().state()).isEqualTo(JobState.DELAYED);
		assertThat(this.template.find("orders", jobs.ready()).orElseThrow().state()).isEqualTo(JobState.DELAYED);
		assertThat(this.template.find("orders", jobs.running()).orElseThrow().state()).isEqualTo(JobState.RUNNING);
		assertThat(this.template.find("orders", jobs.dead()).orElseThrow().state()).isEqualTo(JobState.DEAD);
		assertThat(this.admin.stats("orders")).isEqualTo(new TopicStats("orders", 2, 0, 1, 1));
		// The rescheduled job's old place in the ready list is a ghost: never delivered.
		assertThat(claimAll("orders")).isEmpty();
		assertThat(ghosts("orders")).isEmpty();
		assertThat(this.template.find("orders", jobs.ready()).orElseThrow().state()).isEqualTo(JobState.DELAYED);
	}

	@Test
	void reschedulingAReadyJobWithNoDelayKeepsItsPlaceAndRewritesItsDueTime() {
		String first = this.template.send(JobRequest.builder("orders", "first").id("first").build());
		String second = this.template.send(JobRequest.builder("orders", "second").id("second").build());
		long before = this.fixture.redisTimeMillis();

		assertThat(this.template.reschedule("orders", first, Duration.ZERO)).isTrue();

		JobInfo job = this.template.find("orders", first).orElseThrow();
		assertThat(job.state()).isEqualTo(JobState.READY);
		assertThat(job.dueAt().toEpochMilli()).isGreaterThanOrEqualTo(before);
		assertThat(this.fixture.redis().opsForList().range("{dq:orders}:ready", 0, -1)).containsExactly(second, first);
		assertThat(ghosts("orders")).isEmpty();
		assertThat(claimAll("orders")).extracting(ClaimedJob::id).containsExactly(first, second);
	}

	@Test
	void refusesARescheduleBeyondTheLongestDelayAndLeavesTheJobAsItWas() {
		String id = this.template
			.send(JobRequest.builder("orders", "x").id("far").delay(Duration.ofMinutes(5)).build());
		JobInfo before = this.template.find("orders", id).orElseThrow();
		// Past the bound, Redis would lose precision adding it to its clock; past
		// Long.MAX_VALUE milliseconds, a Duration has no millisecond count at all.
		for (Duration delay : List.of(DelayQueueTemplate.MAX_DELAY.plusMillis(1), Duration.ofMillis(Long.MAX_VALUE),
				Duration.ofSeconds(Long.MAX_VALUE))) {
			assertThatExceptionOfType(InvalidJobException.class)
				.isThrownBy(() -> this.template.reschedule("orders", id, delay))
				.withMessageContaining(
						"Delay of job 'far' for topic 'orders' must be between zero and 365250 days, was " + delay);
		}
		assertThat(this.template.find("orders", id).orElseThrow().dueAt()).isEqualTo(before.dueAt());

		assertThat(this.template.reschedule("orders", id, DelayQueueTemplate.MAX_DELAY)).isTrue();
		JobInfo after = this.template.find("orders", id).orElseThrow();
		assertThat(after.state()).isEqualTo(JobState.DELAYED);
		assertThat(Duration.between(after.createdAt(), after.dueAt())).isBetween(DelayQueueTemplate.MAX_DELAY,
				DelayQueueTemplate.MAX_DELAY.plusMinutes(1));
	}

	@Test
	void deliversAReadyJobSentAgainAfterItsCancelOnceWithTheNewPayload() {
		this.template.send(JobRequest.builder("orders", "old").id("order-1").build());
		this.template.send(JobRequest.builder("orders", "other").id("order-2").build());
		assertThat(this.template.cancel("orders", "order-1")).isTrue();
		assertThat(ghosts("orders")).containsEntry("order-1", "1").containsEntry("", "1");
		assertThat(this.admin.stats("orders").ready()).isEqualTo(1);

		this.template.send(JobRequest.builder("orders", "new").id("order-1").build());
		assertThat(this.admin.stats("orders").ready()).isEqualTo(2);

		List<ClaimedJob> delivered = claimAll("orders");
		assertThat(delivered).extracting(ClaimedJob::id).containsExactlyInAnyOrder("order-1", "order-2");
		assertThat(delivered).filteredOn((job) -> job.id().equals("order-1"))
			.singleElement()
			.satisfies((job) -> assertThat(job.record()).endsWith("\"new\""));
		assertThat(ghosts("orders")).isEmpty();
		assertThat(this.admin.stats("orders")).isEqualTo(new TopicStats("orders", 0, 0, 2, 0));
	}

	@Test
	void deliversADelayedJobSentAgainAfterItsCancelOnceWhenItFallsDue() {
		this.template.send(JobRequest.builder("orders", "old").id("order-1").build());
		assertThat(this.template.cancel("orders", "order-1")).isTrue();
		this.template.send(JobRequest.builder("orders", "new").id("order-1").delay(Duration.ofSeconds(1)).build());
		long due = this.template.find("orders", "order-1").orElseThrow().dueAt().toEpochMilli();

		// The ghost comes up first and is dropped: the delayed job is not delivered
		// early.
		assertThat(claimAll("orders")).isEmpty();
		assertThat(ghosts("orders")).isEmpty();
		assertThat(this.template.find("orders", "order-1").orElseThrow().state()).isEqualTo(JobState.DELAYED);

		List<ClaimedJob> delivered = new ArrayList<>();
		List<Long> claimedAt = new ArrayList<>();
		await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
			sweep("orders");
			Claim claim = this.claims.claim("orders", null, 10, TTR);
			delivered.addAll(claim.jobs());
			claim.jobs().forEach((job) -> claimedAt.add(claim.redisNow()));
			assertThat(delivered).isNotEmpty();
		});
		assertThat(delivered).singleElement().satisfies((job) -> {
			assertThat(job.id()).isEqualTo("order-1");
			assertThat(job.record()).endsWith("\"new\"");
		});
		assertThat(claimedAt.get(0)).isGreaterThanOrEqualTo(due);
		assertThat(claimAll("orders")).isEmpty();
	}

	@Test
	void deliversARescheduledReadyJobOnceWhenItFallsDueAgain() {
		this.template.send(JobRequest.builder("orders", "x").id("order-1").build());
		assertThat(this.template.reschedule("orders", "order-1", Duration.ofSeconds(1))).isTrue();
		long due = this.template.find("orders", "order-1").orElseThrow().dueAt().toEpochMilli();
		assertThat(this.admin.stats("orders")).isEqualTo(new TopicStats("orders", 1, 0, 0, 0));

		List<ClaimedJob> delivered = new ArrayList<>();
		List<Long> claimedAt = new ArrayList<>();
		await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
			sweep("orders");
			Claim claim = this.claims.claim("orders", null, 10, TTR);
			delivered.addAll(claim.jobs());
			claim.jobs().forEach((job) -> claimedAt.add(claim.redisNow()));
			assertThat(delivered).isNotEmpty();
		});
		assertThat(delivered).extracting(ClaimedJob::id).containsExactly("order-1");
		assertThat(claimedAt.get(0)).isGreaterThanOrEqualTo(due);
		assertThat(ghosts("orders")).isEmpty();
	}

	@Test
	void dropsAGhostThatAConsumerMovedIntoItsClaimingList() {
		this.template.send(JobRequest.builder("orders", "x").id("order-1").build());
		try (ReadyWait wait = this.claims.openReadyWait()) {
			assertThat(wait.awaitReady("orders", Duration.ofSeconds(1))).isEqualTo("order-1");
		}
		// Cancelled between the consumer's blocking move and its claim.
		assertThat(this.template.cancel("orders", "order-1")).isTrue();
		assertThat(this.admin.stats("orders").ready()).isZero();

		Claim claim = this.claims.claim("orders", "order-1", 0, TTR);

		assertThat(claim.jobs()).isEmpty();
		assertThat(ghosts("orders")).isEmpty();
		assertThat(this.fixture.redis().opsForList().size("{dq:orders}:claiming")).isZero();
	}

	@Test
	void countsGhostsOfTheSameIdOneByOne() {
		for (int i = 0; i < 3; i++) {
			this.template.send(JobRequest.builder("orders", "x" + i).id("order-1").build());
			assertThat(this.template.cancel("orders", "order-1")).isTrue();
		}
		this.template.send(JobRequest.builder("orders", "kept").id("order-1").build());
		assertThat(ghosts("orders")).containsEntry("order-1", "3").containsEntry("", "3");
		assertThat(this.admin.stats("orders").ready()).isEqualTo(1);

		List<ClaimedJob> delivered = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			delivered.addAll(this.claims.claim("orders", null, 1, TTR).jobs());
			assertThat(this.admin.stats("orders").ready()).isEqualTo(delivered.isEmpty() ? 1 : 0);
		}
		assertThat(delivered).singleElement().satisfies((job) -> assertThat(job.record()).endsWith("\"kept\""));
		assertThat(ghosts("orders")).isEmpty();
	}

	@Test
	void aClaimThatRedisRunsTwiceHandsOverItsFirstJobsAndDropsNoGhostTwice() {
		this.template.send(JobRequest.builder("orders", "gone").id("gone").build());
		this.template.send(JobRequest.builder("orders", "kept").id("kept").build());
		assertThat(this.template.cancel("orders", "gone")).isTrue();
		this.template.send(JobRequest.builder("orders", "again").id("gone").build());
		this.template.send(JobRequest.builder("orders", "later").id("later").build());

		// The same call (same token) twice, as a client resends it after a lost reply.
		List<Object> first = rawClaim("orders", "call-1", 3);
		List<Object> second = rawClaim("orders", "call-1", 3);

		assertThat(first.subList(1, first.size())).isEqualTo(second.subList(1, second.size()));
		assertThat(first).contains("kept", "gone").doesNotContain("later", -1L);
		assertThat(ghosts("orders")).isEmpty();
		assertThat(claimAll("orders")).extracting(ClaimedJob::id).containsExactly("later");
	}

	@Test
	void cancelsWithoutSearchingALongReadyList() {
		// A dedicated server: the command statistics are reset and read, for the whole
		// server.
		try (RedisTestServer server = RedisTestServer.startDedicated();
				DelayQueueFixture dedicated = new DelayQueueFixture(server)) {
			DelayQueueTemplate template = dedicated.template();
			JobClaims claims = new JobClaims(dedicated.scripts(), dedicated.keys());
			template.send(JobRequest.builder("big", "done").id("done").build());
			ClaimedJob done = claims.claim("big", null, 1, TTR).jobs().get(0);
			claims.ack("big", List.of(done));
			template.send(JobRequest.builder("big", "ready").id("ready").build());
			template.send(JobRequest.builder("big", "moved").id("moved").build());
			fillReadyList(dedicated, "big", 300_000);
			server.command("CONFIG", "RESETSTAT");

			assertThat(template.cancel("big", "done")).isFalse();
			assertThat(template.reschedule("big", "done", Duration.ofMinutes(1))).isFalse();
			assertThat(template.cancel("big", "ready")).isTrue();
			assertThat(template.reschedule("big", "moved", Duration.ofMinutes(1))).isTrue();

			String stats = server.command("INFO", "commandstats");
			assertThat(stats).contains("cmdstat_evalsha").doesNotContain("cmdstat_lrem").doesNotContain("cmdstat_lpos");
			assertThat(dedicated.admin().stats("big").ready()).isEqualTo(300_000);
		}
	}

	private static void fillReadyList(DelayQueueFixture fixture, String topic, int count) {
		fixture.redis()
			.execute(
					RedisScript.of("for i = 1, tonumber(ARGV[1]), 1000 do local ids = {} "
							+ "for j = i, math.min(i + 999, tonumber(ARGV[1])) do ids[#ids + 1] = 'filler-' .. j end "
							+ "redis.call('LPUSH', KEYS[1], unpack(ids)) end return 1", Long.class),
					List.of(fixture.keys().topic(topic).ready()), String.valueOf(count));
		// Filler ids need records to count as jobs: one hash write per thousand.
		fixture.redis()
			.execute(
					RedisScript.of("for i = 1, tonumber(ARGV[1]), 1000 do local fields = {} "
							+ "for j = i, math.min(i + 999, tonumber(ARGV[1])) do "
							+ "fields[#fields + 1] = 'filler-' .. j fields[#fields + 1] = 'x' end "
							+ "redis.call('HSET', KEYS[1], unpack(fields)) end return 1", Long.class),
					List.of(fixture.keys().topic(topic).jobs()), String.valueOf(count));
	}

	// One job of the topic "orders" in each state, and one that is done (acknowledged).
	private JobsInEveryState jobsInEveryState() {
		String done = this.template.send(JobRequest.builder("orders", "done").id("done").build());
		String running = this.template.send(JobRequest.builder("orders", "running").id("running").build());
		String dead = this.template.send(JobRequest.builder("orders", "dead").id("dead").build());
		List<ClaimedJob> claimed = claimAll("orders");
		assertThat(claimed).extracting(ClaimedJob::id).containsExactly(done, running, dead);
		assertThat(this.claims.ack("orders", List.of(claimed.get(0)))).containsExactly(true);
		assertThat(this.claims.bury(claimed.get(2), "boom")).isTrue();
		String delayed = this.template
			.send(JobRequest.builder("orders", "delayed").id("delayed").delay(Duration.ofHours(1)).build());
		String ready = this.template.send(JobRequest.builder("orders", "ready").id("ready").build());
		return new JobsInEveryState(done, delayed, ready, running, dead);
	}

	private List<ClaimedJob> claimAll(String topic) {
		List<ClaimedJob> all = new ArrayList<>();
		List<ClaimedJob> claimed;
		do {
			claimed = this.claims.claim(topic, null, JobClaims.MAX_CLAIM_BATCH, TTR).jobs();
			all.addAll(claimed);
		}
		while (!claimed.isEmpty() || this.fixture.redis().opsForList().size("{dq:" + topic + "}:ready") > 0);
		return all;
	}

	// The claim script called as JobClaims calls it, with a token of the test's choosing.
	private List<Object> rawClaim(String topic, String token, int count) {
		TopicKeys k = this.fixture.keys().topic(topic);
		return this.fixture.scripts()
			.run(DelayQueueScript.CLAIM, List.of(k.ready(), k.claiming(), k.running(), k.jobs(), k.attempts(),
					k.claimReceipt("test"), k.ghosts()), "", String.valueOf(count), "60000", token);
	}

	private void sweep(String topic) {
		TopicKeys k = this.fixture.keys().topic(topic);
		this.fixture.scripts()
			.run(DelayQueueScript.SWEEP, List.of(k.delayed(), k.ready(), k.running(), k.dead(), k.jobs(), k.attempts(),
					k.errors(), k.successors()), "1000", "5");
	}

	private Map<String, String> ghosts(String topic) {
		return this.fixture.redis().<String, String>opsForHash().entries(this.fixture.keys().topic(topic).ghosts());
	}

	private record JobsInEveryState(String done, String delayed, String ready, String running, String dead) {

	}

}
