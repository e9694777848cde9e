package io.github.delayqueue.reliability;

import java.time.Duration;
import java.util.List;

import io.github.delayqueue.core.DelayQueueTemplate;
import io.github.delayqueue.core.DuplicateJobException;
import io.github.delayqueue.core.JobRequest;
import io.github.delayqueue.core.JobState;
import io.github.delayqueue.internal.store.DelayQueueKeys;
import io.github.delayqueue.internal.store.JobClaims;
import io.github.delayqueue.internal.store.JobClaims.Claim;
import io.github.delayqueue.internal.store.JobClaims.ClaimedJob;
import io.github.delayqueue.internal.store.JobRecordCodec;
import io.github.delayqueue.internal.store.JobStore;
import io.github.delayqueue.internal.store.ReadyWait;
import io.github.delayqueue.internal.store.ScriptRunner;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import io.github.delayqueue.test.ReplyDroppingProxy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.tuple;

/**
 * Redis runs a send, but its reply is lost with the connection. Lettuce reconnects and
 * sends the unanswered call again, so Redis runs it twice; the queue must still hold the
 * job once.
 */
@ExtendWith(RedisExtension.class)
class LostReplyTests {

	private static final String JOBS = "{dq:orders}:jobs";

	private ReplyDroppingProxy proxy;

	private LettuceConnectionFactory connectionFactory;

	private StringRedisTemplate redis;

	private DelayQueueTemplate template;

	private JobClaims claims;

