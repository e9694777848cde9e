package io.github.delayqueue.core;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.delayqueue.core.JobEvent.Type;
import io.github.delayqueue.store.DelayQueueKeys;
import io.github.delayqueue.store.DelayQueueScript;
import io.github.delayqueue.store.JobClaims;
import io.github.delayqueue.store.JobClaims.ClaimedJob;
import io.github.delayqueue.store.JobHistoryPolicy;
import io.github.delayqueue.store.TopicKeys;
import io.github.delayqueue.test.DelayQueueFixture;
import io.github.delayqueue.test.PartitionIds;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.ScanOptions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

/**
 * Job timelines: with a topic's {@code timeline} on, each step of a job is recorded, in
 * the script that takes it, with its Redis time, instance, attempt, due time and detail;
 * capped, expiring once the job is finished, gone with a purged dead job, written for a
 * whole batch at the cost of one job; with it off, nothing is written.
 */
@ExtendWith(RedisExtension.class)
class TimelineTests {

	private static final String TOPIC = "timelines";

	private static final String INSTANCE = "host-a:42";

	private static final JobHistoryPolicy ON = new JobHistoryPolicy(Duration.ZERO, 0).withTimeline(50);

	private static final Pattern CALLS = Pattern.compile("cmdstat_(\\w+):calls=(\\d+)");

	private RedisTestServer server;

	private DelayQueueFixture fixture;

	private DelayQueueKeys keys;

	private JobHistoryPolicy policy;

	private DelayQueueTemplate template;

	private DefaultDelayQueueAdmin admin;

	private JobClaims claims;

	private JobHistoryWiring wiring;

	@BeforeEach
	void setUp(RedisTestServer server) {
		this.server = server;
		server.flushAll();
		this.fixture = new DelayQueueFixture(server);
		use(this.fixture.keys(), ON);
	}

	@AfterEach
	void tearDown() {
		this.fixture.close();
	}

	@Test
	void recordsEveryStepOfAJobThatFailsOnceAndThenCompletes() {
		long before = this.fixture.redisTimeMillis();
		this.template.send(JobRequest.builder(TOPIC, "p").id("order-1").delay(Duration.ofMillis(30)).build());
		await().atMost(Duration.ofSeconds(5)).until(() -> sweep(TOPIC)[0] == 1);
		ClaimedJob first = claim();
		String error = "java.lang.IllegalStateException: partner down " + "x".repeat(400)
				+ "\n\tat com.example.Partner.call(Partner.java:12)";
		long retryDue = this.claims.retry(first, Duration.ZERO, error);
		ClaimedJob second = claim();
		assertThat(this.claims.ack(TOPIC, List.of(second))).containsExactly(true);

		List<JobEvent> timeline = this.admin.timeline(TOPIC, "order-1");

		assertThat(timeline).extracting(JobEvent::type)
			.containsExactly(Type.SENT, Type.READY, Type.CLAIMED, Type.FAILED, Type.RETRIED, Type.CLAIMED,
					Type.COMPLETED);
		assertThat(timeline).extracting(JobEvent::attempt).containsExactly(0, 0, 1, 1, 1, 2, 2);
		assertThat(timeline).extracting(JobEvent::instance)
			.containsExactly(INSTANCE, null, INSTANCE, INSTANCE, INSTANCE, INSTANCE, INSTANCE);
		assertThat(timeline).extracting(JobEvent::at).isSorted();
		assertThat(timeline.get(0).at()).isBetween(Instant.ofEpochMilli(before),
				Instant.ofEpochMilli(this.fixture.redisTimeMillis()));
		assertThat(timeline.get(0).dueAt()).isEqualTo(timeline.get(0).at().plusMillis(30));
		assertThat(timeline.get(4).dueAt()).isEqualTo(Instant.ofEpochMilli(retryDue));
		String detail = timeline.get(3).detail();
		assertThat(detail).startsWith("java.lang.IllegalStateException: partner down xxx").hasSize(200);
		assertThat(detail).doesNotContain("\n").doesNotContain("Partner.java");
		assertThat(timeline.get(1).dueAt()).isNull();
		assertThat(timeline.get(6).detail()).isNull();
	}

