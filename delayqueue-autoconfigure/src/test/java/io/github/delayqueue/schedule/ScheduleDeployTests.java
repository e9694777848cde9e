package io.github.delayqueue.schedule;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.github.delayqueue.autoconfigure.DelayQueueSchedulesAutoConfiguration;
import io.github.delayqueue.core.DelayQueueSchedules;
import io.github.delayqueue.core.ScheduleInfo;
import io.github.delayqueue.test.DelayQueueContextRunner;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Deploys: a cron changed by a rolling deploy takes effect from the next tick without a
 * double or a lost run, and old and new instances side by side do not flap between the
 * two definitions, not even when an old one starts again; a schedule no running instance
 * declares any more is removed after the grace period, not while one still declares it.
 * Instances declare their schedules every half second here, so that a flap would show.
 */
@ExtendWith(RedisExtension.class)
class ScheduleDeployTests {

	private static final String TOPIC = "deploy";

	private static final String[] FAST_HEARTBEAT = { "ticks.heartbeat=PT0.5S", "ticks.grace=PT2S" };

	private RedisTestServer server;

	@BeforeEach
	void setUp(RedisTestServer server) {
		this.server = server;
		server.flushAll();
		TickLedger.clear();
	}

	private ApplicationContextRunner instance(String name, String... settings) {
		return DelayQueueContextRunner.create(this.server)
			.withConfiguration(AutoConfigurations.of(DelayQueueSchedulesAutoConfiguration.class))
			.withUserConfiguration(TickLedger.Recorder.class)
			.withPropertyValues("ticks.topic=" + TOPIC, "ticks.instance=" + name)
			.withPropertyValues(FAST_HEARTBEAT)
			.withPropertyValues(settings);
	}

	private ApplicationContextRunner withCron(String name, String cron) {
		return instance(name, "delayqueue.schedules.report.topic=" + TOPIC, "delayqueue.schedules.report.cron=" + cron);
	}

	@Test
	void takesAChangedCronFromTheNextTickDuringARollingDeployWithoutFlapping() {
		AtomicLong changedAt = new AtomicLong();
		withCron("old-1", "*/2 * * * * *").run((old) -> {
			await().atMost(Duration.ofSeconds(20)).until(() -> TickLedger.runs(TOPIC).size() >= 2);
			withCron("new-1", "*/3 * * * * *").run((updated) -> {
				DelayQueueSchedules schedules = updated.getBean(DelayQueueSchedules.class);
				await().atMost(Duration.ofSeconds(10))
					.until(() -> "*/3 * * * * *".equals(schedules.find("report").map(ScheduleInfo::cron).orElse(null)));
				changedAt.set(redisNow(updated.getBean(StringRedisTemplate.class)));
				int runs = TickLedger.runs(TOPIC).size();
				// An old instance starts again while the new one runs: the new cron
				// holds.
				withCron("old-2", "*/2 * * * * *").run((restarted) -> await().atMost(Duration.ofSeconds(20))
					.until(() -> TickLedger.runs(TOPIC).size() >= runs + 3));
				assertThat(schedules.find("report").orElseThrow().cron()).isEqualTo("*/3 * * * * *");
			});
		});
		List<Long> ticks = TickLedger.ticks(TOPIC);
		assertThat(ticks).doesNotHaveDuplicates();
		List<Long> before = ticks.stream().filter((tick) -> tick <= changedAt.get()).sorted().toList();
		List<Long> after = ticks.stream().filter((tick) -> tick > changedAt.get()).sorted().toList();
		ScheduleTicksTests.assertConsecutiveOnce(before, 2000);
		ScheduleTicksTests.assertConsecutiveOnce(after, 3000);
		assertThat(after).allSatisfy((tick) -> assertThat(tick % 3000).isZero());
		// The first tick of the new cron follows the last of the old one within its
		// period.
		assertThat(after.get(0) - before.get(before.size() - 1)).isBetween(1L, 3000L);
		System.out
			.println("SCHEDULES rolling deploy: old cron ran " + before.size() + " ticks, new cron " + after.size());
	}

	@Test
	void keepsAScheduleWhileAnyRunningInstanceDeclaresItAndRemovesItAfterTheGracePeriod() {
		ApplicationContextRunner declaring = instance("declaring", "delayqueue.schedules.temporary.topic=" + TOPIC,
				"delayqueue.schedules.temporary.every=1s");
		instance("without").run((without) -> {
			DelayQueueSchedules schedules = without.getBean(DelayQueueSchedules.class);
			declaring.run((declares) -> {
				await().atMost(Duration.ofSeconds(20)).until(() -> TickLedger.runs(TOPIC).size() >= 2);
				// Past the grace period, with an instance that lacks it running all
				// along.
				int runs = TickLedger.runs(TOPIC).size();
				await().atMost(Duration.ofSeconds(20)).until(() -> TickLedger.runs(TOPIC).size() >= runs + 3);
				assertThat(schedules.find("temporary")).isPresent();
			});
			await().atMost(Duration.ofSeconds(20)).until(() -> schedules.find("temporary").isEmpty());
			AtomicInteger seen = new AtomicInteger(-1);
			await().atMost(Duration.ofSeconds(15)).during(Duration.ofMillis(2500)).until(() -> {
				int now = TickLedger.runs(TOPIC).size();
				return seen.getAndSet(now) == now;
			});
		});
		ScheduleTicksTests.assertConsecutiveOnce(TickLedger.ticks(TOPIC), 1000);
	}

	private static long redisNow(StringRedisTemplate redis) {
		Long now = redis.execute((RedisCallback<Long>) (connection) -> connection.serverCommands().time());
		return (now != null) ? now : 0;
	}

}
