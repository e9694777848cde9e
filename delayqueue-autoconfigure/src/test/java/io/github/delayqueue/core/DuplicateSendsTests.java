package io.github.delayqueue.core;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.github.delayqueue.internal.store.DelayQueueKeys;
import io.github.delayqueue.internal.store.DelayQueueScript;
import io.github.delayqueue.internal.store.JobClaims;
import io.github.delayqueue.internal.store.JobClaims.ClaimedJob;
import io.github.delayqueue.internal.store.JobStore;
import io.github.delayqueue.internal.store.TopicKeys;
import io.github.delayqueue.test.DelayQueueFixture;
import io.github.delayqueue.test.PartitionIds;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * What a send does when its id is pending: reject, keep, or replace (a debounce, capped
 * by its longest wait), for DELAYED, READY and RUNNING jobs, one job at a time and in
 * batches, on one topic and over partitions.
 */
@ExtendWith(RedisExtension.class)
class DuplicateSendsTests {

	private static final String TOPIC = "digests";

	private DelayQueueFixture fixture;

	private DelayQueueTemplate template;

	private JobClaims claims;

	@BeforeEach
	void setUp(RedisTestServer server) {
		server.flushAll();
		this.fixture = new DelayQueueFixture(server);
		this.template = this.fixture.template();
		this.claims = new JobClaims(this.fixture.scripts(), this.fixture.keys());
	}

	@AfterEach
	void tearDown() {
		this.fixture.close();
	}

	@Test
	void rejectsAPendingIdByDefaultAndLeavesTheJobUnchanged() {
		send("user-1", "first", Duration.ofMinutes(5), IfPending.REJECT);

		assertThatExceptionOfType(DuplicateJobException.class)
			.isThrownBy(() -> send("user-1", "second", Duration.ofMinutes(1), IfPending.REJECT))
			.satisfies((ex) -> assertThat(ex.getJobIds()).containsExactly("user-1"));
		assertThat(find("user-1").payloadJson()).isEqualTo("\"first\"");
	}

	@Test
	void keepsThePendingJobWithoutAnErrorAndReturnsItsId() {
		send("user-1", "first", Duration.ofMinutes(5), IfPending.REJECT);
		JobInfo before = find("user-1");

		String id = send("user-1", "second", Duration.ofSeconds(1), IfPending.KEEP);

		assertThat(id).isEqualTo("user-1");
		assertThat(find("user-1")).isEqualTo(before);
	}

	@Test
	void keepWritesTheJobWhenNoneIsPending() {
		String id = send("user-1", "only", Duration.ofMinutes(5), IfPending.KEEP);

		assertThat(find(id).payloadJson()).isEqualTo("\"only\"");
		assertThat(find(id).state()).isEqualTo(JobState.DELAYED);
	}

	@Test
	void replacesPayloadHeadersAndDueTimeOfADelayedJobAndKeepsItsFirstSend() {
		this.template.send(JobRequest.builder(TOPIC, "first")
			.id("user-1")
			.delay(Duration.ofMinutes(5))
			.header("version", "1")
			.build());
		JobInfo first = find("user-1");

		this.template.send(JobRequest.builder(TOPIC, "second")
			.id("user-1")
			.delay(Duration.ofMinutes(10))
			.header("version", "2")
			.ifPending(IfPending.REPLACE)
			.build());

		JobInfo replaced = find("user-1");
		assertThat(replaced.payloadJson()).isEqualTo("\"second\"");
		assertThat(replaced.headers()).containsExactly(Map.entry("version", "2"));
		assertThat(replaced.createdAt()).isEqualTo(first.createdAt());
		assertThat(replaced.dueAt()).isAfter(first.dueAt().plus(Duration.ofMinutes(4)));
		assertThat(replaced.state()).isEqualTo(JobState.DELAYED);
		assertThat(this.fixture.redis().opsForZSet().score(keys().delayed(), "user-1"))
			.isEqualTo((double) replaced.dueAt().toEpochMilli());
	}