	@Test
	void recordsAReplacementWithItsNewDueTime() {
		this.template.send(JobRequest.builder(TOPIC, "v1").id("order-1").delay(Duration.ofHours(1)).build());
		this.template.send(JobRequest.builder(TOPIC, "v2")
			.id("order-1")
			.delay(Duration.ofHours(2))
			.ifPending(IfPending.REPLACE)
			.build());

		List<JobEvent> timeline = this.admin.timeline(TOPIC, "order-1");

		assertThat(timeline).extracting(JobEvent::type).containsExactly(Type.SENT, Type.REPLACED);
		JobEvent replaced = timeline.get(1);
		assertThat(replaced.instance()).isEqualTo(INSTANCE);
		assertThat(replaced.dueAt()).isEqualTo(replaced.at().plus(Duration.ofHours(2)));
		assertThat(expiresAt("order-1")).as("no expiry while pending").isNull();
	}

	@Test
	void aReplacementOfARunningJobTakesOverWhenTheDeliveryCompletesAndItsTimelineGoesOn() {
		send("order-1");
		ClaimedJob delivery = claim();
		this.template.send(JobRequest.builder(TOPIC, "v2").id("order-1").ifPending(IfPending.REPLACE).build());

		assertThat(this.claims.ack(TOPIC, List.of(delivery))).containsExactly(true);

		assertThat(this.admin.timeline(TOPIC, "order-1")).extracting(JobEvent::type)
			.containsExactly(Type.SENT, Type.CLAIMED, Type.REPLACED, Type.COMPLETED, Type.READY);
		assertThat(expiresAt("order-1")).as("the new version is pending").isNull();
		assertThat(claim().attempt()).isEqualTo(1);
	}

	@Test
	void recordsWhoCancelledAJob() {
		send("by-app");
		send("by-dashboard");

		assertThat(this.template.cancel(TOPIC, "by-app")).isTrue();
		assertThat(this.admin.actingAs(DefaultDelayQueueAdmin.DASHBOARD).cancel(TOPIC, "by-dashboard")).isTrue();

		assertThat(this.admin.timeline(TOPIC, "by-app")).extracting(JobEvent::type, JobEvent::detail)
			.containsExactly(tuple(Type.SENT, null), tuple(Type.CANCELLED, "api"));
		assertThat(this.admin.timeline(TOPIC, "by-dashboard")).last()
			.extracting(JobEvent::type, JobEvent::detail)
			.containsExactly(Type.CANCELLED, "dashboard");
	}

	@Test
	void recordsABurialAndWhoRequeuedTheDeadJob() {
		send("order-1");
		ClaimedJob delivery = claim();
		assertThat(this.claims.bury(delivery, "com.example.Fatal: no such order")).isTrue();

		assertThat(this.admin.actingAs(DefaultDelayQueueAdmin.ENDPOINT).requeueDead(TOPIC, "order-1")).isTrue();

		List<JobEvent> timeline = this.admin.timeline(TOPIC, "order-1");
		assertThat(timeline).extracting(JobEvent::type)
			.containsExactly(Type.SENT, Type.CLAIMED, Type.FAILED, Type.DEAD, Type.REQUEUED);
		assertThat(timeline.get(2).detail()).isEqualTo("com.example.Fatal: no such order");
		assertThat(timeline.get(4).detail()).isEqualTo("endpoint");
		assertThat(timeline.get(4).attempt()).isZero();
	}

	@Test
	void aDeadJobKeepsItsTimelineUntilPurged() {
		send("order-1");
		assertThat(this.claims.bury(claim(), "com.example.Fatal")).isTrue();
		assertThat(stored("order-1")).isNotNull();
		assertThat(expiresAt("order-1")).isNull();

		assertThat(this.admin.purgeDead(TOPIC, "order-1")).isTrue();

		assertThat(stored("order-1")).isNull();
		assertThat(this.admin.timeline(TOPIC, "order-1")).isEmpty();
	}

	@Test
	void recordsARescheduleAndARelease() {
		send("order-1");
		this.template.reschedule(TOPIC, "order-1", Duration.ZERO);
		ClaimedJob delivery = claim();
		assertThat(this.claims.release(delivery)).isTrue();

		List<JobEvent> timeline = this.admin.timeline(TOPIC, "order-1");

		assertThat(timeline).extracting(JobEvent::type)
			.containsExactly(Type.SENT, Type.RESCHEDULED, Type.CLAIMED, Type.RELEASED);
		assertThat(timeline.get(1).dueAt()).isEqualTo(timeline.get(1).at());
		assertThat(timeline.get(3).attempt()).isEqualTo(1);
	}

