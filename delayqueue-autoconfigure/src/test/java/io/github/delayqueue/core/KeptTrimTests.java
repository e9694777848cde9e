package io.github.delayqueue.core;

import java.time.Duration;
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

import org.springframework.data.redis.core.script.DefaultRedisScript;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A count cap lowered under a large set of kept finished jobs: each call that finishes a
 * job drops a bounded number of the surplus, never the whole of it in one script, and the
 * surplus goes over the next calls or the scheduler's trim, none of which holds Redis for
 * long.
 */
@ExtendWith(RedisExtension.class)
class KeptTrimTests {

	private static final String TOPIC = "receipts";

	private static final String INSTANCE = "host-a:42";

	/**
	 * The most kept jobs one script call drops ({@code KEPT_DROP_BUDGET} in
	 * {@code lib/kept.lua}).
	 */
	private static final int BUDGET = 1000;

	private static final Duration RETENTION = Duration.ofHours(1);

	// Writes kept jobs as acknowledgements of 100 jobs each would, far faster than
	// sending, claiming and acknowledging them: KEYS finished, completed list, counts;
	// ARGV a kept entry, its finish ms, the first index, how many.
	private static final DefaultRedisScript<Long> BULK_KEPT = new DefaultRedisScript<>("""
			local value, at, first, n = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
			for i = first, first + n - 1, 100 do
			  local ids, fields = {}, {}
			  for j = i, math.min(i + 99, first + n - 1) do
			    ids[#ids + 1] = 'bulk-' .. j
			    fields[#fields + 1] = 'bulk-' .. j
			    fields[#fields + 1] = value
			  end
			  redis.call('HSET', KEYS[1], unpack(fields))
			  redis.call('RPUSH', KEYS[2], cmsgpack.pack({at, ids}))
			end
			redis.call('HINCRBY', KEYS[3], 'C', n)
			return n
			""", Long.class);

	private RedisTestServer server;

	private DelayQueueFixture fixture;

	private TopicKeys k;

	private JobHistoryWiring wiring;

	private JobStore store;

	@BeforeEach
	void setUp(RedisTestServer server) {
		server.flushAll();
		this.server = server;
		this.fixture = new DelayQueueFixture(server);
		this.k = this.fixture.keys().topic(TOPIC);
	}

	@AfterEach
	void tearDown() {
		this.fixture.close();
	}

	@Test
	void anAcknowledgementDropsABoundedPartOfTheSurplusAndTheNextOnesTheRest() {
		int size = 5_000;
		keepMany(size);
		use(10);

		finishOne("next-0");

		// The seed, the bulk and the new job, less one call's budget.
		assertThat(kept()).isEqualTo(size + 2 - BUDGET);
		assertThat(this.wiring.admin().countKept(TOPIC, JobState.COMPLETED)).isEqualTo(kept());
		int acknowledgements = 1;
		while (kept() > 10) {
			finishOne("next-" + acknowledgements);
			acknowledgements++;
			assertThat(acknowledgements).as("acknowledgements to converge").isLessThanOrEqualTo(size / BUDGET + 2);
		}
		assertThat(kept()).isEqualTo(10);
		assertThat(this.wiring.admin().countKept(TOPIC, JobState.COMPLETED)).isEqualTo(10);
		assertThat(this.wiring.template().find(TOPIC, "next-0")).isPresent();
		assertThat(this.wiring.template().find(TOPIC, "bulk-0")).isEmpty();
	}