	@Test
	void replacingWithADueTimeNowMovesADelayedJobToReady() {
		send("user-1", "first", Duration.ofMinutes(5), IfPending.REJECT);

		send("user-1", "now", Duration.ZERO, IfPending.REPLACE);

		assertThat(find("user-1").state()).isEqualTo(JobState.READY);
		assertThat(this.fixture.redis().opsForList().range(keys().ready(), 0, -1)).containsExactly("user-1");
		assertThat(claimOne().record()).endsWith("\"now\"");
	}

	@Test
	void replacingAReadyJobWithADelayMakesItDelayedAndNeverDeliversItsOldEntry() {
		send("user-1", "first", Duration.ZERO, IfPending.REJECT);

		send("user-1", "later", Duration.ofMinutes(1), IfPending.REPLACE);

		assertThat(find("user-1").state()).isEqualTo(JobState.DELAYED);
		assertThat(this.fixture.admin().stats(TOPIC)).isEqualTo(new TopicStats(TOPIC, 1, 0, 0, 0));
		JobClaims.Claim claim = this.claims.claim(TOPIC, null, 10, Duration.ofMinutes(1));
		assertThat(claim.jobs()).isEmpty();
		assertThat(find("user-1").state()).isEqualTo(JobState.DELAYED);
	}

	@Test
	void replacementStartsOverWithNoAttemptsAndNoError() {
		send("user-1", "first", Duration.ZERO, IfPending.REJECT);
		ClaimedJob delivery = claimOne();
		this.claims.retry(delivery, Duration.ofMinutes(5), "java.io.IOException: down");
		assertThat(find("user-1").attempts()).isEqualTo(1);

		send("user-1", "second", Duration.ofMinutes(1), IfPending.REPLACE);

		JobInfo replaced = find("user-1");
		assertThat(replaced.attempts()).isZero();
		assertThat(replaced.lastError()).isNull();
	}

	@Test
	void debounceNeverMovesTheDueTimePastTheFirstSendPlusTheMaxWait() {
		JobInfo first = find(debounce("user-1", "1", Duration.ofSeconds(50), Duration.ofMinutes(1)));
		assertThat(first.dueAt()).isEqualTo(first.createdAt().plusSeconds(50));

		debounce("user-1", "2", Duration.ofMinutes(2), Duration.ofMinutes(1));

		JobInfo capped = find("user-1");
		assertThat(capped.payloadJson()).isEqualTo("\"2\"");
		assertThat(capped.dueAt()).isEqualTo(first.createdAt().plus(Duration.ofMinutes(1)));
		assertThat(capped.state()).isEqualTo(JobState.DELAYED);
	}

	@Test
	void debounceCapsTheFirstSendToo() {
		JobInfo job = find(debounce("user-1", "1", Duration.ofMinutes(5), Duration.ofMinutes(1)));

		assertThat(job.dueAt()).isEqualTo(job.createdAt().plus(Duration.ofMinutes(1)));
	}

	@Test
	void debounceAtItsCapMakesTheJobDueNow() {
		debounce("user-1", "1", Duration.ofMinutes(1), Duration.ofMinutes(10));
		long before = this.fixture.redisTimeMillis();

		// A longest wait that has passed already: due now, never in the past.
		debounce("user-1", "2", Duration.ofMinutes(1), Duration.ZERO);

		JobInfo due = find("user-1");
		assertThat(due.state()).isEqualTo(JobState.READY);
		assertThat(due.dueAt().toEpochMilli()).isGreaterThanOrEqualTo(before);
		assertThat(claimOne().record()).endsWith("\"2\"");
	}

	@Test
	void aRunningJobIsPendingToRejectAndKeep() {
		send("user-1", "running", Duration.ZERO, IfPending.REJECT);
		claimOne();

		assertThatExceptionOfType(DuplicateJobException.class)
			.isThrownBy(() -> send("user-1", "again", Duration.ZERO, IfPending.REJECT));
		assertThat(send("user-1", "again", Duration.ZERO, IfPending.KEEP)).isEqualTo("user-1");
		assertThat(this.fixture.redis().hasKey(keys().successors())).isFalse();
		assertThat(find("user-1").state()).isEqualTo(JobState.RUNNING);
	}

