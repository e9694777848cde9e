package io.github.delayqueue.internal.schedule;

import java.time.Duration;
import java.util.List;

import io.github.delayqueue.autoconfigure.DelayQueueSchedulesAutoConfiguration;
import io.github.delayqueue.core.DelayQueueSchedules;
import io.github.delayqueue.core.ScheduleInfo;
import io.github.delayqueue.core.ScheduleInfo.TickOutcome;
import io.github.delayqueue.test.DelayQueueContextRunner;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Ticks that fell due while no instance ran follow the schedule's misfire policy:
 * {@code fire-once} runs the latest of them once, {@code skip} none, {@code fire-all}
 * each up to its limit, the latest ones, oldest first. Each test runs an every-second
 * schedule, stops its only instance for at least four ticks, and starts it again.
 */
@ExtendWith(RedisExtension.class)
class ScheduleMisfireTests {

	private static final String TOPIC = "misfire";

	private RedisTestServer server;

	@BeforeEach
	void setUp(RedisTestServer server) {
		this.server = server;
		server.flushAll();
		TickLedger.clear();
	}

	@Test
	void firesOnceForAllTicksMissedWhileNothingRanCarryingTheLatest() {
		Downtime downtime = runAcrossADowntime("fire-once", "1");
		List<Long> after = downtime.ticksAfterRestart();
		// The first run after the restart is the latest missed tick: the last that fell
		// due before the restarted instance decided, which it did after it began to
		// start.
		assertThat(after.get(0)).isGreaterThan(downtime.restartingAt() - 1000);
		assertThat(after.get(0) - downtime.lastBefore()).isGreaterThanOrEqualTo(4000);
		assertConsecutiveFrom(after, after.get(0));
		assertThat(downtime.schedule().missedTicks()).isEqualTo((after.get(0) - downtime.lastBefore()) / 1000 - 1);
	}

	@Test
	void skipsEveryTickMissedWhileNothingRan() {
		Downtime downtime = runAcrossADowntime("skip", "1");
		List<Long> after = downtime.ticksAfterRestart();
		assertThat(after.get(0)).isGreaterThan(downtime.restartingAt());
		assertConsecutiveFrom(after, after.get(0));
		assertThat(downtime.schedule().missedTicks()).isEqualTo((after.get(0) - downtime.lastBefore()) / 1000 - 1);
	}

	@Test
	void firesEachMissedTickUpToTheLimitTheLatestOnesOldestFirst() {
		Downtime downtime = runAcrossADowntime("fire-all", "2");
		List<Long> after = downtime.ticksAfterRestart();
		// The two latest missed ticks, in order, then the schedule on time.
		assertThat(after.get(1) - after.get(0)).isEqualTo(1000);
		assertThat(after.get(1)).isGreaterThan(downtime.restartingAt() - 1000);
		assertThat(after.get(0) - downtime.lastBefore()).isGreaterThanOrEqualTo(3000);
		assertConsecutiveFrom(after, after.get(0));
		assertThat(downtime.schedule().missedTicks()).isEqualTo((after.get(0) - downtime.lastBefore()) / 1000 - 1);
	}

	// A change of definition while every instance was down: the ticks that fell due
	// meanwhile follow the new definition's misfire policy, as after any downtime.

	@Test
	void firesEachMissedTickUpToTheNewLimitAfterTheLimitChangedDuringADowntime() {
		Downtime downtime = runAcrossADowntime(definition("every=1s", "misfire=fire-all", "catch-up-limit=2"),
				definition("every=1s", "misfire=fire-all", "catch-up-limit=3"));
		List<Long> after = downtime.ticksAfterRestart();
		assertThat(after.get(2) - after.get(0)).isEqualTo(2000);
		assertThat(after.get(2)).isGreaterThan(downtime.restartingAt() - 1000);
		assertThat(after.get(0) - downtime.lastBefore()).isGreaterThanOrEqualTo(2000);
		assertConsecutiveFrom(after, after.get(0));
		assertThat(downtime.schedule().missedTicks()).isEqualTo((after.get(0) - downtime.lastBefore()) / 1000 - 1);
	}

	@Test
	void firesAllMissedTicksOnceThePolicyChangedFromFireOnceToFireAllDuringADowntime() {
		Downtime downtime = runAcrossADowntime(definition("every=1s", "misfire=fire-once"),
				definition("every=1s", "misfire=fire-all", "catch-up-limit=2"));
		List<Long> after = downtime.ticksAfterRestart();
		assertThat(after.get(1) - after.get(0)).isEqualTo(1000);
		assertThat(after.get(1)).isGreaterThan(downtime.restartingAt() - 1000);
		assertConsecutiveFrom(after, after.get(0));
		assertThat(downtime.schedule().missedTicks()).isEqualTo((after.get(0) - downtime.lastBefore()) / 1000 - 1);
	}

	@Test
	void firesOnceForTheMissedTicksOfACronWhoseZoneChangedDuringADowntime() {
		Downtime downtime = runAcrossADowntime(definition("cron=* * * * * *", "misfire=fire-once"),
				definition("cron=* * * * * *", "zone=Europe/Berlin", "misfire=fire-once"));
		List<Long> after = downtime.ticksAfterRestart();
		assertThat(after.get(0)).isGreaterThan(downtime.restartingAt() - 1000);
		assertThat(after.get(0) - downtime.lastBefore()).isGreaterThanOrEqualTo(4000);
		assertConsecutiveFrom(after, after.get(0));
		assertThat(downtime.schedule().missedTicks()).isEqualTo((after.get(0) - downtime.lastBefore()) / 1000 - 1);
	}

