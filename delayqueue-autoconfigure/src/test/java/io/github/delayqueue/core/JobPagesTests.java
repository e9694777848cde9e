package io.github.delayqueue.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.delayqueue.internal.store.DelayQueueKeys;
import io.github.delayqueue.internal.store.JobClaims;
import io.github.delayqueue.internal.store.JobStore;
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
 * Pages of a topic's jobs in each state, oldest first, without the ghost entries that
 * cancelled READY jobs leave in the ready list.
 */
@ExtendWith(RedisExtension.class)
class JobPagesTests {

	private DelayQueueFixture fixture;

	private DelayQueueTemplate template;

	private DelayQueueAdmin admin;

	@BeforeEach
	void setUp(RedisTestServer server) {
		server.flushAll();
		this.fixture = new DelayQueueFixture(server);
		this.template = this.fixture.template();
		this.admin = this.fixture.admin();
	}

	@AfterEach
	void tearDown() {
		this.fixture.close();
	}

	@Test
	void pagesDelayedJobsByDueTime() {
		List<String> ids = new ArrayList<>();
		for (int i = 5; i >= 1; i--) {
			ids.add(0, this.template.send("paged", "in-" + i, Duration.ofMinutes(i)));
		}
		assertThat(this.admin.jobs("paged", JobState.DELAYED, 0, 2)).extracting(JobInfo::id)
			.containsExactlyElementsOf(ids.subList(0, 2));
		assertThat(this.admin.jobs("paged", JobState.DELAYED, 2, 10)).extracting(JobInfo::id)
			.containsExactlyElementsOf(ids.subList(2, 5));
		assertThat(this.admin.jobs("paged", JobState.DELAYED, 0, 1).get(0).state()).isEqualTo(JobState.DELAYED);
		assertThat(this.admin.jobs("paged", JobState.DELAYED, 5, 10)).isEmpty();
	}

	@Test
	void pagesReadyJobsInClaimOrderWithoutCancelledOnes() {
		List<String> ids = new ArrayList<>();
		for (int i = 0; i < 6; i++) {
			ids.add(this.template.send("ready.paged", "job-" + i));
		}
		this.template.cancel("ready.paged", ids.get(1));
		List<JobInfo> page = this.admin.jobs("ready.paged", JobState.READY, 0, 10);
		assertThat(page).extracting(JobInfo::id)
			.containsExactly(ids.get(0), ids.get(2), ids.get(3), ids.get(4), ids.get(5));
		assertThat(page).extracting(JobInfo::state).containsOnly(JobState.READY);
		JobClaims claims = new JobClaims(this.fixture.scripts(), this.fixture.keys());
		// Three entries: the first job, the cancelled one's ghost (dropped), the third
		// job.
		claims.claim("ready.paged", null, 3, Duration.ofMinutes(1));
		assertThat(this.admin.jobs("ready.paged", JobState.READY, 0, 10)).extracting(JobInfo::id)
			.containsExactly(ids.get(3), ids.get(4), ids.get(5));
		assertThat(this.admin.jobs("ready.paged", JobState.RUNNING, 0, 10)).extracting(JobInfo::id)
			.containsExactly(ids.get(0), ids.get(2));
	}

	@Test
	void pagesReadyJobsOfAPartitionedTopicWithGhostsNeitherSkippingNorRepeatingOne() {
		DelayQueueKeys keys = new DelayQueueKeys(DelayQueueFixture.PREFIX, (topic) -> 8);
		JobStore store = new JobStore(this.fixture.scripts(), keys, this.fixture.codec());
		DelayQueueTemplate partitioned = new DelayQueueTemplate(store, this.fixture.codec(), this.fixture.jsonMapper());
		assertPagesHoldEveryReadyJobOnce(partitioned, new DefaultDelayQueueAdmin(store), "ready.partitioned");
	}

	@Test
	void pagesReadyJobsWithGhostsNeitherSkippingNorRepeatingOne() {
		assertPagesHoldEveryReadyJobOnce(this.template, this.admin, "ready.ghosts");
	}

