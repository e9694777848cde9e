package io.github.delayqueue.internal.store;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.delayqueue.internal.store.TopicLimiter.Admission;
import io.github.delayqueue.internal.store.TopicLimiter.Delivery;
import io.github.delayqueue.internal.store.TopicLimiter.Limits;
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
 * A topic's limits across instances as {@code acquire-permits.lua} decides them on a real
 * Redis, by its clock: a sliding window on starts, permits that come back when settled or
 * when their time to run ends, a hold, and each group's own bounds.
 */
@ExtendWith(RedisExtension.class)
class TopicLimiterTests {

	private DelayQueueFixture fixture;

	private TopicLimiter limiter;

	@BeforeEach
	void setUp(RedisTestServer server) {
		server.flushAll();
		this.fixture = new DelayQueueFixture(server);
		this.limiter = new JobClaims(this.fixture.scripts(), this.fixture.keys()).limiter();
	}

	@AfterEach
	void tearDown() {
		this.fixture.close();
	}

	@Test
	void noWindowOfOnePeriodHoldsMoreStartsThanTheLimitWhereverItBegins() throws Exception {
		Limits limits = new Limits(10, Duration.ofMillis(500), 0);
		List<Long> starts = Collections.synchronizedList(new ArrayList<>());
		AtomicInteger ids = new AtomicInteger();
		long end = System.nanoTime() + Duration.ofMillis(1800).toNanos();
		ExecutorService instances = Executors.newFixedThreadPool(3);
		try {
			List<Future<?>> running = new ArrayList<>();
			for (int t = 0; t < 3; t++) {
				running.add(instances.submit(() -> {
					while (System.nanoTime() < end) {
						List<Delivery> batch = new ArrayList<>();
						for (int i = 0; i < 3; i++) {
							batch.add(new Delivery("job-" + ids.incrementAndGet(), 1, Duration.ofSeconds(30)));
						}
						Admission admission = this.limiter.admit("partner", limits, batch);
						for (int i = 0; i < admission.admitted(); i++) {
							starts.add(admission.redisNow());
						}
						if (admission.admitted() < batch.size()) {
							assertThat(admission.retryAfter()).isNotNull()
								.isPositive()
								.isLessThanOrEqualTo(Duration.ofMillis(500));
						}
					}
				}));
			}
			for (Future<?> future : running) {
				future.get();
			}
		}
		finally {
			instances.shutdownNow();
		}
		List<Long> sorted = new ArrayList<>(starts);
		Collections.sort(sorted);
		// Four periods and a bit: the limit was reached in each, so it was used, not just
		// never exceeded.
		assertThat(sorted).hasSizeBetween(31, 40);
		for (int i = 0; i + 10 < sorted.size(); i++) {
			assertThat(sorted.get(i + 10) - sorted.get(i)).as("eleven starts span a whole period")
				.isGreaterThanOrEqualTo(500);
		}
	}

	@Test
	void tellsExactlyWhenTheNextStartIsAllowed() {
		Limits limits = new Limits(2, Duration.ofSeconds(2), 0);
		Admission first = this.limiter.admit("exact", limits, List.of(delivery("a"), delivery("b"), delivery("c")));
		assertThat(first.admitted()).isEqualTo(2);
		assertThat(first.retryAfter()).isEqualTo(Duration.ofSeconds(2));
		Admission refused = this.limiter.admit("exact", limits, List.of(delivery("c")));
		assertThat(refused.admitted()).isZero();
		assertThat(refused.retryAfter().toMillis()).isEqualTo(2000 - (refused.redisNow() - first.redisNow()));
	}

