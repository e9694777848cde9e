package io.github.delayqueue.internal.history;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Throughput per minute and per day in Redis, written by every instance and read by any:
 * one hash per hour holding its minutes ({@code <prefix>:history:hour:<epoch hour>},
 * fields {@code <minute of the hour>|<topic>|<outcome>}, kept 48 hours), so that a day of
 * minutes is read from 25 hashes rather than 1,440, and one per day
 * ({@code <prefix>:history:day:<epoch day>}, fields {@code <topic>|<outcome>}, kept 90
 * days); the values count jobs. Each minute also goes to a hash of its own
 * ({@code <prefix>:history:minute:<epoch minute>}, as earlier versions wrote and read
 * them): the hours before the first written by this version
 * ({@code <prefix>:history:hours-since}) are read from those. Buckets follow the writing
 * instance's clock; a count may land in the neighbouring minute of another instance's,
 * which a chart of minutes cannot show.
 *
 * @author delayqueue contributors
 */
public class ThroughputHistory {

	/**
	 * How long minute buckets are kept.
	 */
	public static final Duration MINUTES_KEPT = Duration.ofHours(48);

	/**
	 * How long day buckets are kept.
	 */
	public static final Duration DAYS_KEPT = Duration.ofDays(90);

	private static final long SECONDS_PER_DAY = TimeUnit.DAYS.toSeconds(1);

	private final StringRedisTemplate redis;

	private final String keyPrefix;

	private final Clock clock;

	/**
	 * Create the history.
	 * @param redis where the buckets live
	 * @param keyPrefix the key prefix of the delay queue
	 * @param clock the clock that decides a count's bucket
	 */
	public ThroughputHistory(StringRedisTemplate redis, String keyPrefix, Clock clock) {
		this.redis = redis;
		this.keyPrefix = keyPrefix;
		this.clock = clock;
	}

	/**
	 * Add counts to the current minute and day, in one pipelined round trip.
	 * @param counts per topic, the counts by outcome
	 */
	public void record(Map<String, Map<Outcome, Long>> counts) {
		if (counts.isEmpty()) {
			return;
		}
		long second = this.clock.instant().getEpochSecond();
		long epochMinute = Math.floorDiv(second, 60);
		long epochHour = Math.floorDiv(epochMinute, 60);
		byte[] minute = bytes(minuteKey(epochMinute));
		byte[] hour = bytes(hourKey(epochHour));
		String minuteOfHour = Math.floorMod(epochMinute, 60) + "|";
		byte[] day = bytes(dayKey(Math.floorDiv(second, SECONDS_PER_DAY)));
		this.redis.executePipelined((RedisCallback<Object>) (connection) -> {
			counts.forEach((topic, byOutcome) -> byOutcome.forEach((outcome, count) -> {
				String field = topic + "|" + outcome.label();
				connection.hashCommands().hIncrBy(minute, bytes(field), count);
				connection.hashCommands().hIncrBy(hour, bytes(minuteOfHour + field), count);
				connection.hashCommands().hIncrBy(day, bytes(field), count);
			}));
			connection.keyCommands().expire(minute, MINUTES_KEPT.toSeconds());
			connection.keyCommands().expire(hour, MINUTES_KEPT.toSeconds());
			connection.keyCommands().expire(day, DAYS_KEPT.toSeconds());
			connection.stringCommands().setNX(bytes(hoursSinceKey()), bytes(String.valueOf(epochHour)));
			return null;
		});
	}

	/**
	 * Read the last 60 minutes, the current one last.
	 * @param topic one topic, or {@code null} for all of them together
	 * @return 60 buckets, oldest first
	 */
	public List<Bucket> lastHour(@Nullable String topic) {
		return lastMinutes(60, topic);
	}

	/**
	 * Read the last minutes, the current one last, in one pipelined round trip of one
	 * command per hour they touch (and a second one, of one command per minute, for the
	 * hours before this version wrote its first).
	 * @param minutes how many minutes, 1 to those of {@link #MINUTES_KEPT}
	 * @param topic one topic, or {@code null} for all of them together
	 * @return one bucket per minute, oldest first
	 */
	public List<Bucket> lastMinutes(int minutes, @Nullable String topic) {
		if (minutes < 1 || minutes > MINUTES_KEPT.toMinutes()) {
			throw new IllegalArgumentException("Minutes must be 1 to " + MINUTES_KEPT.toMinutes() + ", was " + minutes);
		}
		long current = Math.floorDiv(this.clock.instant().getEpochSecond(), 60);
		long first = current - minutes + 1;
		long firstHour = Math.floorDiv(first, 60);
		long lastHour = Math.floorDiv(current, 60);
		List<Object> replies = this.redis.executePipelined((RedisCallback<Object>) (connection) -> {
			connection.stringCommands().get(bytes(hoursSinceKey()));
			for (long hour = firstHour; hour <= lastHour; hour++) {
				hashAll(connection, hourKey(hour));
			}
			return null;
		});
		Object since = replies.get(0);
		// Hours up to the first this version wrote hold only part of their minutes, or
		// none.
		long byMinute = (since != null) ? Long.parseLong(String.valueOf(since)) : lastHour;
		List<Map<String, Object>> byHour = new ArrayList<>();
		for (int i = 1; i < replies.size(); i++) {
			byHour.add(minutesOfHour(replies.get(i)));
		}
		List<String> oldKeys = new ArrayList<>();
		List<Instant> oldStarts = new ArrayList<>();
		for (long minute = first; minute <= current && Math.floorDiv(minute, 60) <= byMinute; minute++) {
			oldKeys.add(minuteKey(minute));
			oldStarts.add(Instant.ofEpochSecond(minute * 60));
		}
		List<Bucket> buckets = new ArrayList<>(minutes);
		buckets.addAll(oldKeys.isEmpty() ? List.of() : read(oldKeys, oldStarts, topic));
		for (long minute = first + oldKeys.size(); minute <= current; minute++) {
			Map<String, Object> hour = byHour.get((int) (Math.floorDiv(minute, 60) - firstHour));
			Object fields = hour.get(String.valueOf(Math.floorMod(minute, 60)));
			buckets.add(Bucket.of(Instant.ofEpochSecond(minute * 60),
					(fields instanceof Map<?, ?> map) ? map : Map.of(), topic));
		}
		return buckets;
	}