	@Test
	void keepsTheMostRecentEventsUpToTheCap() {
		use(this.keys, new JobHistoryPolicy(Duration.ZERO, 0).withTimeline(5));
		this.template.send(JobRequest.builder(TOPIC, "p").id("order-1").delay(Duration.ofHours(1)).build());
		for (int i = 1; i <= 10; i++) {
			this.template.reschedule(TOPIC, "order-1", Duration.ofHours(i));
		}

		List<JobEvent> timeline = this.admin.timeline(TOPIC, "order-1");

		assertThat(timeline).hasSize(5).extracting(JobEvent::type).containsOnly(Type.RESCHEDULED);
		assertThat(timeline.get(4).dueAt()).isEqualTo(timeline.get(4).at().plus(Duration.ofHours(10)));
	}

	@Test
	void aCompletedJobsTimelineExpiresAfterAnHourWhenTheTopicKeepsNoFinishedJob() {
		send("order-1");
		assertThat(this.claims.ack(TOPIC, List.of(claim()))).containsExactly(true);

		long ttl = expiresAt("order-1") - this.fixture.redisTimeMillis();

		assertThat(ttl).isBetween(3_590_000L, 3_600_000L);
	}

	@Test
	void aFinishedJobsTimelineExpiresWithTheCompletedRetention() {
		use(this.keys, new JobHistoryPolicy(Duration.ofMillis(300), 100).withTimeline(50));
		send("completed");
		send("cancelled");
		assertThat(this.claims.ack(TOPIC, List.of(claim()))).containsExactly(true);
		this.template.cancel(TOPIC, "cancelled");
		assertThat(this.admin.timeline(TOPIC, "completed")).last().extracting(JobEvent::type).isEqualTo(Type.COMPLETED);
		assertThat(this.admin.timeline(TOPIC, "cancelled")).last().extracting(JobEvent::type).isEqualTo(Type.CANCELLED);

		await().atMost(Duration.ofSeconds(10))
			.until(() -> this.admin.timeline(TOPIC, "completed").isEmpty()
					&& this.admin.timeline(TOPIC, "cancelled").isEmpty());
		assertThat(stored("completed")).as("read as gone before it is deleted").isNotNull();

		send("next");
		// The cancelled job's entry in the ready list is a ghost: a claim of one would
		// take it.
		List<ClaimedJob> next = this.claims.claim(TOPIC, null, 10, Duration.ofMinutes(1)).jobs();
		assertThat(next).extracting(ClaimedJob::id).containsExactly("next");
		assertThat(this.claims.ack(TOPIC, next)).containsExactly(true);

		assertThat(stored("completed")).as("deleted by the next completion").isNull();
		assertThat(stored("cancelled")).isNull();
		assertThat(stored("next")).isNotNull();
		assertThat(this.fixture.redis().opsForZSet().range(this.keys.topic(TOPIC).timelineEnds(), 0, -1))
			.containsExactly("next");
	}

	@Test
	void aNewJobWithTheIdOfAFinishedOneStartsANewTimelineThatOutlivesTheOldOnesEnd() {
		use(this.keys, new JobHistoryPolicy(Duration.ofMillis(200), 100).withTimeline(50));
		send("order-1");
		assertThat(this.claims.ack(TOPIC, List.of(claim()))).containsExactly(true);
		long oldEnd = expiresAt("order-1");

		this.template.send(JobRequest.builder(TOPIC, "p").id("order-1").delay(Duration.ofHours(1)).build());
		await().atMost(Duration.ofSeconds(10)).until(() -> this.fixture.redisTimeMillis() > oldEnd);
		send("other");
		assertThat(this.claims.ack(TOPIC, List.of(claim()))).containsExactly(true);

		assertThat(this.admin.timeline(TOPIC, "order-1")).extracting(JobEvent::type).containsExactly(Type.SENT);
		assertThat(expiresAt("order-1")).as("the stale end is dropped").isNull();
	}

	@Test
	void theStepsOfABatchCostNoMoreCommandsForFiveHundredJobsThanForOne() {
		long forOne = drainCommands(1, ON) - drainCommands(1, JobHistoryPolicy.OFF);
		long forMany = drainCommands(500, ON) - drainCommands(500, JobHistoryPolicy.OFF);
		// A few commands per call, whatever its batch holds: the calls read the clock
		// alike, but not always for the same reasons.
		assertThat(forMany).isPositive().isLessThanOrEqualTo(forOne);
		assertThat(forOne).isLessThanOrEqualTo(12);
	}

