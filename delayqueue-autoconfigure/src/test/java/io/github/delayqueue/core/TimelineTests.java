package io.github.delayqueue.core;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.github.delayqueue.core.JobEvent.Type;
import io.github.delayqueue.internal.store.DelayQueueKeys;
import io.github.delayqueue.internal.store.DelayQueueScript;
import io.github.delayqueue.internal.store.JobClaims;
import io.github.delayqueue.internal.store.JobClaims.ClaimedJob;
import io.github.delayqueue.internal.store.JobHistoryPolicy;
import io.github.delayqueue.internal.store.TopicKeys;
import io.github.delayqueue.test.DelayQueueFixture;
import io.github.delayqueue.test.PartitionIds;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
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
 * the script that takes it, with its Redis time, instance, attempt, due time and detail:
 * in the queue's step log, one element per call for a batch of jobs, and the steps a job
 * may outlive the log with in its own list; capped, expiring once the job is finished,
 * gone with a purged dead job; with it off, nothing is written.
 */
@ExtendWith(RedisExtension.class)
class TimelineTests {

	private static final String TOPIC = "timelines";

	private static final String INSTANCE = "host-a:42";

	private static final JobHistoryPolicy ON = new JobHistoryPolicy(Duration.ZERO, 0).withTimeline(50);

	private DelayQueueFixture fixture;

	private DelayQueueKeys keys;

	private JobHistoryPolicy policy;

	private DelayQueueTemplate template;

	private DefaultDelayQueueAdmin admin;

	private JobClaims claims;

	private JobHistoryWiring wiring;