	@BeforeEach
	void setUp(RedisTestServer server) {
		server.flushAll();
		this.proxy = ReplyDroppingProxy.start(server);
		this.connectionFactory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration("127.0.0.1", this.proxy.port()));
		this.connectionFactory.afterPropertiesSet();
		this.connectionFactory.start();
		this.redis = new StringRedisTemplate(this.connectionFactory);
		this.redis.afterPropertiesSet();
		JsonMapper jsonMapper = JsonMapper.builder().build();
		JobRecordCodec codec = new JobRecordCodec(jsonMapper);
		ScriptRunner scripts = new ScriptRunner(this.redis);
		this.template = new DelayQueueTemplate(new JobStore(scripts, new DelayQueueKeys("dq"), codec), codec,
				jsonMapper);
		this.claims = new JobClaims(scripts, new DelayQueueKeys("dq"));
		// Loads the script and registers the topic, so that the next reply is the send's.
		this.template.send("orders", "warm-up", Duration.ofHours(1));
	}

	@AfterEach
	void tearDown() throws Exception {
		this.connectionFactory.destroy();
		this.proxy.close();
	}

	@Test
	void holdsAJobWithAGeneratedIdOnceWhenItsSendRanTwice() {
		this.proxy.dropNextReplyAndDisconnect();

		String id = this.template.send("orders", "lost reply", Duration.ofHours(1));

		assertThat(this.proxy.droppedReplies()).isEqualTo(1);
		assertThat(this.proxy.connections()).isEqualTo(2);
		assertThat(this.redis.opsForHash().size(JOBS)).isEqualTo(2);
		assertThat(this.template.find("orders", id).orElseThrow().payloadJson()).isEqualTo("\"lost reply\"");
	}

	@Test
	void holdsABatchOnceWhenItsSendRanTwice() {
		this.proxy.dropNextReplyAndDisconnect();

		List<String> ids = this.template.sendAll(List.of(JobRequest.builder("orders", "a").build(),
				JobRequest.builder("orders", "b").delay(Duration.ofHours(1)).build(),
				JobRequest.builder("orders", "c").delay(Duration.ofHours(2)).build()));

		assertThat(this.proxy.droppedReplies()).isEqualTo(1);
		assertThat(this.redis.opsForHash().size(JOBS)).isEqualTo(4);
		assertThat(ids).allSatisfy((id) -> assertThat(this.template.find("orders", id)).isPresent());
		assertThat(this.redis.opsForList().range("{dq:orders}:ready", 0, -1)).containsExactly(ids.get(0));
	}

	@Test
	void handsOverTheJobsOfTheFirstRunWhenAClaimRanTwice() {
		// Loads the script: the lost reply must be the claim's, not a NOSCRIPT error.
		assertThat(this.claims.claim("orders", null, 2, Duration.ofMinutes(1)).jobs()).isEmpty();
		for (String id : List.of("a", "b", "c")) {
			this.template.send(JobRequest.builder("orders", id).id(id).build());
		}
		this.proxy.dropNextReplyAndDisconnect();

		Claim claim = this.claims.claim("orders", null, 2, Duration.ofMinutes(1));

		assertThat(this.proxy.droppedReplies()).isEqualTo(1);
		assertThat(claim.jobs()).extracting(ClaimedJob::id).containsExactly("a", "b");
		assertThat(claim.jobs()).extracting(ClaimedJob::attempt).containsExactly(1, 1);
		assertThat(this.redis.opsForZSet().range("{dq:orders}:running", 0, -1)).containsExactlyInAnyOrder("a", "b");
		assertThat(this.redis.opsForList().range("{dq:orders}:ready", 0, -1)).containsExactly("c");
		// The next claim is a new call: it takes what is left.
		assertThat(this.claims.claim("orders", null, 2, Duration.ofMinutes(1)).jobs()).extracting(ClaimedJob::id)
			.containsExactly("c");
	}

	@Test
	void handsOverTheJobAConsumerMovedWhenItsClaimRanTwice() {
		assertThat(this.claims.claim("orders", null, 2, Duration.ofMinutes(1)).jobs()).isEmpty();
		this.template.send(JobRequest.builder("orders", "a").id("a").build());
		String moved;
		try (ReadyWait wait = this.claims.openReadyWait()) {
			moved = wait.awaitReady("orders", Duration.ofSeconds(5));
		}
		assertThat(moved).isEqualTo("a");
		this.proxy.dropNextReplyAndDisconnect();

		Claim claim = this.claims.claim("orders", moved, 0, Duration.ofMinutes(1));

		assertThat(this.proxy.droppedReplies()).isEqualTo(1);
		assertThat(claim.jobs()).extracting(ClaimedJob::id, ClaimedJob::attempt).containsExactly(tuple("a", 1));
		assertThat(this.redis.opsForList().size("{dq:orders}:claiming")).isZero();
	}

	@Test
	void reportsAnAcknowledgementDoneWhenItRanTwice() {
		Claim claim = claimOne("acked");
		ClaimedJob job = claim.jobs().get(0);
		long deadline = claim.redisNow() + Duration.ofMinutes(1).toMillis();
		// Loads the script: the lost reply must be the acknowledgement's.
		assertThat(this.claims.ack("orders", List.of())).isEmpty();
		this.proxy.dropNextReplyAndDisconnect();

		boolean[] acknowledged = this.claims.ack("orders", List.of(job), new long[] { deadline });

		assertThat(this.proxy.droppedReplies()).isEqualTo(1);
		assertThat(acknowledged).containsExactly(true);
		assertThat(this.template.find("orders", "acked")).isEmpty();
	}

	@Test
	void reportsARetryScheduledWhenItRanTwice() {
		Claim claim = claimOne("retried");
		ClaimedJob job = claim.jobs().get(0);
		long deadline = claim.redisNow() + Duration.ofMinutes(1).toMillis();
		assertThat(this.claims.retry(new ClaimedJob("orders", "orders", "none", 1, ""), Duration.ZERO, "loads", -1))
			.isEqualTo(-1);
		this.proxy.dropNextReplyAndDisconnect();

		long due = this.claims.retry(job, Duration.ofMinutes(5), "boom", deadline);

		assertThat(this.proxy.droppedReplies()).isEqualTo(1);
		assertThat(due).isGreaterThan(claim.redisNow() + Duration.ofMinutes(4).toMillis());
		assertThat(this.template.find("orders", "retried").orElseThrow().dueAt().toEpochMilli()).isEqualTo(due);
	}

	@Test
	void reportsABurialDoneWhenItRanTwice() {
		Claim claim = claimOne("buried");
		ClaimedJob job = claim.jobs().get(0);
		long deadline = claim.redisNow() + Duration.ofMinutes(1).toMillis();
		assertThat(this.claims.bury(new ClaimedJob("orders", "orders", "none", 1, ""), "loads", -1)).isFalse();
		this.proxy.dropNextReplyAndDisconnect();

		boolean buried = this.claims.bury(job, "boom", deadline);

		assertThat(this.proxy.droppedReplies()).isEqualTo(1);
		assertThat(buried).isTrue();
		assertThat(this.template.find("orders", "buried").orElseThrow().state()).isEqualTo(JobState.DEAD);
	}

	@Test
	void stillFencesASettlementOfADeliveryWhoseDeadlinePassed() {
		Claim claim = claimOne("late");
		ClaimedJob job = claim.jobs().get(0);
		// Delivered again: the first delivery is fenced, whatever the caller believes its
		// deadline to be, once that deadline passed.
		this.redis.opsForZSet().add("{dq:orders}:running", "late", 0);
		this.redis.opsForHash().put("{dq:orders}:attempts", "late", "2");

		assertThat(this.claims.ack("orders", List.of(job), new long[] { claim.redisNow() - 1 })).containsExactly(false);
		assertThat(this.claims.retry(job, Duration.ZERO, "boom", claim.redisNow() - 1)).isEqualTo(-1);
		assertThat(this.claims.bury(job, "boom", claim.redisNow() - 1)).isFalse();
		assertThat(this.template.find("orders", "late").orElseThrow().state()).isEqualTo(JobState.RUNNING);
	}

	private Claim claimOne(String id) {
		this.template.send(JobRequest.builder("orders", id).id(id).build());
		Claim claim = this.claims.claim("orders", null, 1, Duration.ofMinutes(1));
		assertThat(claim.jobs()).extracting(ClaimedJob::id).containsExactly(id);
		return claim;
	}

	@Test
	void refusesACallersOwnIdWhenItsSendRanTwiceButHoldsTheJobOnceAsSent() {
		this.proxy.dropNextReplyAndDisconnect();

		// The caller's id may be sent by anyone, so a second run cannot be told from a
		// second sender: the refusal is what a duplicate gets, and the job is the one
		// sent.
		assertThatExceptionOfType(DuplicateJobException.class).isThrownBy(() -> this.template
			.send(JobRequest.builder("orders", "lost reply").id("order-7").delay(Duration.ofHours(1)).build()));

		assertThat(this.proxy.droppedReplies()).isEqualTo(1);
		assertThat(this.redis.opsForHash().size(JOBS)).isEqualTo(2);
		assertThat(this.template.find("orders", "order-7").orElseThrow().payloadJson()).isEqualTo("\"lost reply\"");
	}

}