	@Test
	void aDetailKeepsItsEntryOnOneLine() {
		send("order-1");
		assertThat(this.admin.actingAs("ops\nteam").cancel(TOPIC, "order-1")).isTrue();

		assertThat(this.admin.timeline(TOPIC, "order-1")).extracting(JobEvent::type, JobEvent::detail)
			.containsExactly(tuple(Type.SENT, null), tuple(Type.CANCELLED, "ops team"));
	}

	@Test
	void recordsAnExpiredDeliveryThenItsRetryOrItsDeath() {
		this.template.send(JobRequest.builder(TOPIC, "p").id("retried").maxAttempts(2).build());
		this.template.send(JobRequest.builder(TOPIC, "dead").maxAttempts(1).id("dead").build());
		List<ClaimedJob> claimed = this.claims.claim(TOPIC, null, 2, Duration.ofMillis(20)).jobs();
		assertThat(claimed).hasSize(2);

		await().atMost(Duration.ofSeconds(5)).until(() -> {
			sweep(TOPIC);
			return this.admin.stats(TOPIC).running() == 0;
		});

		List<JobEvent> retried = this.admin.timeline(TOPIC, "retried");
		assertThat(retried).extracting(JobEvent::type)
			.containsExactly(Type.SENT, Type.CLAIMED, Type.EXPIRED, Type.RETRIED);
		assertThat(retried.get(2).attempt()).isEqualTo(1);
		assertThat(retried.get(2).instance()).isNull();
		assertThat(retried.get(3).dueAt()).isEqualTo(retried.get(3).at());
		assertThat(this.admin.timeline(TOPIC, "dead")).extracting(JobEvent::type)
			.containsExactly(Type.SENT, Type.CLAIMED, Type.EXPIRED, Type.DEAD);
	}

	@Test
	void readsTheTimelineOfAJobInAnyPartition() {
		DelayQueueKeys partitioned = new DelayQueueKeys(DelayQueueFixture.PREFIX, (topic) -> 4);
		use(partitioned, ON);
		List<String> ids = PartitionIds.onePerPartition(partitioned, TOPIC, 4);
		for (String id : ids) {
			send(id);
		}

		for (String id : ids) {
			String queue = partitioned.queueOf(TOPIC, id);
			assertThat(this.fixture.redis().opsForHash().hasKey(partitioned.topic(queue).timelines(), id)).isTrue();
			assertThat(this.admin.timeline(TOPIC, id)).extracting(JobEvent::type).containsExactly(Type.SENT);
		}
	}

	@Test
	void writesNoTimelineWhenOff() {
		use(this.keys, JobHistoryPolicy.OFF);
		this.template.send(JobRequest.builder(TOPIC, "p").id("delayed").delay(Duration.ofMillis(10)).build());
		await().atMost(Duration.ofSeconds(5)).until(() -> sweep(TOPIC)[0] == 1);
		ClaimedJob delivery = claim();
		this.claims.retry(delivery, Duration.ZERO, "java.lang.IllegalStateException: down");
		assertThat(this.claims.ack(TOPIC, List.of(claim()))).containsExactly(true);
		send("dead");
		this.claims.bury(claim(), "com.example.Fatal");
		this.admin.requeueDead(TOPIC, "dead");
		send("cancelled");
		this.template.cancel(TOPIC, "cancelled");

		assertThat(this.admin.timeline(TOPIC, "delayed")).isEmpty();
		assertThat(keysMatching("*}:timeline*")).isZero();
	}

	@Test
	void anActorIsNamed() {
		assertThat(this.admin.actor()).isEqualTo("api");
		assertThat(this.admin.actingAs("dashboard").actor()).isEqualTo("dashboard");
		assertThatIllegalArgumentException().isThrownBy(() -> this.admin.actingAs(" "));
		assertThatIllegalArgumentException().isThrownBy(() -> this.admin.actingAs("x".repeat(65)));
	}