	@Test
	void globalPermitsComeBackWhenReleasedOrWhenTheirTimeToRunEnds() {
		Limits limits = new Limits(0, Duration.ofSeconds(1), 2);
		Delivery a = delivery("a");
		Delivery shortLived = new Delivery("b", 1, Duration.ofMillis(300));
		assertThat(this.limiter.admit("permits", limits, List.of(a, shortLived, delivery("c"))).admitted())
			.isEqualTo(2);
		Admission full = this.limiter.admit("permits", limits, List.of(delivery("c")));
		assertThat(full.admitted()).isZero();
		assertThat(full.retryAfter()).isNull();
		assertThat(this.limiter.release("permits", List.of(a.member()))).isOne();
		assertThat(this.limiter.release("permits", List.of(a.member()))).isZero();
		assertThat(this.limiter.admit("permits", limits, List.of(delivery("c"), delivery("d"))).admitted()).isOne();
		// b's delivery died with its instance: its permit is free once its time to run
		// ends.
		await().atMost(Duration.ofSeconds(5))
			.until(() -> this.limiter.admit("permits", limits, List.of(delivery("d"))).admitted() == 1);
	}

	@Test
	void aPermitWhoseTimeToRunWasExtendedIsHeldAsLong() {
		Limits limits = new Limits(0, Duration.ofSeconds(1), 1);
		Delivery extended = new Delivery("long", 1, Duration.ofMillis(300));
		Admission admission = this.limiter.admit("extended", limits, List.of(extended));
		assertThat(admission.admitted()).isOne();
		assertThat(this.limiter.extend("extended", null, extended.member(), admission.redisNow() + 10_000)).isTrue();
		// Well past the first time to run, the permit is still held.
		await().during(Duration.ofMillis(800))
			.atMost(Duration.ofSeconds(5))
			.until(() -> this.limiter.admit("extended", limits, List.of(delivery("other"))).admitted() == 0);
		this.limiter.release("extended", List.of(extended.member()));
		assertThat(this.limiter.extend("extended", null, extended.member(), admission.redisNow() + 20_000)).isFalse();
		assertThat(this.limiter.admit("extended", limits, List.of(delivery("other"))).admitted()).isOne();
	}

	@Test
	void aGroupAtItsConcurrencyRefusesItsOwnDeliveriesAndNoOtherGroups() {
		Limits limits = new Limits(0, Duration.ofSeconds(1), 0, 2, 0, Duration.ofSeconds(1));
		Delivery a1 = grouped("a1", "a");
		Admission admission = this.limiter.admit("tenants", limits,
				List.of(a1, grouped("a2", "a"), grouped("a3", "a"), grouped("b1", "b"), delivery("plain")));
		assertThat(admission.verdicts()).isEqualTo("aagaa");
		assertThat(admission.admitted()).isEqualTo(4);
		assertThat(admission.refusedByTopic()).isFalse();
		assertThat(admission.groupWaits()).containsOnlyKeys("a").containsEntry("a", null);
		assertThat(this.limiter.admit("tenants", limits, List.of(grouped("a3", "a"))).verdicts()).isEqualTo("g");
		assertThat(this.limiter.release("tenants", "a", List.of(a1.member()))).isOne();
		assertThat(this.limiter.admit("tenants", limits, List.of(grouped("a3", "a"), grouped("a4", "a"))).verdicts())
			.isEqualTo("ag");
		// Jobs without a group are bound by the topic's limits only.
		assertThat(
				this.limiter.admit("tenants", limits, List.of(delivery("x"), delivery("y"), delivery("z"))).verdicts())
			.isEqualTo("aaa");
	}

	@Test
	void aGroupsPermitsComeBackWhenTheirTimeToRunEndsAsWhenTheirInstanceDied() {
		Limits limits = new Limits(0, Duration.ofSeconds(1), 0, 1, 0, Duration.ofSeconds(1));
		Delivery orphan = new Delivery("orphan", 1, Duration.ofMillis(300), "a");
		assertThat(this.limiter.admit("died", limits, List.of(orphan)).verdicts()).isEqualTo("a");
		assertThat(this.limiter.admit("died", limits, List.of(grouped("next", "a"))).verdicts()).isEqualTo("g");
		// Nobody gives the orphan's permit back: it is free once its time to run ends.
		await().atMost(Duration.ofSeconds(5))
			.until(() -> this.limiter.admit("died", limits, List.of(grouped("next", "a"))).admits(0));
	}

