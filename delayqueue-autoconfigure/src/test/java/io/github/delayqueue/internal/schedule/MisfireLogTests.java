package io.github.delayqueue.internal.schedule;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The log tells, in the words of docs/scheduling.md and the endpoint, what became of
 * ticks that were not decided on time: after a downtime, one warning per schedule however
 * many ticks fell due, naming how many of them are missed (as {@code missedTicks} counts
 * them), the policy, and which ticks ran and how late; one line at info level when ticks
 * only ran late. Each test stops the schedule loop of its only instance across ticks of
 * an every-second (or every-5-seconds) schedule, and starts it again.
 */
@ExtendWith({ RedisExtension.class, OutputCaptureExtension.class })
class MisfireLogTests {

	private static final String TOPIC = "misfire-log";

	private RedisTestServer server;

	@BeforeEach
	void setUp(RedisTestServer server) {
		this.server = server;
		server.flushAll();
		TickLedger.clear();
	}

	@Test
	void fireOnceWarnsOnceOfTheMissedTicksAndTheLatestThatRanLate(CapturedOutput output) {
		Catchup catchup = runAcrossADowntime(output, "every=1s", "misfire=fire-once");
		long missed = catchup.schedule().missedTicks();
		assertThat(missed).isGreaterThanOrEqualTo(3);
		long latest = catchup.firstRunAfter();
		assertThat(catchup.line())
			.matches(Pattern
				.quote("Schedule 'down' missed " + missed + " ticks (misfire fire-once): " + (missed + 1)
						+ " ticks fell due from " + at(catchup.firstDue()) + " to " + at(latest)
						+ " while no instance ran it; ran the tick due at " + at(latest) + " late by ")
					+ "\\d+\\.\\d s");
		assertThat(catchup.level()).isEqualTo("WARN");
	}

	@Test
	void skipWarnsOnceOfEveryMissedTickAndThatNoneRan(CapturedOutput output) {
		Catchup catchup = runAcrossADowntime(output, "every=1s", "misfire=skip");
		long missed = catchup.schedule().missedTicks();
		assertThat(missed).isGreaterThanOrEqualTo(4);
		assertThat(catchup.line()).isEqualTo("Schedule 'down' missed " + missed + " ticks (misfire skip): " + missed
				+ " ticks fell due from " + at(catchup.firstDue()) + " to " + at(catchup.firstRunAfter() - 1000)
				+ " while no instance ran it; ran none of them");
		assertThat(catchup.level()).isEqualTo("WARN");
	}

	@Test
	void fireAllWarnsOnceOfTheTicksBeyondTheLimitAndOfTheLatestThatRanLate(CapturedOutput output) {
		Catchup catchup = runAcrossADowntime(output, "every=1s", "misfire=fire-all", "catch-up-limit=2");
		long missed = catchup.schedule().missedTicks();
		assertThat(missed).isGreaterThanOrEqualTo(2);
		long oldestRun = catchup.firstRunAfter();
		assertThat(catchup.line()).matches(
				Pattern
					.quote("Schedule 'down' missed " + missed + " ticks (misfire fire-all, catch-up-limit 2): "
							+ (missed + 2) + " ticks fell due from " + at(catchup.firstDue()) + " to "
							+ at(oldestRun + 1000) + " while no instance ran it; ran 2 ticks due at " + at(oldestRun)
							+ " to " + at(oldestRun + 1000) + ", oldest first, late by ")
						+ "\\d+\\.\\d s to \\d+\\.\\d s");
		assertThat(catchup.level()).isEqualTo("WARN");
	}

	@Test
	void fireAllWithinItsLimitTellsAtInfoThatTheTicksRanLateAndNoneIsMissed(CapturedOutput output) {
		Catchup catchup = runAcrossADowntime(output, "every=1s", "misfire=fire-all", "catch-up-limit=100");
		assertThat(catchup.schedule().missedTicks()).isZero();
		assertThat(catchup.firstRunAfter()).isEqualTo(catchup.firstDue());
		String first = at(catchup.firstDue());
		Matcher line = Pattern
			.compile(Pattern.quote("Schedule 'down' missed no tick (misfire fire-all, catch-up-limit 100): ")
					+ "(\\d+) ticks fell due from " + Pattern.quote(first)
					+ " to (\\S+) while no instance ran it; ran \\1" + " ticks due at " + Pattern.quote(first)
					+ " to \\2, oldest first, late by \\d+\\.\\d s to \\d+\\.\\d s")
			.matcher(catchup.line());
		assertThat(line.matches()).as(catchup.line()).isTrue();
		long latest = Instant.parse(line.group(2)).toEpochMilli();
		assertThat(Long.parseLong(line.group(1))).isGreaterThanOrEqualTo(4)
			.isEqualTo((latest - catchup.firstDue()) / 1000 + 1);
		assertThat(catchup.level()).isEqualTo("INFO");
	}

