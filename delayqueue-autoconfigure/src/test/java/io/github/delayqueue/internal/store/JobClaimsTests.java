package io.github.delayqueue.internal.store;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueTemplate;
import io.github.delayqueue.core.JobRequest;
import io.github.delayqueue.core.JobState;
import io.github.delayqueue.core.TopicStats;
import io.github.delayqueue.internal.store.JobClaims.Claim;
import io.github.delayqueue.internal.store.JobClaims.ClaimedJob;
import io.github.delayqueue.test.DelayQueueFixture;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Claims and batched acknowledgements against a real Redis: every delivery of a batch is
 * counted and fenced on its own.
 */
@ExtendWith(RedisExtension.class)
class JobClaimsTests {

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
	void claimsReadyJobsOldestFirstCountingEachDeliveryAndSettingItsDeadline() {
		List<String> ids = sendReady("batch", 5);
		Claim claim = this.claims.claim("batch", null, 3, Duration.ofSeconds(30));
		assertThat(claim.jobs()).extracting(ClaimedJob::id).containsExactlyElementsOf(ids.subList(0, 3));
		assertThat(claim.jobs()).extracting(ClaimedJob::attempt).containsOnly(1);
		for (ClaimedJob job : claim.jobs()) {
			assertThat(this.fixture.redis().opsForZSet().score("{dq:batch}:running", job.id()))
				.isEqualTo((double) (claim.redisNow() + 30_000));
		}
		assertThat(this.fixture.redis().opsForList().size("{dq:batch}:ready")).isEqualTo(2);
	}

	@Test
	void countsAnotherDeliveryOfAJobThatWasHandedBack() {
		String id = sendReady("again", 1).get(0);
		ClaimedJob first = this.claims.claim("again", null, 1, Duration.ofSeconds(30)).jobs().get(0);
		assertThat(this.claims.release(first)).isTrue();
		this.fixture.redis().opsForHash().put("{dq:again}:attempts", id, "4");
		ClaimedJob second = this.claims.claim("again", null, 1, Duration.ofSeconds(30)).jobs().get(0);
		assertThat(second.id()).isEqualTo(id);
		assertThat(second.attempt()).isEqualTo(5);
	}

	@Test
	void marksIdsWhoseRecordVanishedAndForgetsTheirAttempts() {
		List<String> ids = sendReady("vanished", 2);
		this.fixture.redis().opsForHash().delete("{dq:vanished}:jobs", ids.get(0));
		this.fixture.redis().opsForHash().put("{dq:vanished}:attempts", ids.get(0), "2");
		List<ClaimedJob> jobs = this.claims.claim("vanished", null, 2, Duration.ofSeconds(30)).jobs();
		assertThat(jobs).extracting(ClaimedJob::attempt).containsExactly(-1, 1);
		assertThat(this.fixture.redis().opsForHash().hasKey("{dq:vanished}:attempts", ids.get(0))).isFalse();
		assertThat(this.fixture.redis().opsForZSet().score("{dq:vanished}:running", ids.get(0))).isNull();
	}

	@Test
	void acknowledgesABatchAndFencesOnlyTheStaleDelivery() {
		sendReady("acks", 4);
		List<ClaimedJob> jobs = new ArrayList<>(this.claims.claim("acks", null, 4, Duration.ofSeconds(30)).jobs());
		ClaimedJob stale = jobs.get(1);
		jobs.set(1, new ClaimedJob(stale.topic(), stale.queue(), stale.id(), stale.attempt() + 1, stale.record()));
		boolean[] acknowledged = this.claims.ack("acks", jobs);
		assertThat(acknowledged).containsExactly(true, false, true, true);
		assertThat(this.fixture.redis().opsForHash().keys("{dq:acks}:jobs")).containsExactly(stale.id());
		assertThat(this.fixture.redis().opsForZSet().range("{dq:acks}:running", 0, -1)).containsExactly(stale.id());
		assertThat(this.fixture.redis().opsForHash().keys("{dq:acks}:attempts")).containsExactly(stale.id());
		assertThat(this.template.find("acks", stale.id()).orElseThrow().state()).isEqualTo(JobState.RUNNING);
	}

