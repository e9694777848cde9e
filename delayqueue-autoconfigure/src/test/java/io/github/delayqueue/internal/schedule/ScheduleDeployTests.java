package io.github.delayqueue.internal.schedule;

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
		List<Long> sorted = ticks.stream().sorted().toList();
		// The old cron's ticks, then the new one's from some tick on, no later than the
		// test saw the change; no tick of either comes twice or is left out: the change
		// took effect between the last old tick and the one after it, and the first new
		// tick is the new cron's first after that instant.
		int split = splitOf(sorted);
		assertThat(split).as("where the ticks of %s turn from every 2 s to every 3 s", sorted).isPositive();
		List<Long> before = sorted.subList(0, split);
		List<Long> after = sorted.subList(split, sorted.size());
		assertThat(after.get(0)).isLessThanOrEqualTo(changedAt.get() + 3000);
		assertThat(after).hasSizeGreaterThanOrEqualTo(3);
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

	@Test
	void renewsADeclarationWithoutWritingItsDefinitionOrItsEntryAgain() {
		instance("renewing", "delayqueue.schedules.hourly.topic=" + TOPIC, "delayqueue.schedules.hourly.every=1h")
			.run((context) -> {
				StringRedisTemplate redis = context.getBean(StringRedisTemplate.class);
				String definitions = "{dq:~schedules}:definitions";
				await().atMost(Duration.ofSeconds(20)).until(() -> redis.opsForHash().size(definitions) == 1);
				// The stored JSON with a space after it reads as the same definition:
				// a heartbeat that wrote the definition again would take the space away.
				Object field = redis.opsForHash().keys(definitions).iterator().next();
				String marked = redis.opsForHash().get(definitions, field) + " ";
				redis.opsForHash().put(definitions, field, marked);
				Object declaration = redis.opsForHash().get("{dq:~schedules}:declarations", "hourly");
				long marking = redisNow(redis);
				// Several heartbeats later, by the renewed time of the instance's
				// declarations.
				await().atMost(Duration.ofSeconds(20)).until(() -> lastRenewed(redis) > marking + 2000);
				assertThat(redis.opsForHash().get(definitions, field)).isEqualTo(marked);
				assertThat(redis.opsForHash().get("{dq:~schedules}:declarations", "hourly")).isEqualTo(declaration);
				assertThat(context.getBean(DelayQueueSchedules.class).find("hourly")).isPresent();
			});
	}

	@Test
	void takesTheOldDefinitionBackOnceNoInstanceDeclaresTheNewOneAfterARollback() {
		withCron("old", "0 0 1 * * *").run((old) -> {
			DelayQueueSchedules schedules = old.getBean(DelayQueueSchedules.class);
			await().atMost(Duration.ofSeconds(10)).until(() -> cronOf(schedules).equals("0 0 1 * * *"));
			withCron("new", "0 0 2 * * *").run((updated) -> await().atMost(Duration.ofSeconds(10))
				.until(() -> cronOf(schedules).equals("0 0 2 * * *")));
			// The new instance's declarations stop counting three heartbeats after its
			// last renewal; the old instance, renewing its own, takes its cron back.
			await().atMost(Duration.ofSeconds(15)).until(() -> cronOf(schedules).equals("0 0 1 * * *"));
		});
	}

	private static String cronOf(DelayQueueSchedules schedules) {
		return schedules.find("report").map(ScheduleInfo::cron).orElse("");
	}

	// The time of the latest renewal of an instance's declarations: "set last".
	private static long lastRenewed(StringRedisTemplate redis) {
		long latest = 0;
		for (Object renewal : redis.opsForHash().values("{dq:~schedules}:renewals")) {
			latest = Math.max(latest, Long.parseLong(renewal.toString().split(" ")[1]));
		}
		return latest;
	}

	// The first index from which the ticks are consecutive multiples of 3 s, those before
	// it consecutive multiples of 2 s, and the first of 3 s the first one after an
	// instant
	// between the last of 2 s and the old cron's next tick; or -1.
	private static int splitOf(List<Long> ticks) {
		for (int split = 1; split < ticks.size(); split++) {
			long lastOld = ticks.get(split - 1);
			long latestNew = ((lastOld + 1999) / 3000 + 1) * 3000;
			if (follows(ticks.subList(0, split), 2000) && follows(ticks.subList(split, ticks.size()), 3000)
					&& ticks.get(split) > lastOld && ticks.get(split) <= latestNew) {
				return split;
			}
		}
		return -1;
	}

	private static boolean follows(List<Long> ticks, long period) {
		for (int i = 0; i < ticks.size(); i++) {
			if (ticks.get(i) % period != 0 || (i > 0 && ticks.get(i) - ticks.get(i - 1) != period)) {
				return false;
			}
		}
		return true;
	}

	private static long redisNow(StringRedisTemplate redis) {
		Long now = redis.execute((RedisCallback<Long>) (connection) -> connection.serverCommands().time());
		return (now != null) ? now : 0;
	}

}