	@Test
	void theTrimDropsTheSurplusLeftWhenNoJobFinishes() {
		int size = 5_000;
		keepMany(size);
		use(10);
		finishOne("last");
		assertThat(kept()).isEqualTo(size + 2 - BUDGET);

		int calls = this.store.trimKept(TOPIC, 100);

		assertThat(kept()).isEqualTo(10);
		assertThat(this.wiring.admin().countKept(TOPIC, JobState.COMPLETED)).isEqualTo(10);
		assertThat(calls).isBetween((size + 2 - BUDGET - 10) / BUDGET, (size + 2 - BUDGET - 10) / BUDGET + 1);
		assertThat(this.wiring.template().find(TOPIC, "last")).isPresent();
		assertThat(this.wiring.template().find(TOPIC, "bulk-" + (size - 1))).isPresent();
		assertThat(this.wiring.template().find(TOPIC, "bulk-" + (size - 10))).isEmpty();
		assertThat(this.store.trimKept(TOPIC, 100)).as("nothing left to drop: one call").isEqualTo(1);
	}

	/**
	 * 300,000 kept jobs and a count cap lowered to 10: no command of the acknowledgement
	 * nor of the trim that follows shows in the Redis slow log at 50 ms. Dropping the
	 * whole surplus in one script takes well over twice that; a bounded part takes a
	 * small fraction of it, so a Redis slowed down by the other test JVMs on the machine
	 * does not reach it either. The set is written before the slow log is cleared and
	 * armed.
	 */
	@Test
	void droppingThreeHundredThousandKeptJobsRunsNoCommandOverFiftyMilliseconds() {
		int size = 300_000;
		keepMany(size);
		use(10);
		String before = configValue(this.server.command("CONFIG", "GET", "slowlog-log-slower-than"));
		this.server.command("CONFIG", "SET", "slowlog-log-slower-than", "50000");
		try {
			this.server.command("SLOWLOG", "RESET");
			finishOne("next");
			assertNothingSlow("the acknowledgement");
			this.store.trimKept(TOPIC, 1000);
			assertNothingSlow("the trim");
			assertThat(kept()).isEqualTo(10);
		}
		finally {
			this.server.command("CONFIG", "SET", "slowlog-log-slower-than", before);
		}
	}

	// A topic that keeps up to a million jobs, holding one real kept job and 'size' more
	// of its copies.
	private void keepMany(int size) {
		use(1_000_000);
		finishOne("seed");
		String value = (String) this.fixture.redis().opsForHash().get(this.k.finished(), "seed");
		assertThat(value).startsWith("C|");
		String at = String.valueOf(Long.parseLong(value.split("\\|")[1], 36));
		for (int first = 0; first < size; first += 10_000) {
			this.fixture.redis()
				.execute(BULK_KEPT, List.of(this.k.finished(), this.k.completed(), this.k.finishedCounts()), value, at,
						String.valueOf(first), String.valueOf(Math.min(10_000, size - first)));
		}
		assertThat(kept()).isEqualTo(size + 1);
		assertThat(this.wiring.admin().countKept(TOPIC, JobState.COMPLETED)).isEqualTo(size + 1);
	}

	private void use(int maxCount) {
		JobHistoryPolicy policy = new JobHistoryPolicy(RETENTION, maxCount);
		this.wiring = JobHistoryWiring.of(this.fixture, this.fixture.keys(), policy, INSTANCE);
		this.store = new JobStore(this.fixture.scripts(), this.fixture.keys(), this.fixture.codec());
		this.store.setJobHistory(new JobHistory((topic) -> policy, INSTANCE));
	}

	private void finishOne(String id) {
		this.wiring.send(TOPIC, id);
		ClaimedJob delivery = this.wiring.claimOne(TOPIC);
		assertThat(this.wiring.claims().ack(TOPIC, List.of(delivery))).containsExactly(true);
	}

	private long kept() {
		return this.fixture.redis().opsForHash().size(this.k.finished());
	}

	private void assertNothingSlow(String what) {
		assertThat(this.server.command("SLOWLOG", "LEN").trim())
			.as("slow log after %s: %s", what, this.server.command("SLOWLOG", "GET", "10"))
			.isEqualTo(":0");
	}

	private static String configValue(String reply) {
		// *2 $n name $m value
		String[] lines = reply.split("\r\n");
		return lines[lines.length - 1];
	}

}