	// An hour's hash as a map from the minute of the hour to that minute's fields.
	private static Map<String, Object> minutesOfHour(@Nullable Object reply) {
		Map<String, Object> minutes = new HashMap<>();
		if (reply instanceof Map<?, ?> hash) {
			hash.forEach((field, value) -> {
				String name = String.valueOf(field);
				int bar = name.indexOf('|');
				if (bar > 0) {
					@SuppressWarnings("unchecked")
					Map<String, Object> fields = (Map<String, Object>) minutes.computeIfAbsent(name.substring(0, bar),
							(minute) -> new HashMap<String, Object>());
					fields.put(name.substring(bar + 1), value);
				}
			});
		}
		return minutes;
	}

	/**
	 * Read the last days, today last.
	 * @param days how many days, 1 to 90
	 * @param topic one topic, or {@code null} for all of them together
	 * @return one bucket per day, oldest first
	 */
	public List<Bucket> lastDays(int days, @Nullable String topic) {
		if (days < 1 || days > DAYS_KEPT.toDays()) {
			throw new IllegalArgumentException("Days must be 1 to " + DAYS_KEPT.toDays() + ", was " + days);
		}
		long today = Math.floorDiv(this.clock.instant().getEpochSecond(), SECONDS_PER_DAY);
		List<String> keys = new ArrayList<>();
		List<Instant> starts = new ArrayList<>();
		for (long day = today - days + 1; day <= today; day++) {
			keys.add(dayKey(day));
			starts.add(Instant.ofEpochSecond(day * SECONDS_PER_DAY));
		}
		return read(keys, starts, topic);
	}

	private List<Bucket> read(List<String> keys, List<Instant> starts, @Nullable String topic) {
		List<Object> hashes = this.redis.executePipelined((RedisCallback<Object>) (connection) -> {
			keys.forEach((key) -> hashAll(connection, key));
			return null;
		});
		List<Bucket> buckets = new ArrayList<>(keys.size());
		for (int i = 0; i < keys.size(); i++) {
			buckets.add(Bucket.of(starts.get(i), (hashes.get(i) instanceof Map<?, ?> hash) ? hash : Map.of(), topic));
		}
		return buckets;
	}

	private static void hashAll(RedisConnection connection, String key) {
		connection.hashCommands().hGetAll(bytes(key));
	}

	private String minuteKey(long epochMinute) {
		return this.keyPrefix + ":history:minute:" + epochMinute;
	}

	private String hourKey(long epochHour) {
		return this.keyPrefix + ":history:hour:" + epochHour;
	}

	private String hoursSinceKey() {
		return this.keyPrefix + ":history:hours-since";
	}

	private String dayKey(long epochDay) {
		return this.keyPrefix + ":history:day:" + epochDay;
	}

	private static byte[] bytes(String value) {
		return value.getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * The counts of one minute or day.
	 *
	 * @param start when the bucket starts
	 * @param completed jobs completed
	 * @param failed failed deliveries
	 * @param retried jobs scheduled for another attempt
	 * @param dead jobs that became dead
	 */
	public record Bucket(Instant start, long completed, long failed, long retried, long dead) {

		static Bucket of(Instant start, Map<?, ?> hash, @Nullable String topic) {
			Map<Outcome, Long> sums = new EnumMap<>(Outcome.class);
			hash.forEach((field, value) -> {
				String name = String.valueOf(field);
				int bar = name.lastIndexOf('|');
				if (bar < 0 || (topic != null && !topic.equals(name.substring(0, bar)))) {
					return;
				}
				for (Outcome outcome : Outcome.values()) {
					if (outcome.label().equals(name.substring(bar + 1))) {
						sums.merge(outcome, Long.parseLong(String.valueOf(value)), Long::sum);
					}
				}
			});
			return new Bucket(start, sums.getOrDefault(Outcome.COMPLETED, 0L), sums.getOrDefault(Outcome.FAILED, 0L),
					sums.getOrDefault(Outcome.RETRIED, 0L), sums.getOrDefault(Outcome.DEAD, 0L));
		}

	}

}
