package io.github.delayqueue.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.delayqueue.internal.store.JobClaims.ClaimedJob;
import io.github.delayqueue.internal.store.JobHistory;
import io.github.delayqueue.internal.store.JobHistoryPolicy;
import io.github.delayqueue.internal.store.JobStore;
import io.github.delayqueue.internal.store.TopicKeys;
import io.github.delayqueue.test.DelayQueueFixture;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The timeline's list set holds the ids of the jobs whose own list does not expire yet;
 * its trim takes out the ids whose list is gone or whose job is gone (that list then
 * expires as an ended timeline does), a bounded number per call, and leaves the ids of
 * jobs still there: the set lasts no longer than the jobs it names.
 */
@ExtendWith(RedisExtension.class)
class TimelineListSetTests {

	private static final String TOPIC = "timelines";

	private static final JobHistoryPolicy ON = new JobHistoryPolicy(Duration.ZERO, 0).withTimeline(50);

	private DelayQueueFixture fixture;

	private TopicKeys k;

	private String listSet;

	private JobHistoryWiring wiring;

	private JobStore store;

	@BeforeEach
	void setUp(RedisTestServer server) {
		server.flushAll();
		this.fixture = new DelayQueueFixture(server);
		this.k = this.fixture.keys().topic(TOPIC);
		this.listSet = this.k.timelinePrefix() + "/lists";
		use(ON);
	}

	@AfterEach
	void tearDown() {
		this.fixture.close();
	}

	@Test
	void takesOutTheIdsWhoseJobOrListIsGoneAndEndsTheirListsButKeepsThoseOfJobsStillThere() {
		// Pending with a list (a retry's steps): stays.
		this.wiring.send(TOPIC, "waiting");
		retry(this.wiring.claimOne(TOPIC), Duration.ofHours(1));
		// Dead with a list, then sent again due within the keep time, which starts no
		// list: its id names a list that is gone.
		this.wiring.send(TOPIC, "resent");
		assertThat(this.wiring.claims().bury(this.wiring.claimOne(TOPIC), "com.example.Fatal")).isTrue();
		this.wiring.template()
			.send(JobRequest.builder(TOPIC, "again").id("resent").delay(Duration.ofMinutes(30)).build());
		// With a list when the timeline is turned off, then completed: nothing ended its
		// list, which would never expire.
		this.wiring.send(TOPIC, "vanished");
		retry(claimId("vanished"), Duration.ZERO);
		assertThat(this.fixture.redis().opsForSet().members(this.listSet)).containsExactlyInAnyOrder("waiting",
				"vanished", "resent");
		use(new JobHistoryPolicy(Duration.ZERO, 0));
		assertThat(this.wiring.claims().ack(TOPIC, List.of(claimId("vanished")))).containsExactly(true);
		assertThat(this.fixture.redis().getExpire(this.k.timeline("vanished"))).isEqualTo(-1);

		long removed = this.store.trimTimelineLists(TOPIC, 10);

		assertThat(removed).as("left: %s", this.fixture.redis().opsForSet().members(this.listSet)).isEqualTo(2);
		assertThat(this.fixture.redis().opsForSet().members(this.listSet)).containsExactly("waiting");
		assertThat(this.fixture.redis().getExpire(this.k.timeline("vanished"))).isBetween(3590L, 3600L);
		assertThat(this.fixture.redis().getExpire(this.k.timeline("waiting"))).isEqualTo(-1);
	}

	@Test
	void walksALargeSetInBoundedCallsAndTheEmptiedSetIsGone() {
		List<String> ids = new ArrayList<>();
		for (int i = 0; i < 5000; i++) {
			ids.add("gone-" + i);
		}
		this.fixture.redis().opsForSet().add(this.listSet, ids.toArray(String[]::new));

		assertThat(this.store.trimTimelineLists(TOPIC, 1000)).isEqualTo(5000);

		assertThat(this.fixture.redis().hasKey(this.listSet)).isFalse();
	}

	private void retry(ClaimedJob delivery, Duration delay) {
		this.wiring.claims().retry(delivery, delay, "java.lang.IllegalStateException: down");
	}

	private ClaimedJob claimId(String id) {
		for (int i = 0; i < 10; i++) {
			ClaimedJob job = this.wiring.claimOne(TOPIC);
			if (job.id().equals(id)) {
				return job;
			}
			retry(job, Duration.ZERO);
		}
		throw new AssertionError("Job " + id + " was not claimed");
	}

	private void use(JobHistoryPolicy policy) {
		this.wiring = JobHistoryWiring.of(this.fixture, this.fixture.keys(), policy, "host-a");
		this.store = new JobStore(this.fixture.scripts(), this.fixture.keys(), this.fixture.codec());
		this.store.setJobHistory(new JobHistory((topic) -> policy, "host-a"));
	}

}