	@Test
	void replacingARunningJobRunsTheNewVersionAfterTheDeliveryIsAcknowledged() {
		send("user-1", "old", Duration.ZERO, IfPending.REJECT);
		ClaimedJob delivery = claimOne();

		send("user-1", "new", Duration.ZERO, IfPending.REPLACE);

		JobInfo running = find("user-1");
		assertThat(running.state()).isEqualTo(JobState.RUNNING);
		assertThat(running.payloadJson()).isEqualTo("\"old\"");
		assertThat(this.claims.ack(TOPIC, List.of(delivery))).containsExactly(true);
		JobInfo next = find("user-1");
		assertThat(next.state()).isEqualTo(JobState.READY);
		assertThat(next.payloadJson()).isEqualTo("\"new\"");
		assertThat(next.attempts()).isZero();
		ClaimedJob second = claimOne();
		assertThat(second.record()).endsWith("\"new\"");
		assertThat(second.attempt()).isEqualTo(1);
		assertThat(this.fixture.redis().hasKey(keys().successors())).isFalse();
	}

	@Test
	void theLastReplacementOfARunningJobWinsAndKeepsItsOwnDelay() {
		send("user-1", "old", Duration.ZERO, IfPending.REJECT);
		ClaimedJob delivery = claimOne();
		long before = this.fixture.redisTimeMillis();

		send("user-1", "newer", Duration.ofMinutes(1), IfPending.REPLACE);
		send("user-1", "newest", Duration.ofMinutes(2), IfPending.REPLACE);
		this.claims.ack(TOPIC, List.of(delivery));

		JobInfo next = find("user-1");
		assertThat(next.state()).isEqualTo(JobState.DELAYED);
		assertThat(next.payloadJson()).isEqualTo("\"newest\"");
		assertThat(next.dueAt().toEpochMilli()).isBetween(before + 120_000, before + 125_000);
	}

	@Test
	void theReplacementOfARunningJobTakesOverWhenTheDeliveryFails() {
		send("user-1", "old", Duration.ZERO, IfPending.REJECT);
		ClaimedJob delivery = claimOne();
		send("user-1", "new", Duration.ZERO, IfPending.REPLACE);

		assertThat(this.claims.retry(delivery, Duration.ofMinutes(5), "java.io.IOException: down")).isPositive();

		JobInfo next = find("user-1");
		assertThat(next.state()).isEqualTo(JobState.READY);
		assertThat(next.payloadJson()).isEqualTo("\"new\"");
		assertThat(next.attempts()).isZero();
		assertThat(next.lastError()).isNull();
	}

	@Test
	void theReplacementOfARunningJobTakesOverInsteadOfItsDeath() {
		send("user-1", "old", Duration.ZERO, IfPending.REJECT);
		ClaimedJob delivery = claimOne();
		send("user-1", "new", Duration.ofMinutes(1), IfPending.REPLACE);

		assertThat(this.claims.bury(delivery, "no more attempts")).isFalse();

		JobInfo next = find("user-1");
		assertThat(next.state()).isEqualTo(JobState.DELAYED);
		assertThat(next.payloadJson()).isEqualTo("\"new\"");
		assertThat(this.fixture.admin().stats(TOPIC).dead()).isZero();
	}

	@Test
	void theReplacementOfARunningJobTakesOverWhenTheDeliveryIsHandedBack() {
		send("user-1", "old", Duration.ZERO, IfPending.REJECT);
		ClaimedJob delivery = claimOne();
		send("user-1", "new", Duration.ZERO, IfPending.REPLACE);

		assertThat(this.claims.release(delivery)).isTrue();

		assertThat(claimOne().record()).endsWith("\"new\"");
	}