	@Test
	void eachGroupHasASlidingWindowOfItsOwnAndSaysWhenItAdmitsAgain() {
		Limits limits = new Limits(0, Duration.ofSeconds(1), 0, 0, 2, Duration.ofSeconds(2));
		Admission first = this.limiter.admit("windows", limits,
				List.of(grouped("a1", "a"), grouped("a2", "a"), grouped("a3", "a"), grouped("b1", "b")));
		assertThat(first.verdicts()).isEqualTo("aaga");
		assertThat(first.groupWaits()).containsOnlyKeys("a");
		assertThat(first.groupWaits().get("a")).isEqualTo(Duration.ofSeconds(2));
		Admission later = this.limiter.admit("windows", limits, List.of(grouped("a3", "a"), grouped("b2", "b")));
		assertThat(later.verdicts()).isEqualTo("ga");
		assertThat(later.groupWaits().get("a").toMillis()).isEqualTo(2000 - (later.redisNow() - first.redisNow()));
		await().atMost(Duration.ofSeconds(5))
			.until(() -> this.limiter.admit("windows", limits, List.of(grouped("a3", "a"))).admits(0));
	}

	@Test
	void theTopicsBoundsAndTheGroupsHoldTogether() {
		Limits limits = new Limits(0, Duration.ofSeconds(1), 3, 2, 0, Duration.ofSeconds(1));
		Admission admission = this.limiter.admit("both", limits, List.of(grouped("a1", "a"), grouped("a2", "a"),
				grouped("a3", "a"), grouped("b1", "b"), grouped("b2", "b")));
		assertThat(admission.verdicts()).isEqualTo("aagat");
		assertThat(admission.refusedByTopic()).isTrue();
		assertThat(admission.retryAfter()).isNull();
		assertThat(admission.groupWaits()).containsOnlyKeys("a");
	}

	@Test
	void aGroupPermitWhoseTimeToRunWasExtendedIsHeldAsLong() {
		Limits limits = new Limits(0, Duration.ofSeconds(1), 0, 1, 0, Duration.ofSeconds(1));
		Delivery extended = new Delivery("long", 1, Duration.ofMillis(300), "a");
		Admission admission = this.limiter.admit("extended-group", limits, List.of(extended));
		assertThat(admission.admitted()).isOne();
		assertThat(this.limiter.extend("extended-group", "a", extended.member(), admission.redisNow() + 10_000))
			.isTrue();
		await().during(Duration.ofMillis(800))
			.atMost(Duration.ofSeconds(5))
			.until(() -> !this.limiter.admit("extended-group", limits, List.of(grouped("other", "a"))).admits(0));
		this.limiter.release("extended-group", "a", List.of(extended.member()));
		assertThat(this.limiter.extend("extended-group", "a", extended.member(), admission.redisNow() + 20_000))
			.isFalse();
	}

	@Test
	void aHoldAdmitsNothingUntilItEndsAndIsNeverCutShort() {
		Limits limits = new Limits(0, Duration.ofSeconds(1), 0);
		assertThat(this.limiter.hold("held", Duration.ofSeconds(5))).isGreaterThan(Duration.ofSeconds(4));
		assertThat(this.limiter.hold("held", Duration.ofMillis(10))).isGreaterThan(Duration.ofSeconds(4));
		Admission held = this.limiter.admit("held", limits, List.of(delivery("a")));
		assertThat(held.admitted()).isZero();
		assertThat(held.retryAfter()).isGreaterThan(Duration.ofSeconds(4));
		this.fixture.redis().delete("{dq:held}:held");
		assertThat(this.limiter.admit("held", limits, List.of(delivery("a"))).admitted()).isOne();
	}

