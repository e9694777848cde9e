package io.github.delayqueue.core;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import io.github.delayqueue.internal.store.DelayQueueKeys;
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

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Finished jobs kept for a while: a topic with a completed retention keeps each job it
 * completes or cancels, findable by id as COMPLETED or CANCELLED with the time and the
 * instance that finished it, bounded by time and by count; a topic without one keeps
 * nothing.
 */
@ExtendWith(RedisExtension.class)
class CompletedRetentionTests {

	private static final String TOPIC = "receipts";

	private static final String INSTANCE = "host-a:42";

	private DelayQueueFixture fixture;

	private DelayQueueKeys keys;

	private DelayQueueTemplate template;

	private DefaultDelayQueueAdmin admin;

	private JobClaims claims;

	private JobHistoryWiring wiring;

	@BeforeEach
	void setUp(RedisTestServer server) {
		server.flushAll();
		this.fixture = new DelayQueueFixture(server);
		use(this.fixture.keys(), new JobHistoryPolicy(Duration.ofHours(1), 100));
	}

	@AfterEach
	void tearDown() {
		this.fixture.close();
	}

	@Test
	void keepsNothingWhenRetentionIsOff() {
		use(this.fixture.keys(), JobHistoryPolicy.OFF);
		send("done");
		finish(claim());
		send("cancelled");
		this.template.cancel(TOPIC, "cancelled");

		assertThat(this.template.find(TOPIC, "done")).isEmpty();
		assertThat(this.template.find(TOPIC, "cancelled")).isEmpty();
		TopicKeys k = this.keys.topic(TOPIC);
		assertThat(this.fixture.redis().countExistingKeys(List.of(k.finished(), k.completed(), k.cancelled())))
			.isZero();
	}

	@Test
	void keepsACompletedJobFindableWithItsAttemptsTimesAndTheInstanceThatRanIt() {
		this.template.send(JobRequest.builder(TOPIC, "receipt").id("order-1").header("tenant", "t1").build());
		ClaimedJob delivery = claim();
		long beforeAck = this.fixture.redisTimeMillis();

		finish(delivery);

		JobInfo kept = find("order-1");
		assertThat(kept.state()).isEqualTo(JobState.COMPLETED);
		assertThat(kept.attempts()).isEqualTo(1);
		assertThat(kept.payloadJson()).isEqualTo("\"receipt\"");
		assertThat(kept.headers()).containsExactly(Map.entry("tenant", "t1"));
		assertThat(kept.finishedBy()).isEqualTo(INSTANCE);
		assertThat(kept.finishedAt()).isBetween(Instant.ofEpochMilli(beforeAck),
				Instant.ofEpochMilli(this.fixture.redisTimeMillis()));
		assertThat(kept.createdAt()).isBeforeOrEqualTo(kept.finishedAt());
		assertThat(this.fixture.admin().findInAnyTopic("order-1")).contains(kept);
	}

	@Test
	void keepsACancelledJobAsCancelled() {
		send("order-1");

		assertThat(this.template.cancel(TOPIC, "order-1")).isTrue();

		JobInfo kept = find("order-1");
		assertThat(kept.state()).isEqualTo(JobState.CANCELLED);
		assertThat(kept.finishedBy()).isEqualTo(INSTANCE);
		assertThat(this.admin.countKept(TOPIC, JobState.CANCELLED)).isEqualTo(1);
		assertThat(this.admin.countKept(TOPIC, JobState.COMPLETED)).isZero();
		assertThat(this.template.cancel(TOPIC, "order-1")).as("a kept job is no longer pending").isFalse();
	}

	@Test
	void aKeptIdIsNotPendingSoASendWritesANewJobThatReplacesWhatWasKeptWhenItEnds() {
		send("order-1");
		finish(claim());

		send("order-1");

		assertThat(find("order-1").state()).isEqualTo(JobState.READY);
		this.template.cancel(TOPIC, "order-1");
		assertThat(find("order-1").state()).isEqualTo(JobState.CANCELLED);
		assertThat(this.admin.countKept(TOPIC, JobState.COMPLETED)).as("an id is kept with its last end only").isZero();
	}