	@Test
	void theReplacementOfARunningJobTakesOverWhenItsTimeToRunElapses() {
		send("user-1", "old", Duration.ZERO, IfPending.REJECT);
		ClaimedJob delivery = this.claims.claim(TOPIC, null, 1, Duration.ofMillis(1)).jobs().get(0);
		send("user-1", "new", Duration.ZERO, IfPending.REPLACE);
		long deadline = this.fixture.redisTimeMillis() + 5;
		await().atMost(Duration.ofSeconds(5)).until(() -> this.fixture.redisTimeMillis() > deadline);

		List<Object> sweep = sweep();

		assertThat(sweep.get(2)).as("requeued").isEqualTo(1L);
		JobInfo next = find("user-1");
		assertThat(next.state()).isEqualTo(JobState.READY);
		assertThat(next.payloadJson()).isEqualTo("\"new\"");
		assertThat(next.attempts()).isZero();
		assertThat(this.claims.ack(TOPIC, List.of(delivery))).as("the expired delivery is fenced")
			.containsExactly(false);
		assertThat(find("user-1").state()).isEqualTo(JobState.READY);
	}

	@Test
	void cancellingARunningJobRemovesItsReplacementAndLetsTheDeliveryFinish() {
		send("user-1", "old", Duration.ZERO, IfPending.REJECT);
		ClaimedJob delivery = claimOne();
		assertThat(this.template.cancel(TOPIC, "user-1")).isFalse();
		send("user-1", "new", Duration.ZERO, IfPending.REPLACE);

		assertThat(this.template.cancel(TOPIC, "user-1")).isTrue();

		assertThat(find("user-1").state()).isEqualTo(JobState.RUNNING);
		this.claims.ack(TOPIC, List.of(delivery));
		assertThat(this.template.find(TOPIC, "user-1")).isEmpty();
	}

	@Test
	void sendAllReportsPerJobWhetherItWasWrittenKeptReplacedOrRejected() {
		send("kept", "old", Duration.ofMinutes(5), IfPending.REJECT);
		send("replaced", "old", Duration.ofMinutes(5), IfPending.REJECT);
		send("rejected", "old", Duration.ofMinutes(5), IfPending.REJECT);

		List<SendResult> results = this.template.sendAllWithResults(List.of(request("new", IfPending.REJECT),
				request("kept", IfPending.KEEP), request("replaced", IfPending.REPLACE),
				request("rejected", IfPending.REJECT), JobRequest.builder(TOPIC, "generated").build()));

		assertThat(results).extracting(SendResult::outcome)
			.containsExactly(SendResult.Outcome.WRITTEN, SendResult.Outcome.KEPT, SendResult.Outcome.REPLACED,
					SendResult.Outcome.REJECTED, SendResult.Outcome.WRITTEN);
		assertThat(results).extracting(SendResult::jobId)
			.startsWith("new", "kept", "replaced", "rejected")
			.doesNotContainNull();
		assertThat(results).allMatch((result) -> result.topic().equals(TOPIC));
		assertThat(find("new").payloadJson()).isEqualTo("\"batch\"");
		assertThat(find("kept").payloadJson()).isEqualTo("\"old\"");
		assertThat(find("replaced").payloadJson()).isEqualTo("\"batch\"");
		assertThat(find("rejected").payloadJson()).isEqualTo("\"old\"");
		assertThat(find(results.get(4).jobId()).payloadJson()).isEqualTo("\"generated\"");
	}

	@Test
	void sendAllThrowsForTheRejectedAloneAndSendsTheRest() {
		send("kept", "old", Duration.ofMinutes(5), IfPending.REJECT);
		send("rejected", "old", Duration.ofMinutes(5), IfPending.REJECT);

		assertThatExceptionOfType(DuplicateJobException.class)
			.isThrownBy(() -> this.template.sendAll(List.of(request("new", IfPending.REJECT),
					request("kept", IfPending.KEEP), request("rejected", IfPending.REJECT))))
			.satisfies((ex) -> {
				assertThat(ex.getJobIds()).containsExactly("rejected");
				assertThat(ex.getSentJobIds()).containsExactly("new", "kept");
			});
		assertThat(find("new").payloadJson()).isEqualTo("\"batch\"");
	}