	@BeforeEach
	void setUp(RedisTestServer server) {
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
	void aBatchOfJobsWithDifferentDueTimesAndAttemptsRecordsEachJobsOwn() {
		this.template.sendAll(List.of(JobRequest.builder(TOPIC, "p").id("order-1").build(),
				JobRequest.builder(TOPIC, "p").id("order-2").delay(Duration.ofMinutes(5)).build(),
				JobRequest.builder(TOPIC, "p").id("order-3").build()));
		ClaimedJob first = claim();
		this.claims.retry(first, Duration.ZERO, "java.lang.IllegalStateException: partner down");
		List<ClaimedJob> both = this.claims.claim(TOPIC, null, 10, Duration.ofMinutes(1)).jobs();
		assertThat(both).extracting(ClaimedJob::attempt).containsExactlyInAnyOrder(1, 2);
		assertThat(this.claims.ack(TOPIC, both)).containsExactly(true, true);

		String retried = first.id();
		String once = first.id().equals("order-1") ? "order-3" : "order-1";
		assertThat(this.admin.timeline(TOPIC, retried)).extracting(JobEvent::type, JobEvent::attempt)
			.containsExactly(tuple(Type.SENT, 0), tuple(Type.CLAIMED, 1), tuple(Type.FAILED, 1), tuple(Type.RETRIED, 1),
					tuple(Type.CLAIMED, 2), tuple(Type.COMPLETED, 2));
		assertThat(this.admin.timeline(TOPIC, once)).extracting(JobEvent::type, JobEvent::attempt)
			.containsExactly(tuple(Type.SENT, 0), tuple(Type.CLAIMED, 1), tuple(Type.COMPLETED, 1));
		List<JobEvent> later = this.admin.timeline(TOPIC, "order-2");
		assertThat(later).extracting(JobEvent::type).containsExactly(Type.SENT);
		assertThat(later.get(0).dueAt()).isEqualTo(later.get(0).at().plus(Duration.ofMinutes(5)));
		assertThat(this.admin.timeline(TOPIC, once).get(0).dueAt())
			.isEqualTo(this.admin.timeline(TOPIC, once).get(0).at());
		TopicKeys k = this.keys.topic(TOPIC);
		assertThat(this.fixture.redis().getExpire(k.timeline(retried))).as("the list of a job that failed expires")
			.isPositive();
		assertThat(this.fixture.redis().hasKey(k.timeline(once))).isFalse();
		assertThat(this.fixture.redis().opsForSet().members(k.timelinePrefix() + "/lists"))
			.as("jobs with a list that does not expire yet")
			.isNullOrEmpty();
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
		assertThat(this.fixture.redis().getExpire(this.keys.topic(TOPIC).timeline("order-1")))
			.as("no expiry while pending")
			.isEqualTo(-1);
	}

	@Test
	void aReplacementOfARunningJobTakesOverWhenTheDeliveryCompletesAndItsTimelineGoesOn() {
		send("order-1");
		ClaimedJob delivery = claim();
		this.template.send(JobRequest.builder(TOPIC, "v2").id("order-1").ifPending(IfPending.REPLACE).build());

		assertThat(this.claims.ack(TOPIC, List.of(delivery))).containsExactly(true);

		assertThat(this.admin.timeline(TOPIC, "order-1")).extracting(JobEvent::type)
			.containsExactly(Type.SENT, Type.CLAIMED, Type.REPLACED, Type.COMPLETED, Type.READY);
		assertThat(this.fixture.redis().getExpire(this.keys.topic(TOPIC).timeline("order-1")))
			.as("the new version is pending")
			.isEqualTo(-1);
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
		String key = this.keys.topic(TOPIC).timeline("order-1");
		String listSet = this.keys.topic(TOPIC).timelinePrefix() + "/lists";
		assertThat(this.fixture.redis().getExpire(key)).isEqualTo(-1);
		assertThat(this.fixture.redis().opsForSet().isMember(listSet, "order-1")).isTrue();

		assertThat(this.admin.purgeDead(TOPIC, "order-1")).isTrue();

		assertThat(this.fixture.redis().hasKey(key)).isFalse();
		assertThat(this.fixture.redis().opsForSet().isMember(listSet, "order-1")).isFalse();
		assertThat(this.admin.timeline(TOPIC, "order-1")).isEmpty();
	}

	@Test
	void aJobSentAgainAfterItsDeadJobWasPurgedStartsANewTimeline() {
		send("order-1");
		assertThat(this.claims.bury(claim(), "com.example.Fatal")).isTrue();
		assertThat(this.admin.purgeDead(TOPIC, "order-1")).isTrue();
		assertThat(this.admin.timeline(TOPIC, "order-1")).isEmpty();

		send("order-1");

		assertThat(this.admin.timeline(TOPIC, "order-1")).extracting(JobEvent::type).containsExactly(Type.SENT);
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
	void aCompletedJobsStepsLastTwoHoursInTheLogWhenTheTopicKeepsNoFinishedJob() {
		send("order-1");
		assertThat(this.claims.ack(TOPIC, List.of(claim()))).containsExactly(true);

		assertThat(this.fixture.redis().hasKey(this.keys.topic(TOPIC).timeline("order-1")))
			.as("sent, claimed and completed are in the step log only")
			.isFalse();
		List<String> slots = logSlots(this.keys.topic(TOPIC));
		assertThat(slots).isNotEmpty();
		for (String slot : slots) {
			// Twice the hour, from the end of a slot of a minute.
			assertThat(this.fixture.redis().getExpire(slot)).isBetween(7190L, 7260L);
		}
		assertThat(this.admin.timeline(TOPIC, "order-1")).extracting(JobEvent::type)
			.containsExactly(Type.SENT, Type.CLAIMED, Type.COMPLETED);
	}

	@Test
	void aCompletedJobsOwnListExpiresAfterAnHour() {
		send("order-1");
		this.claims.retry(claim(), Duration.ZERO, "java.lang.IllegalStateException: down");
		String list = this.keys.topic(TOPIC).timeline("order-1");
		assertThat(this.fixture.redis().getExpire(list)).as("pending").isEqualTo(-1);

		assertThat(this.claims.ack(TOPIC, List.of(claim()))).containsExactly(true);

		assertThat(this.fixture.redis().getExpire(list)).isBetween(3590L, 3600L);
	}

	@Test
	void stepsTheLogNoLongerHoldsComeFromTheJobsList() {
		this.template.send(JobRequest.builder(TOPIC, "p").id("order-1").delay(Duration.ofDays(3)).build());
		this.template.reschedule(TOPIC, "order-1", Duration.ZERO);
		ClaimedJob delivery = claim();
		this.claims.retry(delivery, Duration.ofDays(1), "java.lang.IllegalStateException: down");
		List<JobEvent> whole = this.admin.timeline(TOPIC, "order-1");
		assertThat(whole).extracting(JobEvent::type)
			.containsExactly(Type.SENT, Type.RESCHEDULED, Type.CLAIMED, Type.FAILED, Type.RETRIED);

		// As when the log's slots expired: a job waiting for days outlives them.
		for (String slot : logSlots(this.keys.topic(TOPIC))) {
			this.fixture.redis().delete(slot);
		}

		assertThat(this.admin.timeline(TOPIC, "order-1")).extracting(JobEvent::type)
			.containsExactly(Type.SENT, Type.RESCHEDULED, Type.FAILED, Type.RETRIED);
		assertThat(this.admin.timeline(TOPIC, "order-1").get(0)).isEqualTo(whole.get(0));
	}

	@Test
	void readsALongLogInSeveralCalls() {
		// A send is one element of the log: three times what one reading call takes
		// (200).
		int jobs = 617;
		for (int i = 0; i < jobs; i++) {
			send("order-" + i);
		}
		List<ClaimedJob> claimed = this.claims.claim(TOPIC, null, jobs, Duration.ofMinutes(1)).jobs();
		assertThat(claimed).hasSize(jobs);
		assertThat(this.claims.ack(TOPIC, claimed)).hasSize(jobs).containsOnly(true);

		for (String id : List.of("order-0", "order-" + (jobs / 2), "order-" + (jobs - 1))) {
			assertThat(this.admin.timeline(TOPIC, id)).as(id)
				.extracting(JobEvent::type)
				.containsExactly(Type.SENT, Type.CLAIMED, Type.COMPLETED);
		}
		// An id found inside other ids is not theirs.
		assertThat(this.admin.timeline(TOPIC, "order-1")).hasSize(3);
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
	}

	@Test
	void aNewJobWithTheIdOfAFinishedOneStartsANewTimeline() {
		send("order-1");
		assertThat(this.claims.ack(TOPIC, List.of(claim()))).containsExactly(true);

		send("order-1");

		assertThat(this.admin.timeline(TOPIC, "order-1")).extracting(JobEvent::type).containsExactly(Type.SENT);
	}

	@Test
	void aNewJobWithTheIdOfAFinishedOneThatFailedStartsANewTimeline() {
		send("order-1");
		this.claims.retry(claim(), Duration.ZERO, "java.lang.IllegalStateException: down");
		assertThat(this.claims.ack(TOPIC, List.of(claim()))).containsExactly(true);

		send("order-1");

		assertThat(this.admin.timeline(TOPIC, "order-1")).extracting(JobEvent::type).containsExactly(Type.SENT);
		assertThat(this.fixture.redis().hasKey(this.keys.topic(TOPIC).timeline("order-1")))
			.as("the finished job's list is gone")
			.isFalse();
	}

	@Test
	void aBatchWritesItsSentStepsInOneLogElementAndStartsANewTimelineForEachJob() {
		send("order-1");
		this.claims.retry(claim(), Duration.ZERO, "java.lang.IllegalStateException: down");
		assertThat(this.claims.ack(TOPIC, List.of(claim()))).containsExactly(true);
		TopicKeys k = this.keys.topic(TOPIC);
		assertThat(this.fixture.redis().hasKey(k.timeline("order-1"))).as("the finished job has a list").isTrue();
		long before = logElements(k);

		this.template.sendAll(List.of(JobRequest.builder(TOPIC, "p").id("order-1").build(),
				JobRequest.builder(TOPIC, "p").id("order-2").delay(Duration.ofDays(3)).build(),
				JobRequest.builder(TOPIC, "p").id("order-3").delay(Duration.ofMinutes(5)).build()));

		assertThat(logElements(k) - before).as("one log element for the batch's steps").isEqualTo(1);
		for (String id : List.of("order-1", "order-2", "order-3")) {
			assertThat(this.admin.timeline(TOPIC, id)).as(id).extracting(JobEvent::type).containsExactly(Type.SENT);
		}
		assertThat(this.admin.timeline(TOPIC, "order-2").get(0).dueAt())
			.isEqualTo(this.admin.timeline(TOPIC, "order-2").get(0).at().plus(Duration.ofDays(3)));
		assertThat(this.fixture.redis().hasKey(k.timeline("order-1"))).as("the finished job's list is gone").isFalse();
		assertThat(this.fixture.redis().hasKey(k.timeline("order-2")))
			.as("a job due after the keep time has a list of its own")
			.isTrue();
		assertThat(this.fixture.redis().hasKey(k.timeline("order-3"))).isFalse();
	}

	@Test
	void aBatchThatSendsNewJobsAndReplacesAPendingOneRecordsEachStep() {
		this.template.send(JobRequest.builder(TOPIC, "v1").id("order-1").delay(Duration.ofHours(1)).build());

		this.template.sendAll(List.of(JobRequest.builder(TOPIC, "p").id("order-2").build(),
				JobRequest.builder(TOPIC, "v2")
					.id("order-1")
					.delay(Duration.ofHours(2))
					.ifPending(IfPending.REPLACE)
					.build(),
				JobRequest.builder(TOPIC, "p").id("order-3").build()));

		List<JobEvent> timeline = this.admin.timeline(TOPIC, "order-1");
		assertThat(timeline).extracting(JobEvent::type).containsExactly(Type.SENT, Type.REPLACED);
		assertThat(timeline.get(1).dueAt()).isEqualTo(timeline.get(1).at().plus(Duration.ofHours(2)));
		assertThat(this.admin.timeline(TOPIC, "order-2")).extracting(JobEvent::type).containsExactly(Type.SENT);
		assertThat(this.admin.timeline(TOPIC, "order-3")).extracting(JobEvent::type).containsExactly(Type.SENT);
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
			assertThat(this.fixture.redis().hasKey(partitioned.topic(queue).timelineLogSlots())).isTrue();
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
		assertThat(keysMatching("*}:timeline:*")).isZero();
	}

	@Test
	void anActorIsNamed() {
		assertThat(this.admin.actor()).isEqualTo("api");
		assertThat(this.admin.actingAs("dashboard").actor()).isEqualTo("dashboard");
		assertThatIllegalArgumentException().isThrownBy(() -> this.admin.actingAs(" "));
		assertThatIllegalArgumentException().isThrownBy(() -> this.admin.actingAs("x".repeat(65)));
	}

	@Test
	void aJobsStepsTakeFewBytes() {
		use(this.keys, new JobHistoryPolicy(Duration.ZERO, 0).withTimeline(50));
		int jobs = 1000;
		List<JobRequest> requests = new ArrayList<>();
		for (int i = 0; i < jobs; i++) {
			requests.add(JobRequest.builder(TOPIC, "p").id("order-" + (100_000 + i)).build());
		}
		this.template.sendAll(requests);
		long sent = stepBytes(jobs);
		List<ClaimedJob> claimed = new ArrayList<>();
		while (claimed.size() < jobs) {
			claimed.addAll(this.claims.claim(TOPIC, null, 500, Duration.ofMinutes(1)).jobs());
		}
		long attempted = stepBytes(jobs);
		for (ClaimedJob job : claimed) {
			this.claims.retry(job, Duration.ZERO, "java.lang.IllegalStateException: partner down");
		}
		long failed = stepBytes(jobs);
		// The list set holds the failed jobs' ids until they complete.
		long listed = this.fixture.memoryUsage(this.keys.topic(TOPIC).timelinePrefix() + "/lists");
		List<ClaimedJob> again = new ArrayList<>();
		while (again.size() < jobs) {
			again.addAll(this.claims.claim(TOPIC, null, 500, Duration.ofMinutes(1)).jobs());
		}
		for (int i = 0; i < jobs; i += 500) {
			assertThat(this.claims.ack(TOPIC, again.subList(i, i + 500))).containsOnly(true);
		}
		long completed = stepBytes(jobs);

		long perSent = sent / jobs;
		long perClaimed = (attempted - sent) / jobs;
		long perFailure = (failed - attempted + listed) / jobs;
		long perBatchStep = (completed - failed) / (2L * jobs);
		System.out.println("Timeline bytes per job: SENT " + perSent + ", CLAIMED " + perClaimed
				+ ", FAILED and RETRIED (log and list) " + perFailure + ", CLAIMED or COMPLETED in a batch "
				+ perBatchStep);
		assertThat(this.admin.timeline(TOPIC, "order-100000")).extracting(JobEvent::type)
			.containsExactly(Type.SENT, Type.CLAIMED, Type.FAILED, Type.RETRIED, Type.CLAIMED, Type.COMPLETED);
		assertThat(perBatchStep).isPositive().isLessThan(20);
		assertThat(perSent).isPositive().isLessThan(20);
	}

	// The bytes of the queue's step log and of the jobs' lists.
	private long stepBytes(int jobs) {
		TopicKeys k = this.keys.topic(TOPIC);
		long bytes = this.fixture.memoryUsage(k.timelineLogSlots());
		for (String slot : logSlots(k)) {
			bytes += this.fixture.memoryUsage(slot);
		}
		for (int i = 0; i < jobs; i++) {
			bytes += this.fixture.memoryUsage(k.timeline("order-" + (100_000 + i)));
		}
		return bytes;
	}

	// The keys of a queue's step log slots.
	private List<String> logSlots(TopicKeys k) {
		List<String> slots = new ArrayList<>();
		for (String start : this.fixture.redis().opsForZSet().range(k.timelineLogSlots(), 0, -1)) {
			slots.add(k.timelinePrefix() + "/log:" + start);
		}
		return slots;
	}

	private long logElements(TopicKeys k) {
		return logSlots(k).stream().mapToLong((slot) -> this.fixture.redis().opsForList().size(slot)).sum();
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
