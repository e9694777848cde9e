package io.github.delayqueue.internal.history;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.delayqueue.internal.history.ThroughputHistory.Bucket;
import io.github.delayqueue.test.DelayQueueFixture;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Counts written by several instances land in shared minute and day buckets in Redis,
 * read back per topic or for all topics, and expire after their retention.
 */
@ExtendWith(RedisExtension.class)
class ThroughputHistoryTests {

	private static final List<String> READ_COMMANDS = List.of("get", "mget", "hget", "hmget", "hgetall", "hscan",
			"hkeys", "hvals", "scan", "keys", "exists", "type");

	private static final Instant NOON = Instant.parse("2026-11-23T12:00:30Z");

	private DelayQueueFixture fixture;

	private RedisTestServer server;

	@BeforeEach
	void setUp(RedisTestServer server) {
		server.flushAll();
		this.server = server;
		this.fixture = new DelayQueueFixture(server);
	}

	@AfterEach
	void tearDown() {
		this.fixture.close();
	}

	@Test
	void sumsTheCountsOfEveryInstanceIntoTheCurrentMinuteAndDay() {
		ThroughputHistory one = history(NOON);
		ThroughputHistory two = history(NOON.plusSeconds(20));
		one.record(Map.of("orders", Map.of(Outcome.COMPLETED, 5L, Outcome.FAILED, 2L), "mail",
				Map.of(Outcome.COMPLETED, 1L)));
		two.record(Map.of("orders", Map.of(Outcome.COMPLETED, 3L, Outcome.RETRIED, 2L, Outcome.DEAD, 1L)));

		List<Bucket> hour = one.lastHour(null);
		assertThat(hour).hasSize(60);
		assertThat(hour.get(59)).isEqualTo(new Bucket(Instant.parse("2026-11-23T12:00:00Z"), 9, 2, 2, 1));
		assertThat(hour.get(58)).isEqualTo(new Bucket(Instant.parse("2026-11-23T11:59:00Z"), 0, 0, 0, 0));
		assertThat(one.lastHour("orders").get(59)).isEqualTo(new Bucket(hour.get(59).start(), 8, 2, 2, 1));
		assertThat(one.lastHour("mail").get(59).completed()).isEqualTo(1);
		List<Bucket> month = one.lastDays(30, null);
		assertThat(month).hasSize(30);
		assertThat(month.get(29)).isEqualTo(new Bucket(Instant.parse("2026-11-23T00:00:00Z"), 9, 2, 2, 1));
	}

	@Test
	void movesOnWithTheClock() {
		history(NOON).record(Map.of("orders", Map.of(Outcome.COMPLETED, 4L)));
		List<Bucket> later = history(NOON.plus(Duration.ofMinutes(10))).lastHour(null);
		assertThat(later.get(59).completed()).isZero();
		assertThat(later.get(49).completed()).isEqualTo(4);
		assertThat(history(NOON.plus(Duration.ofDays(1))).lastDays(2, null)).extracting(Bucket::completed)
			.containsExactly(4L, 0L);
	}

	@Test
	void keepsMinutesTwoDaysAndDaysNinetyDays() {
		history(NOON).record(Map.of("orders", Map.of(Outcome.COMPLETED, 1L)));
		Long minuteTtl = this.fixture.redis().getExpire("dq:history:minute:" + NOON.getEpochSecond() / 60);
		Long dayTtl = this.fixture.redis().getExpire("dq:history:day:" + NOON.getEpochSecond() / 86400);
		assertThat(minuteTtl).isBetween(Duration.ofHours(47).toSeconds(), Duration.ofHours(48).toSeconds());
		assertThat(dayTtl).isBetween(Duration.ofDays(89).toSeconds(), Duration.ofDays(90).toSeconds());
	}

	@Test
	void refusesDaysOutsideTheRetention() {
		assertThatIllegalArgumentException().isThrownBy(() -> history(NOON).lastDays(91, null))
			.withMessageContaining("91");
		assertThatIllegalArgumentException().isThrownBy(() -> history(NOON).lastDays(0, null))
			.withMessageContaining("0");
	}

	@Test
	void readsADayOfMinutesInOneRoundTripOfAFewCommands() {
		history(NOON.minus(Duration.ofDays(2))).record(Map.of("orders", Map.of(Outcome.COMPLETED, 1L)));
		history(NOON.minus(Duration.ofHours(5))).record(Map.of("orders", Map.of(Outcome.COMPLETED, 2L)));
		history(NOON).record(Map.of("orders", Map.of(Outcome.FAILED, 3L), "mail", Map.of(Outcome.COMPLETED, 4L)));
		ThroughputHistory history = history(NOON);
		this.server.command("CONFIG", "RESETSTAT");

		List<Bucket> day = history.lastMinutes(24 * 60, null);

		long commands = commandsSinceReset();
		assertThat(day).hasSize(24 * 60);
		assertThat(day.get(24 * 60 - 1)).isEqualTo(new Bucket(Instant.parse("2026-11-23T12:00:00Z"), 4, 3, 0, 0));
		assertThat(day.get(24 * 60 - 1 - 5 * 60))
			.isEqualTo(new Bucket(Instant.parse("2026-11-23T07:00:00Z"), 2, 0, 0, 0));
		assertThat(day.stream().mapToLong(Bucket::completed).sum()).isEqualTo(6);
		assertThat(history.lastMinutes(24 * 60, "orders").get(24 * 60 - 1).failed()).isEqualTo(3);
		// A GET and one HGETALL per hour of the day's 25.
		assertThat(commands).as("commands of one day's read").isLessThanOrEqualTo(26);
	}

	@Test
	void readsTheMinutesOfHoursWrittenBeforeTheHourlyHashesFromTheirOwnHashes() {
		long twoHoursAgo = NOON.minus(Duration.ofHours(2)).getEpochSecond() / 60;
		this.fixture.redis().opsForHash().increment("dq:history:minute:" + twoHoursAgo, "orders|completed", 7);
		history(NOON).record(Map.of("orders", Map.of(Outcome.COMPLETED, 1L)));

		List<Bucket> day = history(NOON).lastMinutes(24 * 60, "orders");

		assertThat(day.get(24 * 60 - 1 - 120).completed()).isEqualTo(7);
		assertThat(day.get(24 * 60 - 1).completed()).isEqualTo(1);
		assertThat(history(NOON.plus(Duration.ofHours(1))).lastMinutes(24 * 60, "orders")).extracting(Bucket::completed)
			.containsOnly(0L, 1L, 7L);
	}

	// The calls since CONFIG RESETSTAT of the commands a history read could use. The
	// test server is shared: an application context cached by another test class may
	// still run its chores meanwhile, so other commands are not counted.
	private long commandsSinceReset() {
		String stats = this.server.command("INFO", "commandstats");
		Matcher matcher = Pattern.compile("cmdstat_([a-z|]+):calls=(\\d+)").matcher(stats);
		long calls = 0;
		while (matcher.find()) {
			if (READ_COMMANDS.contains(matcher.group(1))) {
				calls += Long.parseLong(matcher.group(2));
			}
		}
		return calls;
	}

	private ThroughputHistory history(Instant now) {
		return new ThroughputHistory(this.fixture.redis(), "dq", Clock.fixed(now, ZoneOffset.UTC));
	}

}
