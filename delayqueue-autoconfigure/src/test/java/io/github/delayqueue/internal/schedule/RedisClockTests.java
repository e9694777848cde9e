package io.github.delayqueue.internal.schedule;

import java.time.Clock;
import java.time.Duration;

import io.github.delayqueue.test.DelayQueueFixture;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The schedule loop's estimate of the Redis clock, against a real server: measured with a
 * round trip, it is right to well within a millisecond whatever this instance's own clock
 * says, and script replies, which show the Redis time in whole milliseconds, do not
 * override a recent measurement unless they show the estimate wrong.
 */
@ExtendWith(RedisExtension.class)
class RedisClockTests {

	// The estimate's error allowed here: the round trip's length on a busy test machine.
	private static final long TOLERANCE_MICROS = 3_000;

	private DelayQueueFixture fixture;

	@BeforeEach
	void setUp(RedisTestServer server) {
		this.fixture = new DelayQueueFixture(server);
	}

	@AfterEach
	void tearDown() {
		this.fixture.close();
	}

	@Test
	void aMeasuredEstimateMatchesTheRedisClockWhateverTheLocalClockSays() {
		for (Duration skew : new Duration[] { Duration.ZERO, Duration.ofMinutes(7), Duration.ofMinutes(-3) }) {
			RedisClock clock = new RedisClock();
			clock.setClock(Clock.offset(Clock.systemUTC(), skew));
			assertThat(clock.needsMeasuring()).isTrue();

			clock.measure(this.fixture.scripts()::serverTimeMicros);

			assertThat(clock.needsMeasuring()).isFalse();
			assertThat(errorMicros(clock)).as("skew %s", skew).isLessThan(TOLERANCE_MICROS);
		}
	}

	@Test
	void aReplyDoesNotOverrideARecentMeasurementUnlessItShowsTheEstimateWrong() {
		RedisClock clock = new RedisClock();
		clock.measure(this.fixture.scripts()::serverTimeMicros);
		long redisMillis = this.fixture.scripts().serverTime();

		clock.observed(redisMillis - 1);

		assertThat(clock.needsMeasuring()).as("a reply a millisecond old changes nothing").isFalse();
		assertThat(errorMicros(clock)).isLessThan(TOLERANCE_MICROS);

		clock.observed(this.fixture.scripts().serverTime() + 60_000);

		assertThat(clock.needsMeasuring()).as("a reply a minute ahead of the estimate is taken").isTrue();
		assertThat(clock.nanosUntil(this.fixture.scripts().serverTime() * 1000)).isLessThan(-59_000_000_000L);
	}

	@Test
	void anUnmeasuredEstimateFollowsTheReplies() {
		RedisClock clock = new RedisClock();
		clock.setClock(Clock.offset(Clock.systemUTC(), Duration.ofMinutes(5)));

		clock.observed(this.fixture.scripts().serverTime());

		assertThat(errorMicros(clock)).isLessThan(TOLERANCE_MICROS);
		assertThat(clock.needsMeasuring()).isTrue();
	}

	// How far the estimate is from the Redis time read right after it: the least of a few
	// reads, as one read that waits for a busy machine is off by its own wait.
	private long errorMicros(RedisClock clock) {
		long least = Long.MAX_VALUE;
		for (int i = 0; i < 5; i++) {
			long untilRedisNow = clock.nanosUntil(this.fixture.scripts().serverTimeMicros()) / 1000;
			least = Math.min(least, Math.abs(untilRedisNow));
		}
		return least;
	}

}
