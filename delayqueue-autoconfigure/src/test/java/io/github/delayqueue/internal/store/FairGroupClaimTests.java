package io.github.delayqueue.internal.store;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.github.delayqueue.core.DefaultDelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueTemplate;
import io.github.delayqueue.core.InvalidJobException;
import io.github.delayqueue.core.JobInfo;
import io.github.delayqueue.core.JobRequest;
import io.github.delayqueue.core.JobState;
import io.github.delayqueue.core.TopicGroups;
import io.github.delayqueue.internal.store.JobClaims.ClaimedJob;
import io.github.delayqueue.test.DelayQueueFixture;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Claims of a topic whose jobs have groups, against a real Redis: ready jobs are taken
 * from the groups in turns, each group's in the order they became ready, and the jobs
 * waiting for their turn stay READY wherever jobs are counted, listed or cancelled;
 * groups held by their own limits are passed over.
 */
@ExtendWith(RedisExtension.class)
class FairGroupClaimTests {

	private static final Duration TTR = Duration.ofSeconds(30);

	private DelayQueueFixture fixture;

	private DelayQueueTemplate template;

	private DefaultDelayQueueAdmin admin;

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
	void takesReadyJobsFromTheGroupsInTurnsAndEachGroupsInOrder() {
		sendInOrder("turns");
		List<String> taken = new ArrayList<>();
		for (int i = 0; i < 8; i++) {
			taken.addAll(claimOne("turns"));
		}
		assertThat(taken).containsExactly("a0", "b0", "u0", "a1", "b1", "a2", "a3", "a4");
		assertThat(claimOne("turns")).isEmpty();
		assertThat(this.admin.stats("turns").ready()).isZero();
		assertThat(this.admin.groups("turns").groups()).isZero();
	}

	@Test
	void aClaimOfSeveralJobsHandsThemOutInTheOrderOfSingleTurns() {
		sendInOrder("rounds");
		assertThat(this.claims.claim("rounds", null, 7, TTR).jobs()).extracting(ClaimedJob::id)
			.containsExactly("a0", "b0", "u0", "a1", "b1", "a2", "a3");
		assertThat(claimOne("rounds")).containsExactly("a4");
		assertThat(this.admin.stats("rounds").ready()).isZero();
	}

	@Test
	void jobsWaitingForTheirTurnAreCountedListedAndShownByGroup() {
		sendInOrder("shown");
		assertThat(claimOne("shown")).containsExactly("a0");
		assertThat(this.admin.stats("shown").ready()).isEqualTo(7);
		// The job whose turn is next waits on the ready list, the others in their groups'
		// lines, in turn order.
		assertThat(this.admin.jobs("shown", JobState.READY, 0, 10)).extracting(JobInfo::id)
			.containsExactly("b0", "u0", "a1", "a2", "a3", "a4", "b1");
		assertThat(this.admin.jobs("shown", JobState.READY, 3, 2)).extracting(JobInfo::id).containsExactly("a2", "a3");
		assertThat(this.template.find("shown", "a3").orElseThrow().state()).isEqualTo(JobState.READY);
		assertThat(this.template.find("shown", "a3").orElseThrow().headers()).containsEntry(JobRequest.GROUP_HEADER,
				"a");
		TopicGroups groups = this.admin.groups("shown");
		assertThat(groups.groups()).isEqualTo(3);
		assertThat(groups.largest().get(0)).isEqualTo(new TopicGroups.Waiting("a", 4));
		assertThat(groups.largest()).containsExactlyInAnyOrder(new TopicGroups.Waiting("a", 4),
				new TopicGroups.Waiting("b", 1), new TopicGroups.Waiting(null, 1));
	}

	@Test
	void aJobCancelledOrRescheduledWhileWaitingForItsTurnIsNeverDelivered() {
		sendInOrder("cancelled");
		assertThat(claimOne("cancelled")).containsExactly("a0");
		assertThat(this.template.cancel("cancelled", "a2")).isTrue();
		assertThat(this.template.reschedule("cancelled", "b1", Duration.ofHours(1))).isTrue();
		assertThat(this.admin.stats("cancelled").ready()).isEqualTo(5);
		assertThat(this.admin.jobs("cancelled", JobState.READY, 0, 10)).extracting(JobInfo::id)
			.containsExactly("b0", "u0", "a1", "a3", "a4");
		List<String> taken = new ArrayList<>();
		for (int i = 0; i < 8; i++) {
			taken.addAll(claimOne("cancelled"));
		}
		assertThat(taken).containsExactly("b0", "u0", "a1", "a3", "a4");
		assertThat(this.admin.stats("cancelled").ready()).isZero();
		assertThat(this.fixture.redis().opsForHash().get("{dq:cancelled}:groups", "")).isEqualTo("0");
		assertThat(this.fixture.redis().hasKey("{dq:cancelled}:group-turns")).isFalse();
	}