	@Test
	void replacesWithinEachPartitionOfAPartitionedTopic() {
		DelayQueueKeys keys = new DelayQueueKeys(DelayQueueFixture.PREFIX, (topic) -> 4);
		DelayQueueTemplate partitioned = new DelayQueueTemplate(
				new JobStore(this.fixture.scripts(), keys, this.fixture.codec()), this.fixture.codec(),
				this.fixture.jsonMapper());
		List<String> ids = PartitionIds.onePerPartition(keys, TOPIC, 4);
		partitioned.sendAll(ids.stream()
			.map((id) -> JobRequest.builder(TOPIC, "old").id(id).delay(Duration.ofMinutes(5)).build())
			.toList());

		List<SendResult> results = partitioned.sendAllWithResults(ids.stream()
			.map((id) -> JobRequest.builder(TOPIC, "new")
				.id(id)
				.delay(Duration.ofMinutes(1))
				.ifPending(IfPending.REPLACE)
				.build())
			.toList());

		assertThat(results).extracting(SendResult::outcome).containsOnly(SendResult.Outcome.REPLACED);
		for (String id : ids) {
			TopicKeys partition = keys.topic(keys.queueOf(TOPIC, id));
			assertThat(this.fixture.redis().<String, String>opsForHash().get(partition.jobs(), id)).endsWith("\"new\"");
			assertThat(this.fixture.redis().opsForZSet().zCard(partition.delayed())).isEqualTo(1);
			assertThat(partitioned.find(TOPIC, id).orElseThrow().payloadJson()).isEqualTo("\"new\"");
		}
	}

	@Test
	void refusesAMaxWaitWithoutReplaceBeforeWritingAnything() {
		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(() -> this.template.send(JobRequest.builder(TOPIC, "x")
				.id("user-1")
				.ifPending(IfPending.KEEP)
				.debounceMaxWait(Duration.ofMinutes(1))
				.build()))
			.withMessageContaining("debounceMaxWait")
			.withMessageContaining("'user-1'");
		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(() -> debounce("user-1", "x", Duration.ZERO, Duration.ofSeconds(-1)))
			.withMessageContaining("must be between zero and");
		assertThat(this.template.find(TOPIC, "user-1")).isEmpty();
	}

	private String send(String id, String payload, Duration delay, IfPending ifPending) {
		return this.template.send(JobRequest.builder(TOPIC, payload).id(id).delay(delay).ifPending(ifPending).build());
	}

	private String debounce(String id, String payload, Duration delay, Duration maxWait) {
		return this.template.send(JobRequest.builder(TOPIC, payload)
			.id(id)
			.delay(delay)
			.ifPending(IfPending.REPLACE)
			.debounceMaxWait(maxWait)
			.build());
	}

	private static JobRequest request(String id, IfPending ifPending) {
		return JobRequest.builder(TOPIC, "batch").id(id).delay(Duration.ofMinutes(1)).ifPending(ifPending).build();
	}

	private JobInfo find(String id) {
		return this.template.find(TOPIC, id).orElseThrow();
	}

	private ClaimedJob claimOne() {
		List<ClaimedJob> jobs = this.claims.claim(TOPIC, null, 1, Duration.ofMinutes(1)).jobs();
		assertThat(jobs).hasSize(1);
		return jobs.get(0);
	}

	private TopicKeys keys() {
		return this.fixture.keys().topic(TOPIC);
	}

	private List<Object> sweep() {
		TopicKeys k = keys();
		return this.fixture.scripts()
			.run(DelayQueueScript.SWEEP, List.of(k.delayed(), k.ready(), k.running(), k.dead(), k.jobs(), k.attempts(),
					k.errors(), k.successors()), "1000", "5");
	}

}