	@Test
	void keepsAtMostTheCountCapDroppingTheOldestFirst() {
		use(this.fixture.keys(), new JobHistoryPolicy(Duration.ofHours(1), 3));
		for (int i = 1; i <= 5; i++) {
			send("order-" + i);
			finish(claim());
		}

		assertThat(this.admin.countKept(TOPIC, JobState.COMPLETED)).isEqualTo(3);
		assertThat(this.template.find(TOPIC, "order-1")).isEmpty();
		assertThat(this.template.find(TOPIC, "order-2")).isEmpty();
		assertThat(this.admin.jobs(TOPIC, JobState.COMPLETED, 0, 10)).extracting(JobInfo::id)
			.containsExactlyInAnyOrder("order-3", "order-4", "order-5");
		assertThat(this.fixture.redis().opsForHash().size(this.keys.topic(TOPIC).finished())).isEqualTo(3);
	}

	@Test
	void aBatchBeyondTheCountCapKeepsExactlyItsNewestJobs() {
		use(this.fixture.keys(), new JobHistoryPolicy(Duration.ofHours(1), 10));
		List<String> ids = new ArrayList<>();
		for (int i = 1; i <= 25; i++) {
			ids.add("order-" + i);
			send("order-" + i);
		}
		List<ClaimedJob> claimed = this.claims.claim(TOPIC, null, 25, Duration.ofMinutes(1)).jobs();
		assertThat(claimed).hasSize(25);

		this.claims.ack(TOPIC, claimed.subList(0, 7));
		this.claims.ack(TOPIC, claimed.subList(7, 25));

		List<String> newestFirst = new ArrayList<>(claimed.stream().map(ClaimedJob::id).toList());
		Collections.reverse(newestFirst);
		assertThat(this.admin.countKept(TOPIC, JobState.COMPLETED)).isEqualTo(10);
		assertThat(this.admin.jobs(TOPIC, JobState.COMPLETED, 0, 100)).extracting(JobInfo::id)
			.containsExactlyElementsOf(newestFirst.subList(0, 10));
		assertThat(this.admin.jobs(TOPIC, JobState.COMPLETED, 4, 3)).extracting(JobInfo::id)
			.containsExactlyElementsOf(newestFirst.subList(4, 7));
		assertThat(this.template.find(TOPIC, newestFirst.get(10))).isEmpty();
		assertThat(this.fixture.redis().opsForHash().size(this.keys.topic(TOPIC).finished())).isEqualTo(10);
	}

	@Test
	void anIdThatEndsAgainKeepsItsLastEndWhenItsEarlierEndIsDropped() {
		use(this.fixture.keys(), new JobHistoryPolicy(Duration.ofHours(1), 3));
		send("order-1");
		finish(claim());
		send("order-2");
		finish(claim());
		this.template.send(JobRequest.builder(TOPIC, "again").id("order-1").delay(Duration.ofHours(1)).build());
		assertThat(this.template.cancel(TOPIC, "order-1")).isTrue();
		send("order-2");
		finish(claim());

		assertThat(find("order-1").state()).isEqualTo(JobState.CANCELLED);
		assertThat(this.admin.countKept(TOPIC, JobState.COMPLETED)).isEqualTo(1);
		assertThat(this.admin.jobs(TOPIC, JobState.COMPLETED, 0, 10)).extracting(JobInfo::id)
			.as("an id is paged with its last end only")
			.containsExactly("order-2");

		for (int i = 3; i <= 6; i++) {
			send("order-" + i);
			finish(claim());
		}

		assertThat(find("order-1").state()).as("dropping its earlier end left the later one")
			.isEqualTo(JobState.CANCELLED);
		assertThat(this.template.find(TOPIC, "order-2")).isEmpty();
		assertThat(this.admin.countKept(TOPIC, JobState.COMPLETED)).isEqualTo(3);
		assertThat(this.admin.countKept(TOPIC, JobState.CANCELLED)).isEqualTo(1);
		assertThat(this.admin.jobs(TOPIC, JobState.COMPLETED, 0, 10)).extracting(JobInfo::id)
			.containsExactly("order-6", "order-5", "order-4");
		assertThat(this.fixture.redis().opsForHash().size(this.keys.topic(TOPIC).finished())).isEqualTo(4);
		assertThat(this.fixture.redis().opsForHash().keys(this.keys.topic(TOPIC).finishedAgain()))
			.as("the note of a later end stays while that end is kept, and only then")
			.containsExactly("order-1");
	}

	@Test
	void anIdThatEndsTwiceInOneMillisecondIsPagedAndCountedOnce() {
		Instant[] ends = new Instant[2];

		await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(1)).until(() -> {
			for (int i = 0; i < 2; i++) {
				sendLater("order-1");
				this.template.cancel(TOPIC, "order-1");
				ends[i] = find("order-1").finishedAt();
			}
			return ends[0].equals(ends[1]);
		});