	@Test
	void aTimelineEventTakesFewBytes() {
		use(this.keys, new JobHistoryPolicy(Duration.ZERO, 0).withTimeline(50));
		int jobs = 1000;
		List<JobRequest> requests = new ArrayList<>();
		for (int i = 0; i < jobs; i++) {
			requests.add(JobRequest.builder(TOPIC, "p").id("order-" + (100_000 + i)).build());
		}
		this.template.sendAll(requests);
		long sentBytes = timelineBytes(jobs);
		for (int done = 0; done < jobs;) {
			List<ClaimedJob> claimed = this.claims.claim(TOPIC, null, 500, Duration.ofMinutes(1)).jobs();
			for (ClaimedJob job : claimed) {
				this.claims.retry(job, Duration.ZERO, "java.lang.IllegalStateException: partner down");
			}
			done += claimed.size();
		}
		long bytes = timelineBytes(jobs);
		long events = 0;
		for (int i = 0; i < jobs; i++) {
			events += stored("order-" + (100_000 + i)).split("\n").length;
		}
		long perEvent = (bytes - sentBytes) / (3L * jobs);
		System.out.println("Bytes per timeline of 1 event: " + (sentBytes / jobs) + ", of 4 events: " + (bytes / jobs)
				+ ", per further event: " + perEvent);
		assertThat(events).isEqualTo(4L * jobs);
		assertThat(perEvent).isPositive().isLessThan(100);
	}

	private long timelineBytes(int jobs) {
		return this.fixture.memoryUsage(this.keys.topic(TOPIC).timelines());
	}

	// The commands Redis ran (inside scripts included) to send, claim and acknowledge a
	// batch of jobs.
	private long drainCommands(int jobs, JobHistoryPolicy policy) {
		this.server.flushAll();
		use(this.keys, policy);
		List<JobRequest> requests = new ArrayList<>();
		for (int i = 0; i < jobs; i++) {
			requests.add(JobRequest.builder(TOPIC, "p").id("batch-" + i).build());
		}
		this.server.command("CONFIG", "RESETSTAT");
		this.template.sendAll(requests);
		List<ClaimedJob> claimed = this.claims.claim(TOPIC, null, jobs, Duration.ofMinutes(1)).jobs();
		assertThat(claimed).hasSize(jobs);
		assertThat(this.claims.ack(TOPIC, claimed)).containsOnly(true);
		assertThat(this.admin.timeline(TOPIC, "batch-0")).hasSize(policy.timeline() ? 3 : 0);
		Matcher calls = CALLS.matcher(this.server.command("INFO", "commandstats"));
		long total = 0;
		while (calls.find()) {
			if (!calls.group(1).equals("info") && !calls.group(1).equals("config")) {
				total += Long.parseLong(calls.group(2));
			}
		}
		return total;
	}

	private @Nullable String stored(String id) {
		Object text = this.fixture.redis().opsForHash().get(this.keys.topic(TOPIC).timelines(), id);
		return (text != null) ? text.toString() : null;
	}

	private @Nullable Long expiresAt(String id) {
		Double score = this.fixture.redis().opsForZSet().score(this.keys.topic(TOPIC).timelineEnds(), id);
		return (score != null) ? score.longValue() : null;
	}

	private long keysMatching(String pattern) {
		long count = 0;
		try (Cursor<String> cursor = this.fixture.redis().scan(ScanOptions.scanOptions().match(pattern).build())) {
			while (cursor.hasNext()) {
				cursor.next();
				count++;
			}
		}
		return count;
	}

	// One sweep of a queue, as the scheduler runs it: {promoted, next due, requeued,
	// dead}.
	private long[] sweep(String queue) {
		TopicKeys k = this.keys.topic(queue);
		List<Object> reply = this.fixture.scripts()
			.run(DelayQueueScript.SWEEP, List.of(k.delayed(), k.ready(), k.running(), k.dead(), k.jobs(), k.attempts(),
					k.errors(), k.successors()), "100", "5", this.policy.timelineArgument(k, ""));
		return new long[] { (Long) reply.get(0), (Long) reply.get(1), (Long) reply.get(2), (Long) reply.get(3) };
	}

	private void use(DelayQueueKeys keys, JobHistoryPolicy policy) {
		this.keys = keys;
		this.policy = policy;
		this.wiring = JobHistoryWiring.of(this.fixture, keys, policy, INSTANCE);
		this.template = this.wiring.template();
		this.admin = this.wiring.admin();
		this.claims = this.wiring.claims();
	}

	private void send(String id) {
		this.wiring.send(TOPIC, id);
	}

	private ClaimedJob claim() {
		return this.wiring.claimOne(TOPIC);
	}

}