	@Test
	void fencesTheAcknowledgementOfADeliveryThatWentBackToReady() {
		sendReady("expired", 1);
		ClaimedJob job = this.claims.claim("expired", null, 1, Duration.ofSeconds(30)).jobs().get(0);
		assertThat(this.claims.release(job)).isTrue();
		this.fixture.redis().opsForHash().put("{dq:expired}:attempts", job.id(), String.valueOf(job.attempt()));
		assertThat(this.claims.ack("expired", List.of(job))).containsExactly(false);
		assertThat(this.template.find("expired", job.id()).orElseThrow().state()).isEqualTo(JobState.READY);
	}

	@Test
	void refusesABatchThatMixesTopicsBeforeWritingAnything() {
		sendReady("left", 1);
		sendReady("right", 1);
		ClaimedJob left = this.claims.claim("left", null, 1, Duration.ofSeconds(30)).jobs().get(0);
		ClaimedJob right = this.claims.claim("right", null, 1, Duration.ofSeconds(30)).jobs().get(0);
		assertThatIllegalArgumentException().isThrownBy(() -> this.claims.ack("left", List.of(left, right)))
			.withMessageContaining(right.id())
			.withMessageContaining("'right'");
		assertThat(this.template.find("left", left.id()).orElseThrow().state()).isEqualTo(JobState.RUNNING);
	}

	@Test
	void takesAtMostAThousandJobsPerClaimAndLosesNoneOfALargerRequest() {
		List<JobRequest> requests = new ArrayList<>();
		for (int i = 0; i < 5000; i++) {
			requests.add(JobRequest.builder("many", "job-" + i).build());
		}
		this.template.sendAll(requests);

		assertThat(this.claims.claim("many", null, 5000, Duration.ofSeconds(30)).jobs())
			.hasSize(JobClaims.MAX_CLAIM_BATCH);
		// The script holds to the same bound when asked for more: Lua could not pass
		// thousands of ids on, and failing after its pop would lose them.
		TopicKeys keys = this.fixture.keys().topic("many");
		List<Object> reply = this.fixture.scripts()
			.run(DelayQueueScript.CLAIM, List.of(keys.ready(), keys.claiming(), keys.running(), keys.jobs(),
					keys.attempts(), keys.claimReceipt("direct"), keys.ghosts()), "", "5000", "30000", "call-1");
		assertThat((reply.size() - 1) / 3).isEqualTo(1000);
		TopicStats stats = this.admin.stats("many");
		assertThat(stats.running()).isEqualTo(2000);
		assertThat(stats.ready()).isEqualTo(3000);
	}

	@Test
	void claimsNothingOfAPausedTopicAndPutsAMovedIdBackWhereItWas() {
		List<String> ids = sendReady("paused", 3);
		TopicKeys keys = this.fixture.keys().topic("paused");
		// As a waiter's blocking move does: the oldest id goes to the claiming list.
		String moved = this.fixture.redis().opsForList().rightPopAndLeftPush(keys.ready(), keys.claiming());
		assertThat(moved).isEqualTo(ids.get(0));
		this.admin.pause("paused");

		Claim claim = this.claims.claim("paused", moved, 10, Duration.ofSeconds(30));
		assertThat(claim.paused()).isTrue();
		assertThat(claim.jobs()).isEmpty();
		assertThat(this.fixture.redis().opsForList().range(keys.claiming(), 0, -1)).isEmpty();
		// Consumed from the right: the moved id is next again, ahead of the others.
		assertThat(this.fixture.redis().opsForList().range(keys.ready(), 0, -1)).containsExactly(ids.get(2), ids.get(1),
				ids.get(0));
		assertThat(this.template.find("paused", moved).orElseThrow().attempts()).isZero();
		assertThat(this.admin.stats("paused").ready()).isEqualTo(3);

		this.admin.resume("paused");
		Claim resumed = this.claims.claim("paused", null, 10, Duration.ofSeconds(30));
		assertThat(resumed.paused()).isFalse();
		assertThat(resumed.jobs()).extracting(ClaimedJob::id).containsExactlyElementsOf(ids);
	}

	private List<String> sendReady(String topic, int count) {
		List<String> ids = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			ids.add(this.template.send(topic, "job-" + i));
		}
		return ids;
	}

}