		assertThat(this.admin.countKept(TOPIC, JobState.CANCELLED)).isEqualTo(1);
		assertThat(this.admin.jobs(TOPIC, JobState.CANCELLED, 0, 10)).extracting(JobInfo::id)
			.as("two ends in one millisecond are still one kept job")
			.containsExactly("order-1");
	}

	@Test
	void anIdCancelledInTheMillisecondItCompletedKeepsItsCancellationWhenTheCompletionIsDropped() {
		use(this.fixture.keys(), new JobHistoryPolicy(Duration.ofHours(1), 1));
		Instant[] ends = new Instant[2];

		await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(1)).until(() -> {
			send("order-1");
			finish(claim());
			ends[0] = find("order-1").finishedAt();
			sendLater("order-1");
			this.template.cancel(TOPIC, "order-1");
			ends[1] = find("order-1").finishedAt();
			return ends[0].equals(ends[1]);
		});
		send("order-2");
		finish(claim());
		send("order-3");
		finish(claim());

		assertThat(find("order-1").state()).as("dropping the completion left the cancellation")
			.isEqualTo(JobState.CANCELLED);
		assertThat(this.admin.countKept(TOPIC, JobState.CANCELLED)).isEqualTo(1);
		assertThat(this.admin.countKept(TOPIC, JobState.COMPLETED)).isEqualTo(1);
		assertThat(this.admin.jobs(TOPIC, JobState.COMPLETED, 0, 10)).extracting(JobInfo::id)
			.containsExactly("order-3");
		assertThat(this.fixture.redis().opsForHash().keys(this.keys.topic(TOPIC).finished()))
			.containsExactlyInAnyOrder("order-1", "order-3");
	}

	@Test
	void dropsKeptJobsPastTheirRetentionWhileOthersFinish() {
		use(this.fixture.keys(), new JobHistoryPolicy(Duration.ofMillis(300), 1000));
		send("first");
		finish(claim());
		int[] next = { 0 };

		await().atMost(Duration.ofSeconds(10)).until(() -> {
			send("next-" + next[0]);
			finish(claim());
			next[0]++;
			return this.template.find(TOPIC, "first").isEmpty();
		});

		assertThat(find("next-" + (next[0] - 1)).state()).isEqualTo(JobState.COMPLETED);
		assertThat(this.fixture.redis().opsForHash().hasKey(this.keys.topic(TOPIC).finished(), "first")).isFalse();
	}

	@Test
	void forgetsEverythingKeptOnceNothingFinishesForTheRetention() {
		use(this.fixture.keys(), new JobHistoryPolicy(Duration.ofMillis(300), 1000));
		send("order-1");
		finish(claim());
		assertThat(find("order-1").state()).isEqualTo(JobState.COMPLETED);

		await().atMost(Duration.ofSeconds(10)).until(() -> this.template.find(TOPIC, "order-1").isEmpty());

		TopicKeys k = this.keys.topic(TOPIC);
		assertThat(this.fixture.redis().countExistingKeys(k.keptKeys())).isZero();
	}

	@Test
	void everyKeyOfTheKeptJobsExpiresEvenWhenCreatedBetweenTwoRenewalsOfTheExpiry() {
		use(this.fixture.keys(), new JobHistoryPolicy(Duration.ofHours(1), 1000));
		send("order-1");
		finish(claim());
		sendLater("order-2");
		this.template.cancel(TOPIC, "order-2");
		send("order-1");
		finish(claim());

		TopicKeys k = this.keys.topic(TOPIC);
		assertThat(k.keptKeys()).allSatisfy((key) -> {
			Long ttl = this.fixture.redis().getExpire(key, TimeUnit.MILLISECONDS);
			assertThat(ttl).as("expiry of %s", key)
				.isBetween(Duration.ofMinutes(59).toMillis(),
						Duration.ofHours(1).plus(Duration.ofHours(1).dividedBy(16)).toMillis());
		});
		assertThat(find("order-1").state()).isEqualTo(JobState.COMPLETED);
		assertThat(find("order-2").state()).isEqualTo(JobState.CANCELLED);
	}

	@Test
	void pagesKeptJobsOfAPartitionedTopicTheMostRecentFirst() {
		DelayQueueKeys partitioned = new DelayQueueKeys(DelayQueueFixture.PREFIX, (topic) -> 4);
		use(partitioned, new JobHistoryPolicy(Duration.ofHours(1), 100));
		List<String> ids = PartitionIds.onePerPartition(partitioned, TOPIC, 4);
		for (String id : ids) {
			send(id);
			String queue = partitioned.queueOf(TOPIC, id);
			List<ClaimedJob> jobs = this.claims.claim(queue, null, 1, Duration.ofMinutes(1)).jobs();
			assertThat(this.claims.ack(queue, jobs)).containsExactly(true);
		}

		List<JobInfo> page = this.admin.jobs(TOPIC, JobState.COMPLETED, 0, 10);

		assertThat(page).extracting(JobInfo::id).containsExactlyInAnyOrderElementsOf(ids);
		assertThat(page).extracting(JobInfo::finishedAt).isSortedAccordingTo(Comparator.reverseOrder());
		assertThat(this.admin.jobs(TOPIC, JobState.COMPLETED, 1, 2)).isEqualTo(page.subList(1, 3));
		assertThat(this.admin.countKept(TOPIC, JobState.COMPLETED)).isEqualTo(4);
		assertThat(find(ids.get(3)).state()).isEqualTo(JobState.COMPLETED);
	}

	@Test
	void hidesAKeptJobsValuesAndHostButNotWhenItFinished() {
		this.template.send(JobRequest.builder(TOPIC, "secret").id("order-1").header("token", "t0ken").build());
		finish(claim());

		JobInfo hidden = find("order-1").withoutValues();

		assertThat(hidden.payloadJson()).isEqualTo(JobInfo.HIDDEN);
		assertThat(hidden.headers()).containsExactly(Map.entry("token", JobInfo.HIDDEN));
		assertThat(hidden.state()).isEqualTo(JobState.COMPLETED);
		assertThat(hidden.finishedAt()).isNotNull();
		assertThat(hidden.finishedBy()).isEqualTo(JobInfo.HIDDEN + ":42");
	}

	@Test
	void aKeptJobTakesAboutTheMemoryOfAPendingOne() {
		use(this.fixture.keys(), new JobHistoryPolicy(Duration.ofHours(1), 10_000));
		int jobs = 1000;
		String payload = "x".repeat(100);
		List<JobRequest> pending = new ArrayList<>();
		List<JobRequest> finishing = new ArrayList<>();
		for (int i = 0; i < jobs; i++) {
			pending.add(JobRequest.builder("pending.jobs", payload)
				.id("order-" + (100_000 + i))
				.delay(Duration.ofHours(1))
				.build());
			finishing.add(JobRequest.builder(TOPIC, payload).id("order-" + (100_000 + i)).build());
		}
		this.template.sendAll(pending);
		this.template.sendAll(finishing);
		for (int done = 0; done < jobs;) {
			List<ClaimedJob> claimed = this.claims.claim(TOPIC, null, 500, Duration.ofMinutes(1)).jobs();
			this.claims.ack(TOPIC, claimed);
			done += claimed.size();
		}

		TopicKeys p = this.keys.topic("pending.jobs");
		TopicKeys k = this.keys.topic(TOPIC);
		long pendingBytes = (this.fixture.memoryUsage(p.jobs()) + this.fixture.memoryUsage(p.delayed())) / jobs;
		long keptBytes = k.keptKeys().stream().mapToLong(this.fixture::memoryUsage).sum() / jobs;
		System.out.println("Bytes per delayed job: " + pendingBytes + ", per kept completed job: " + keptBytes);
		assertThat(this.admin.countKept(TOPIC, JobState.COMPLETED)).isEqualTo(jobs);
		assertThat(keptBytes).isLessThan(pendingBytes * 6 / 5);
	}

	private void use(DelayQueueKeys keys, JobHistoryPolicy policy) {
		this.keys = keys;
		this.wiring = JobHistoryWiring.of(this.fixture, keys, policy, INSTANCE);
		this.template = this.wiring.template();
		this.admin = this.wiring.admin();
		this.claims = this.wiring.claims();
	}

	private void send(String id) {
		this.wiring.send(TOPIC, id);
	}

	private void sendLater(String id) {
		this.template.send(JobRequest.builder(TOPIC, "receipt").id(id).delay(Duration.ofHours(1)).build());
	}

	private ClaimedJob claim() {
		return this.wiring.claimOne(TOPIC);
	}

	private void finish(ClaimedJob delivery) {
		assertThat(this.claims.ack(TOPIC, List.of(delivery))).containsExactly(true);
	}

	private JobInfo find(String id) {
		Optional<JobInfo> job = this.template.find(TOPIC, id);
		assertThat(job).as("job %s", id).isPresent();
		return job.get();
	}

}
