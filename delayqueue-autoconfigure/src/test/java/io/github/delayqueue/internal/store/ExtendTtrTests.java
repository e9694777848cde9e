package io.github.delayqueue.internal.store;

import java.time.Duration;
import java.util.List;

import io.github.delayqueue.core.JobRequest;
import io.github.delayqueue.internal.store.JobClaims.ClaimedJob;
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
 * Extending a delivery's time to run against a real Redis: the deadline moves on the
 * Redis clock, only later, and only for the delivery that holds the job.
 */
@ExtendWith(RedisExtension.class)
class ExtendTtrTests {

	private DelayQueueFixture fixture;

	private JobClaims claims;

	@BeforeEach
	void setUp(RedisTestServer server) {
		server.flushAll();
		this.fixture = new DelayQueueFixture(server);
		this.claims = new JobClaims(this.fixture.scripts(), this.fixture.keys());
	}

	@AfterEach
	void tearDown() {
		this.fixture.close();
	}

	@Test
	void movesTheDeadlineToTheTimeToRunFromNowByTheRedisClock() {
		ClaimedJob job = claimOne("lease", Duration.ofSeconds(1));
		long before = this.fixture.redisTimeMillis();
		long deadline = this.claims.extendTtr(job, Duration.ofMinutes(5));
		long after = this.fixture.redisTimeMillis();
		assertThat(deadline).isBetween(before + 300_000, after + 300_000);
		assertThat(runningScore("lease", job.id())).isEqualTo(deadline);
	}

	@Test
	void neverShortensTheTimeToRunAlreadyGranted() {
		ClaimedJob job = claimOne("lease", Duration.ofMinutes(10));
		long granted = runningScore("lease", job.id());
		assertThat(this.claims.extendTtr(job, Duration.ofMillis(1))).isEqualTo(granted);
		assertThat(runningScore("lease", job.id())).isEqualTo(granted);
	}

	@Test
	void refusesAnExtensionOnceTheDeadlineHasPassedEvenBeforeTheJobIsDeliveredAgain() {
		ClaimedJob job = claimOne("lease", Duration.ofMillis(100));
		long deadline = runningScore("lease", job.id());
		await().atMost(Duration.ofSeconds(5)).until(() -> this.fixture.redisTimeMillis() > deadline);
		assertThat(this.claims.extendTtr(job, Duration.ofMinutes(5))).isEqualTo(-1);
		assertThat(runningScore("lease", job.id())).isEqualTo(deadline);
	}

	@Test
	void refusesAnExtensionForAnEarlierDeliveryOfTheJob() {
		ClaimedJob first = claimOne("lease", Duration.ofMinutes(1));
		assertThat(this.claims.release(first)).isTrue();
		this.fixture.redis().opsForHash().put("{dq:lease}:attempts", first.id(), "1");
		ClaimedJob second = this.claims.claim("lease", null, 1, Duration.ofMinutes(1)).jobs().get(0);
		assertThat(second.attempt()).isEqualTo(2);
		long granted = runningScore("lease", first.id());
		assertThat(this.claims.extendTtr(first, Duration.ofMinutes(5))).isEqualTo(-1);
		assertThat(runningScore("lease", first.id())).isEqualTo(granted);
		assertThat(this.claims.extendTtr(second, Duration.ofMinutes(5))).isGreaterThan(granted);
	}

	@Test
	void refusesAnExtensionForAJobThatIsNoLongerRunning() {
		ClaimedJob job = claimOne("lease", Duration.ofMinutes(1));
		assertThat(this.claims.ack("lease", List.of(job))).containsExactly(true);
		assertThat(this.claims.extendTtr(job, Duration.ofMinutes(5))).isEqualTo(-1);
		assertThat(this.fixture.redis().opsForZSet().size("{dq:lease}:running")).isZero();
	}

	private ClaimedJob claimOne(String topic, Duration ttr) {
		this.fixture.template().send(JobRequest.builder(topic, "work").build());
		return this.claims.claim(topic, null, 1, ttr).jobs().get(0);
	}

	private long runningScore(String topic, String id) {
		Double score = this.fixture.redis().opsForZSet().score("{dq:" + topic + "}:running", id);
		assertThat(score).isNotNull();
		return score.longValue();
	}

}