	@Test
	void aTickDecidedLateBeforeTheNextOneFellDueRunsLateAndIsToldAtInfo(CapturedOutput output) {
		runner("every=5s").run((context) -> {
			assertThat(context).hasNotFailed();
			await().atMost(Duration.ofSeconds(20)).until(() -> !TickLedger.runs(TOPIC).isEmpty());
			ScheduleLoop loop = context.getBean(ScheduleLoop.class);
			loop.stop();
			long last = lastTick(context);
			// Past the next tick by a second and a half, well before the one after it.
			await().atMost(Duration.ofSeconds(20)).until(() -> redisNow(context) >= last + 6500);
			loop.start();
			await().atMost(Duration.ofSeconds(20)).until(() -> TickLedger.ticks(TOPIC).contains(last + 5000));
			assertThat(lastTick(context)).isEqualTo(last + 5000);
			List<String> lines = misfireLines(output);
			assertThat(lines).singleElement()
				.satisfies((line) -> assertThat(message(line))
					.matches(Pattern.quote("Schedule 'down' ran the tick due at " + at(last + 5000) + " late by ")
							+ "\\d+\\.\\d s: no instance ran it on time, and no tick was missed"))
				.satisfies((line) -> assertThat(level(line)).isEqualTo("INFO"));
			assertThat(context.getBean(DelayQueueSchedules.class).find("down").orElseThrow().missedTicks()).isZero();
		});
	}

	private Catchup runAcrossADowntime(CapturedOutput output, String... definition) {
		Catchup[] catchup = new Catchup[1];
		runner(definition).run((context) -> {
			assertThat(context).hasNotFailed();
			await().atMost(Duration.ofSeconds(20)).until(() -> TickLedger.runs(TOPIC).size() >= 2);
			ScheduleLoop loop = context.getBean(ScheduleLoop.class);
			loop.stop();
			long last = lastTick(context);
			int before = TickLedger.runs(TOPIC).size();
			// Down for four ticks at least.
			await().atMost(Duration.ofSeconds(20)).until(() -> redisNow(context) >= last + 4500);
			loop.start();
			await().atMost(Duration.ofSeconds(20)).until(() -> !misfireLines(output).isEmpty());
			await().atMost(Duration.ofSeconds(20)).until(() -> TickLedger.runs(TOPIC).size() >= before + 2);
			List<String> lines = misfireLines(output);
			assertThat(lines).hasSize(1);
			List<Long> after = TickLedger.ticks(TOPIC).subList(before, TickLedger.runs(TOPIC).size());
			ScheduleInfo schedule = context.getBean(DelayQueueSchedules.class).find("down").orElseThrow();
			catchup[0] = new Catchup(last + 1000, after.get(0), schedule, message(lines.get(0)), level(lines.get(0)));
		});
		return catchup[0];
	}

	private ApplicationContextRunner runner(String... definition) {
		String[] properties = new String[definition.length];
		for (int i = 0; i < definition.length; i++) {
			properties[i] = "delayqueue.schedules.down." + definition[i];
		}
		return DelayQueueContextRunner.create(this.server)
			.withConfiguration(AutoConfigurations.of(DelayQueueSchedulesAutoConfiguration.class))
			.withUserConfiguration(TickLedger.Recorder.class)
			.withPropertyValues("ticks.topic=" + TOPIC, "ticks.concurrency=1",
					"delayqueue.schedules.down.topic=" + TOPIC)
			.withPropertyValues(properties);
	}

	private static long lastTick(AssertableApplicationContext context) {
		Instant last = context.getBean(DelayQueueSchedules.class).find("down").orElseThrow().lastTick();
		assertThat(last).isNotNull();
		return last.toEpochMilli();
	}

	private static long redisNow(AssertableApplicationContext context) {
		Long time = context.getBean(StringRedisTemplate.class)
			.execute((RedisCallback<Long>) (connection) -> connection.serverCommands().time());
		return (time != null) ? time : 0;
	}

	// The lines of MisfireLog about the schedule.
	private static List<String> misfireLines(CapturedOutput output) {
		return output.getOut().lines().filter((line) -> line.contains("Schedule 'down' ")).toList();
	}

	private static String message(String line) {
		return line.substring(line.indexOf("Schedule 'down' "));
	}

	private static String level(String line) {
		Matcher matcher = Pattern.compile("\\b(TRACE|DEBUG|INFO|WARN|ERROR)\\b").matcher(line);
		assertThat(matcher.find()).as("level of %s", line).isTrue();
		return matcher.group(1);
	}

	private static String at(long tick) {
		return Instant.ofEpochMilli(tick).toString();
	}

	/**
	 * What a test saw of a catch-up.
	 *
	 * @param firstDue the first tick that fell due while the loop was stopped
	 * @param firstRunAfter the tick of the first run after the restart
	 * @param schedule the schedule after the catch-up
	 * @param line the log line's message
	 * @param level its level
	 */
	private record Catchup(long firstDue, long firstRunAfter, ScheduleInfo schedule, String line, String level) {

	}

}