	@Test
	void theRateLimitsStateGrowsWithTimeNotWithTheStartsItCounts(RedisTestServer server) {
		Limits limits = new Limits(1_000_000_000, Duration.ofSeconds(1), 0);
		server.command("CONFIG", "RESETSTAT");
		long first = -1;
		long last = 0;
		for (int call = 0; call < 50; call++) {
			List<Delivery> batch = new ArrayList<>();
			for (int i = 0; i < 1000; i++) {
				batch.add(delivery("job-" + call + "-" + i));
			}
			Admission admission = this.limiter.admit("huge", limits, batch);
			assertThat(admission.admitted()).isEqualTo(1000);
			first = (first < 0) ? admission.redisNow() : first;
			last = admission.redisNow();
		}
		// 50,000 starts within one period, all counting: the state holds at most one
		// entry per millisecond they took, not one per start.
		long millis = last - first + 1;
		assertThat(memoryUsage(server, "{dq:huge}:*")).isLessThan(64 * 1024);
		assertThat(this.fixture.redis().keys("{dq:huge}:*")).singleElement()
			.satisfies((key) -> assertThat(this.fixture.redis().opsForList().size(key))
				.isLessThanOrEqualTo(Math.min(millis, 1000) + 1));
		// Each call ran a handful of commands, whatever it admitted.
		assertThat(commandCalls(server) - 50).isLessThanOrEqualTo(50 * 8);
		assertThat(this.limiter.admit("huge", limits, List.of(delivery("one-more"))).admitted()).isOne();
	}

	@Test
	void aBucketCoarserThanAMillisecondNeverAdmitsBeforeItsStartsLeftTheWindow() {
		// A period of 30 s counts starts in buckets of 3 ms.
		Limits limits = new Limits(2, Duration.ofSeconds(30), 0);
		Admission first = this.limiter.admit("coarse", limits, List.of(delivery("a"), delivery("b"), delivery("c")));
		assertThat(first.admitted()).isEqualTo(2);
		// The bucket counts until a whole period after its last start.
		assertThat(first.retryAfter().toMillis()).isEqualTo(30_000L);
		Admission refused = this.limiter.admit("coarse", limits, List.of(delivery("c")));
		assertThat(refused.admitted()).isZero();
		assertThat(refused.retryAfter().toMillis()).isEqualTo(first.redisNow() + 30_000 - refused.redisNow());
	}

	@Test
	void aStartCountedForALongerPeriodKeepsCountingWhenLaterCallsCountAShorterOne() {
		// A caller counts each admission for the period plus its start window, which
		// widens while Redis answers slowly and narrows again.
		Admission wide = this.limiter.admit("mixed", new Limits(2, Duration.ofSeconds(5), 0), List.of(delivery("a")));
		assertThat(wide.admitted()).isOne();
		Limits narrow = new Limits(2, Duration.ofMillis(100), 0);
		Admission second = this.limiter.admit("mixed", narrow, List.of(delivery("b")));
		assertThat(second.admitted()).isOne();
		await().atMost(Duration.ofSeconds(5))
			.until(() -> this.fixture.scripts().serverTime() > second.redisNow() + 150);
		Admission third = this.limiter.admit("mixed", narrow, List.of(delivery("c")));
		assertThat(third.admitted()).isZero();
		assertThat(third.retryAfter().toMillis()).isEqualTo(wide.redisNow() + 5000 - third.redisNow());
	}

	private long memoryUsage(RedisTestServer server, String pattern) {
		long bytes = 0;
		for (String key : this.fixture.redis().keys(pattern)) {
			// An integer reply: ":<bytes>".
			bytes += Long.parseLong(server.command("MEMORY", "USAGE", key).substring(1).trim());
		}
		return bytes;
	}

	// Every command run since the statistics were reset, those of the scripts included.
	private static long commandCalls(RedisTestServer server) {
		Matcher calls = Pattern.compile("cmdstat_(\\w+):calls=(\\d+)").matcher(server.command("INFO", "commandstats"));
		long total = 0;
		while (calls.find()) {
			if (!calls.group(1).equals("info")) {
				total += Long.parseLong(calls.group(2));
			}
		}
		return total;
	}

	private static Delivery delivery(String id) {
		return new Delivery(id, 1, Duration.ofSeconds(30));
	}

	private static Delivery grouped(String id, String group) {
		return new Delivery(id, 1, Duration.ofSeconds(30), group);
	}

}
