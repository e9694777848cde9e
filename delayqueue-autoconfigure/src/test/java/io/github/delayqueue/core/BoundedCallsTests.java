package io.github.delayqueue.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.delayqueue.internal.store.DelayQueueScript;
import io.github.delayqueue.internal.store.JobClaims;
import io.github.delayqueue.internal.store.JobClaims.ClaimedJob;
import io.github.delayqueue.internal.store.TopicKeys;
import io.github.delayqueue.test.DelayQueueFixture;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No script call takes an unbounded amount of work from its caller: a batch of large
 * payloads is sent in slices of a few megabytes, dead jobs are read a thousand per call
 * at most, and ids handed back from a claiming list go a thousand per call. The calls are
 * counted by a Redis server of this class's own.
 */
class BoundedCallsTests {

	private static final Pattern EVALSHA_CALLS = Pattern.compile("cmdstat_evalsha:calls=(\\d+)");

	private RedisTestServer server;

	private DelayQueueFixture fixture;

	private DelayQueueTemplate template;

	private DelayQueueAdmin admin;

	@BeforeEach
	void setUp() {
		this.server = RedisTestServer.startDedicated();
		this.fixture = new DelayQueueFixture(this.server);
		this.template = this.fixture.template();
		this.admin = this.fixture.admin();
	}

	@AfterEach
	void tearDown() {
		this.fixture.close();
		this.server.close();
	}

	@Test
	void sendsABatchOfLargePayloadsInSlicesOfAFewMegabytes() {
		this.template.setMaxPayloadBytes(2 * 1024 * 1024);
		String megabyte = "x".repeat(1024 * 1024);
		List<JobRequest> requests = new ArrayList<>();
		for (int i = 0; i < 10; i++) {
			requests.add(JobRequest.builder("large", megabyte).id("large-" + i).build());
		}
		this.template.send("large", "registers the topic");
		this.server.command("CONFIG", "RESETSTAT");

		List<String> ids = this.template.sendAll(requests);

		assertThat(ids).hasSize(10);
		// Three 1 MB jobs fit in 4 MB, a fourth does not: four calls, none above 4 MB.
		assertThat(evalShaCalls()).isEqualTo(4);
		assertThat(this.admin.stats("large").ready()).isEqualTo(11);
	}

	@Test
	void countsTheSliceInBytesNotCharacters() {
		this.template.setMaxPayloadBytes(2 * 1024 * 1024);
		// 1.4 MB in UTF-8, 0.7 M characters: two jobs fit in 4 MB, three do not.
		String accented = "\u00e9".repeat(700 * 1024);
		List<JobRequest> requests = new ArrayList<>();
		for (int i = 0; i < 10; i++) {
			requests.add(JobRequest.builder("accented", accented).build());
		}
		this.template.send("accented", "registers the topic");
		this.server.command("CONFIG", "RESETSTAT");

		assertThat(this.template.sendAll(requests)).hasSize(10);

		assertThat(evalShaCalls()).isEqualTo(5);
	}

	@Test
	void sendsSmallJobsAThousandPerCall() {
		List<JobRequest> requests = new ArrayList<>();
		for (int i = 0; i < 2500; i++) {
			requests.add(JobRequest.builder("small", i).build());
		}
		this.template.send("small", "registers the topic");
		this.server.command("CONFIG", "RESETSTAT");

		assertThat(this.template.sendAll(requests)).hasSize(2500);

		assertThat(evalShaCalls()).isEqualTo(3);
	}

	@Test
	void readsDeadJobsAThousandPerCall() {
		List<String> ids = buryJobs("graveyard", 2500);
		this.server.command("CONFIG", "RESETSTAT");

		List<JobInfo> all = this.admin.deadJobs("graveyard", 0, 5000);

		assertThat(all).extracting(JobInfo::id).containsExactlyElementsOf(ids);
		assertThat(all).allSatisfy((job) -> assertThat(job.state()).isEqualTo(JobState.DEAD));
		assertThat(evalShaCalls()).isEqualTo(3);
		assertThat(this.admin.deadJobs("graveyard", 1200, 1100)).extracting(JobInfo::id)
			.containsExactlyElementsOf(ids.subList(1200, 2300));
		assertThat(this.admin.deadJobs("graveyard", 2400, 1000)).extracting(JobInfo::id)
			.containsExactlyElementsOf(ids.subList(2400, 2500));
		assertThat(this.admin.deadJobs("graveyard", 3000, 10)).isEmpty();
	}

	@Test
	void thePageScriptReadsAThousandAtMostWhateverItIsAskedFor() {
		buryJobs("graveyard", 1500);
		TopicKeys k = this.fixture.keys().topic("graveyard");

		List<Object> reply = this.fixture.scripts()
			.run(DelayQueueScript.READ_PAGE,
					List.of(k.dead(), k.jobs(), k.attempts(), k.errors(), k.delayed(), k.running(), k.dead()), "zset",
					"0", "0", "1500", "head", String.valueOf(Integer.MAX_VALUE));

		// Where the next call goes on, the jobs still to skip there, no ids counted, then
		// five values per job.
		assertThat(reply).hasSize(3 + 5 * 1000);
		assertThat(reply.get(0)).isEqualTo(1000L);
	}

	@Test
	void handsIdsBackFromTheClaimingListAThousandPerCall() {
		TopicKeys k = this.fixture.keys().topic("orphans");
		List<String> ids = new ArrayList<>();
		for (int i = 0; i < 1500; i++) {
			ids.add("orphan-" + i);
		}
		this.fixture.redis().opsForList().leftPushAll(k.claiming(), ids);
		this.server.command("CONFIG", "RESETSTAT");

		long requeued = new JobClaims(this.fixture.scripts(), this.fixture.keys()).unclaim("orphans", ids);

		assertThat(requeued).isEqualTo(1500);
		assertThat(evalShaCalls()).isEqualTo(2);
		assertThat(this.fixture.redis().opsForList().size(k.ready())).isEqualTo(1500);
		assertThat(this.fixture.redis().opsForList().size(k.claiming())).isZero();
	}

	private List<String> buryJobs(String topic, int count) {
		List<JobRequest> requests = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			requests.add(JobRequest.builder(topic, i).id(String.format("job-%05d", i)).build());
		}
		List<String> ids = this.template.sendAll(requests);
		JobClaims claims = new JobClaims(this.fixture.scripts(), this.fixture.keys());
		List<ClaimedJob> claimed = new ArrayList<>();
		List<ClaimedJob> batch;
		do {
			batch = claims.claim(topic, null, JobClaims.MAX_CLAIM_BATCH, Duration.ofMinutes(1)).jobs();
			claimed.addAll(batch);
		}
		while (!batch.isEmpty());
		assertThat(claimed).hasSize(count);
		// One at a time, in send order, so that the dead set's order is the send order.
		for (String id : ids) {
			ClaimedJob job = claimed.stream().filter((c) -> c.id().equals(id)).findFirst().orElseThrow();
			assertThat(claims.bury(job, "boom")).isTrue();
		}
		return ids;
	}

	private long evalShaCalls() {
		Matcher calls = EVALSHA_CALLS.matcher(this.server.command("INFO", "commandstats"));
		return calls.find() ? Long.parseLong(calls.group(1)) : 0;
	}

}
