package io.github.delayqueue.store;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.delayqueue.store.TopicLimiter.Admission;
import io.github.delayqueue.store.TopicLimiter.Delivery;
import io.github.delayqueue.store.TopicLimiter.Limits;
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
 * when their time to run ends, and a hold.
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
		assertThat(this.limiter.extend("extended", extended.member(), admission.redisNow() + 10_000)).isTrue();
		// Well past the first time to run, the permit is still held.
		await().during(Duration.ofMillis(800))
			.atMost(Duration.ofSeconds(5))
			.until(() -> this.limiter.admit("extended", limits, List.of(delivery("other"))).admitted() == 0);
		this.limiter.release("extended", List.of(extended.member()));
		assertThat(this.limiter.extend("extended", extended.member(), admission.redisNow() + 20_000)).isFalse();
		assertThat(this.limiter.admit("extended", limits, List.of(delivery("other"))).admitted()).isOne();
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

	private static Delivery delivery(String id) {
		return new Delivery(id, 1, Duration.ofSeconds(30));
	}

}