	@Test
	void firesOnceForTheMissedTicksOfARateThatBecameACronDuringADowntime() {
		Downtime downtime = runAcrossADowntime(definition("every=1s", "misfire=fire-once"),
				definition("cron=* * * * * *", "misfire=fire-once"));
		List<Long> after = downtime.ticksAfterRestart();
		assertThat(after.get(0)).isGreaterThan(downtime.restartingAt() - 1000);
		assertConsecutiveFrom(after, after.get(0));
		assertThat(downtime.schedule().missedTicks()).isEqualTo((after.get(0) - downtime.lastBefore()) / 1000 - 1);
	}

	@Test
	void skipsTheMissedTicksOfTheNewRateAfterTheRateChangedDuringADowntime() {
		Downtime downtime = runAcrossADowntime(definition("every=1s", "misfire=skip"),
				definition("every=2s", "misfire=skip"));
		List<Long> after = downtime.ticksAfterRestart();
		assertThat(after.get(0)).isGreaterThan(downtime.restartingAt());
		assertThat(after.get(0) % 2000).isZero();
		for (int i = 0; i < after.size(); i++) {
			assertThat(after.get(i)).as("tick %s after the restart", i).isEqualTo(after.get(0) + i * 2000L);
		}
		// The new rate's ticks from the old next tick on, up to the first run, were
		// missed.
		long firstUndecided = downtime.lastBefore() + 1000;
		long missed = (after.get(0) - (firstUndecided + 1999) / 2000 * 2000) / 2000;
		assertThat(missed).isGreaterThanOrEqualTo(1);
		assertThat(downtime.schedule().missedTicks()).isEqualTo(missed);
	}

	private static String[] definition(String... settings) {
		String[] properties = new String[settings.length];
		for (int i = 0; i < settings.length; i++) {
			properties[i] = "delayqueue.schedules.down." + settings[i];
		}
		return properties;
	}

	private ApplicationContextRunner instance(String[] definition) {
		return DelayQueueContextRunner.create(this.server)
			.withConfiguration(AutoConfigurations.of(DelayQueueSchedulesAutoConfiguration.class))
			.withUserConfiguration(TickLedger.Recorder.class)
			.withPropertyValues("ticks.topic=" + TOPIC, "ticks.concurrency=1",
					"delayqueue.schedules.down.topic=" + TOPIC)
			.withPropertyValues(definition);
	}

	private Downtime runAcrossADowntime(String misfire, String limit) {
		String[] definition = definition("every=1s", "misfire=" + misfire, "catch-up-limit=" + limit);
		return runAcrossADowntime(definition, definition);
	}

	private Downtime runAcrossADowntime(String[] beforeDowntime, String[] afterRestart) {
		instance(beforeDowntime).run((context) -> {
			assertThat(context).hasNotFailed();
			await().atMost(Duration.ofSeconds(20)).until(() -> TickLedger.runs(TOPIC).size() >= 2);
		});
		List<Long> before = TickLedger.ticks(TOPIC);
		long lastBefore = before.get(before.size() - 1);
		ScheduleTicksTests.assertConsecutiveOnce(before, 1000);
		try (Redis redis = new Redis(this.server)) {
			// Down for four ticks at least after the last one that ran.
			await().atMost(Duration.ofSeconds(20)).until(() -> redis.now() >= lastBefore + 5500);
			// Before the context starts: its first decision comes later, and may come
			// after a tick that fell due while it started.
			long restartingAt = redis.now();
			ScheduleInfo[] schedule = new ScheduleInfo[1];
			instance(afterRestart).run((context) -> {
				await().atMost(Duration.ofSeconds(20)).until(() -> TickLedger.runs(TOPIC).size() >= before.size() + 4);
				schedule[0] = context.getBean(DelayQueueSchedules.class).find("down").orElseThrow();
			});
			List<Long> all = TickLedger.ticks(TOPIC);
			assertThat(all).doesNotHaveDuplicates();
			assertThat(schedule[0].lastOutcome()).isEqualTo(TickOutcome.PRODUCED);
			return new Downtime(lastBefore, restartingAt, all.subList(before.size(), all.size()), schedule[0]);
		}
	}

	private static void assertConsecutiveFrom(List<Long> ticks, long first) {
		for (int i = 0; i < ticks.size(); i++) {
			assertThat(ticks.get(i)).as("tick %s after the restart", i).isEqualTo(first + i * 1000L);
		}
	}

	private record Downtime(long lastBefore, long restartingAt, List<Long> ticksAfterRestart, ScheduleInfo schedule) {

	}

	/**
	 * Reads the Redis clock.
	 */
	private static final class Redis implements AutoCloseable {

		private final LettuceConnectionFactory factory;

		private final StringRedisTemplate redis;

		Redis(RedisTestServer server) {
			this.factory = RedisExtension.connectionFactory(server);
			this.redis = new StringRedisTemplate(this.factory);
			this.redis.afterPropertiesSet();
		}

		long now() {
			Long time = this.redis.execute((RedisCallback<Long>) (connection) -> connection.serverCommands().time());
			return (time != null) ? time : 0;
		}

		@Override
		public void close() {
			this.factory.destroy();
		}

	}

}