	@Test
	void aLargeGroupWaitsForItsTurnLikeASmallOne() {
		List<JobRequest> requests = new ArrayList<>();
		for (int i = 0; i < 5000; i++) {
			requests.add(JobRequest.builder("sizes", "big-" + i).id("big-" + i).group("big").build());
		}
		for (int i = 0; i < 5; i++) {
			requests.add(JobRequest.builder("sizes", "small-" + i).id("small-" + i).group("small").build());
		}
		for (int i = 0; i < requests.size(); i += 1000) {
			this.template.sendAll(requests.subList(i, Math.min(i + 1000, requests.size())));
		}
		List<String> taken = new ArrayList<>();
		while (taken.stream().filter((id) -> id.startsWith("small")).count() < 5) {
			List<ClaimedJob> jobs = this.claims.claim("sizes", null, 4, TTR).jobs();
			assertThat(jobs).isNotEmpty();
			jobs.forEach((job) -> taken.add(job.id()));
		}
		// Each claim moves up to a thousand ready jobs into their groups' lines: the
		// small
		// group's are there after five claims, and then every other job is theirs.
		assertThat(taken).hasSizeLessThanOrEqualTo(40);
		assertThat(taken.stream().filter((id) -> id.startsWith("big")).map((id) -> Integer.parseInt(id.substring(4))))
			.isSorted();
	}

	@Test
	void aHeldGroupIsPassedOverAndKeepsItsPlaceAndTheOrderOfItsJobs() {
		sendInOrder("held");
		assertThat(claim("held", 7, "a")).containsExactly("b0", "u0", "b1");
		// Only a held group has jobs waiting: none is put forward for the waiters, which
		// block until a job becomes ready; the holding instance claims when its hold
		// ends.
		assertThat(this.fixture.redis().opsForList().size("{dq:held}:ready")).isZero();
		assertThat(claim("held", 5, "a")).isEmpty();
		assertThat(this.admin.stats("held").ready()).isEqualTo(5);
		assertThat(claim("held", 7)).containsExactly("a0", "a1", "a2", "a3", "a4");
		assertThat(this.admin.stats("held").ready()).isZero();
	}

	@Test
	void aHeldGroupsJobMovedByAWaiterGoesBackToTheHeadOfItsLine() {
		sendInOrder("moved");
		assertThat(claim("moved", 1)).containsExactly("a0");
		// b0 is put forward; a waiter moves it, and its instance now holds group b.
		String moved = this.fixture.redis().opsForList().rightPopAndLeftPush("{dq:moved}:ready", "{dq:moved}:claiming");
		assertThat(moved).isEqualTo("b0");
		assertThat(this.claims.claim(this.claims.newClaim("moved", moved, 0, TTR, List.of("b"))).jobs())
			.extracting(ClaimedJob::id)
			.containsExactly("u0");
		assertThat(claim("moved", 8)).containsExactly("a1", "b0", "a2", "b1", "a3", "a4");
	}

	@Test
	void aGroupAtItsOwnBoundsShowsAsHeldWithItsRunningJobs() {
		sendInOrder("bounds");
		assertThat(claimOne("bounds")).containsExactly("a0");
		TopicLimiter.Limits limits = new TopicLimiter.Limits(0, Duration.ofSeconds(1), 0, 1, 0, Duration.ofSeconds(1));
		assertThat(this.claims.limiter()
			.admit("bounds", limits,
					List.of(new TopicLimiter.Delivery("a0", 1, TTR, "a"), new TopicLimiter.Delivery("a1", 1, TTR, "a"),
							new TopicLimiter.Delivery("b0", 1, TTR, "b")))
			.verdicts()).isEqualTo("aga");
		TopicGroups groups = this.admin.groups("bounds");
		assertThat(groups.largest()).containsExactlyInAnyOrder(new TopicGroups.Waiting("a", 4, 1, true),
				new TopicGroups.Waiting("b", 1, 1, false), new TopicGroups.Waiting(null, 1));
		assertThat(groups.withoutNames().largest()).extracting(TopicGroups.Waiting::group)
			.containsOnly(JobInfo.HIDDEN, null);
		this.claims.limiter().release("bounds", "a", List.of(TopicLimiter.Delivery.member("a0", 1)));
		assertThat(this.admin.groups("bounds").largest()).contains(new TopicGroups.Waiting("b", 1, 1, false))
			.anySatisfy((waiting) -> assertThat(waiting)
				.extracting(TopicGroups.Waiting::group, TopicGroups.Waiting::running)
				.containsExactly("a", 0L));
	}