	// Cancelled READY jobs leave ghost entries in the ready lists of every partition;
	// pages of seven, a size that shares no factor with the spacing of the ghosts, must
	// still hold each remaining job once.
	private void assertPagesHoldEveryReadyJobOnce(DelayQueueTemplate queue, DelayQueueAdmin admin, String topic) {
		List<String> ids = new ArrayList<>();
		for (int i = 0; i < 300; i++) {
			ids.add(queue.send(topic, "job-" + i));
		}
		List<String> remaining = new ArrayList<>();
		for (int i = 0; i < ids.size(); i++) {
			if (i % 3 == 1) {
				assertThat(queue.cancel(topic, ids.get(i))).isTrue();
			}
			else {
				remaining.add(ids.get(i));
			}
		}
		assertThat(admin.stats(topic).ready()).isEqualTo(remaining.size());
		List<String> paged = new ArrayList<>();
		for (int offset = 0; offset < 300; offset += 7) {
			admin.jobs(topic, JobState.READY, offset, 7).forEach((job) -> paged.add(job.id()));
		}
		assertThat(paged).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(remaining);
		assertThat(admin.jobs(topic, JobState.READY, 0, 1000)).extracting(JobInfo::id).containsExactlyElementsOf(paged);
	}

	@Test
	void readsAPageOfLargeJobsWholeInSeveralCallsWithoutSkippingOrRepeatingOne() {
		String payload = "p".repeat(600 * 1024);
		List<String> ids = new ArrayList<>();
		for (int i = 0; i < 12; i++) {
			ids.add(this.template.send("large.ready", payload + i));
		}
		// Jobs sent again after a cancel, whose ghosts lead: one before the first call's
		// end, one after it.
		for (int again : new int[] { 1, 10 }) {
			assertThat(this.template.cancel("large.ready", ids.get(again))).isTrue();
			this.template.send(JobRequest.builder("large.ready", payload + again).id(ids.get(again)).build());
		}

		List<JobInfo> page = this.admin.jobs("large.ready", JobState.READY, 0, 20);

		assertThat(page).extracting(JobInfo::id).containsExactlyElementsOf(ids);
		for (int i = 0; i < page.size(); i++) {
			assertThat(page.get(i).payloadJson()).isEqualTo("\"" + payload + i + "\"");
		}
		assertThat(this.admin.jobSummaries("large.ready", JobState.READY, 0, 20)).extracting(JobInfo::id)
			.containsExactlyElementsOf(ids);
	}

	@Test
	void summariesCarryTheRowsFieldsButNeitherHeadersNorPayload() {
		String id = this.template.send(JobRequest.builder("summaries", "secret payload")
			.header("tenant", "acme")
			.delay(Duration.ofMinutes(5))
			.build());
		JobInfo whole = this.admin.jobs("summaries", JobState.DELAYED, 0, 1).get(0);

		JobInfo summary = this.admin.jobSummaries("summaries", JobState.DELAYED, 0, 1).get(0);

		assertThat(summary.id()).isEqualTo(id);
		assertThat(summary.dueAt()).isEqualTo(whole.dueAt());
		assertThat(summary.createdAt()).isEqualTo(whole.createdAt());
		assertThat(summary.state()).isEqualTo(JobState.DELAYED);
		assertThat(summary.headers()).isEmpty();
		assertThat(summary.payloadJson()).isEmpty();
		assertThat(whole.headers()).containsEntry("tenant", "acme");
		assertThat(this.admin.jobSummaries("summaries", JobState.DELAYED, 1, 10)).isEmpty();
	}

	@Test
	void refusesANegativePageOrAMissingStateBeforeAskingRedis() {
		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(() -> this.admin.jobs("paged", JobState.DEAD, -1, 10))
			.withMessageContaining("-1");
		assertThatExceptionOfType(InvalidJobException.class).isThrownBy(() -> this.admin.jobs("paged", null, 0, 10))
			.withMessageContaining("state");
		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(() -> this.admin.jobs("bad topic", JobState.DEAD, 0, 10))
			.withMessageContaining("bad topic");
	}

}