	@Test
	void aJobHandedBackGoesBackToTheHeadOfItsGroupsLine() {
		sendInOrder("handback");
		List<ClaimedJob> claimed = this.claims.claim("handback", null, 3, TTR).jobs();
		assertThat(claimed).extracting(ClaimedJob::id).containsExactly("a0", "b0", "u0");
		assertThat(this.claims.release(claimed.get(1))).isTrue();
		List<String> taken = new ArrayList<>();
		for (int i = 0; i < 8; i++) {
			taken.addAll(claimOne("handback"));
		}
		assertThat(taken).containsExactly("a1", "b0", "a2", "b1", "a3", "a4");
		assertThat(this.admin.stats("handback").ready()).isZero();
	}

	@Test
	void refusesAGroupWithACharacterTheQueueCannotStoreBeforeWritingAnything() {
		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(() -> this.template.send(JobRequest.builder("refused", "x").id("x").group("a \"b\"").build()))
			.withMessageContaining("Group 'a \"b\"' of job 'x' for topic 'refused'")
			.withMessageContaining("' '");
		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(() -> this.template.send(JobRequest.builder("refused", "x").group("").build()))
			.withMessageContaining("1 to 128 characters");
		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(() -> JobRequest.builder("refused", "x").group(null))
			.withMessageContaining("must not be null");
		assertThat(this.fixture.redis().keys("{dq:refused}*")).isEmpty();
	}

	@Test
	void noHeaderPosesAsTheGroup() {
		// A quote in a header name would be escaped in the headers' JSON, where
		// x"delayqueue-group read as the group: refused at send.
		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(() -> this.template
				.send(JobRequest.builder("forged", "x").id("x").header("x\"delayqueue-group", "a b{}").build()))
			.withMessageContaining("Header name 'x\"delayqueue-group' of job 'x' for topic 'forged'");
		// The group's own header is the group, and checked as one.
		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(() -> this.template
				.send(JobRequest.builder("forged", "x").id("x").header(JobRequest.GROUP_HEADER, "a b{}").build()))
			.withMessageContaining("Group 'a b{}' of job 'x'");
		assertThat(this.fixture.redis().keys("{dq:forged}*")).isEmpty();
		// Written past the checks, the header is a header: the group is a field of its
		// own.
		String tail = this.fixture.codec().encodeTail(null, null, Map.of("x\"delayqueue-group", "a b{}"), "\"f\"");
		for (String id : List.of("f0", "f1")) {
			this.fixture.store()
				.enqueue("forged",
						new JobStore.EncodedJob(id, JobStore.EncodedJob.due(true, 0, false, '\0', -1), tail));
		}
		assertThat(this.fixture.redis().keys("{dq:forged}:group*")).isEmpty();
		List<ClaimedJob> claimed = this.claims.claim("forged", null, 2, TTR).jobs();
		assertThat(claimed).extracting(ClaimedJob::id).containsExactly("f0", "f1");
		assertThat(claimed).allSatisfy((job) -> assertThat(JobRecordCodec.groupOf(job.record())).isNull());
		assertThat(this.template.find("forged", "f0").orElseThrow().headers())
			.containsExactly(Map.entry("x\"delayqueue-group", "a b{}"));
	}

	@Test
	void aTopicWithoutGroupsKeepsItsPlainOrderAndNoGroupKeys() {
		for (int i = 0; i < 3; i++) {
			this.template.send(JobRequest.builder("plain", "p" + i).id("p" + i).build());
		}
		assertThat(this.claims.claim("plain", null, 3, TTR).jobs()).extracting(ClaimedJob::id)
			.containsExactly("p0", "p1", "p2");
		assertThat(this.fixture.redis().keys("{dq:plain}:group*")).isEmpty();
	}

	// a0..a4 in group a, b0 and b1 in group b, u0 without a group, ready in this order.
	private void sendInOrder(String topic) {
		for (String id : List.of("a0", "a1", "b0", "u0", "a2", "b1", "a3", "a4")) {
			JobRequest.Builder request = JobRequest.builder(topic, id).id(id);
			if (!id.startsWith("u")) {
				request.group(id.substring(0, 1));
			}
			this.template.send(request.build());
		}
	}

	private List<String> claim(String topic, int count, String... heldGroups) {
		return this.claims.claim(this.claims.newClaim(topic, null, count, TTR, List.of(heldGroups)))
			.jobs()
			.stream()
			.map(ClaimedJob::id)
			.toList();
	}

	private List<String> claimOne(String topic) {
		return this.claims.claim(topic, null, 1, TTR).jobs().stream().map(ClaimedJob::id).toList();
	}

}
