package io.github.delayqueue.autoconfigure;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.github.delayqueue.core.RecurringSchedule.Misfire;
import io.github.delayqueue.core.RecurringSchedule.Overlap;
import io.github.delayqueue.internal.schedule.ScheduleDefinition;
import io.github.delayqueue.test.DelayQueueContextRunner;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ByteArrayResource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The binding and checking of {@code delayqueue.schedules}: dotted ids, payloads as JSON
 * objects, and every mistake failing start-up naming its key. None needs Redis.
 */
class SchedulePropertiesTests {

	private final ApplicationContextRunner runner = DelayQueueContextRunner.withoutRedis();

	@Test
	void bindsSchedulesKeyedByDottedIdsWithTheirPayloadsAsJsonObjects() throws IOException {
		PropertySource<?> yaml = yaml("""
				delayqueue:
				  schedules:
				    reports.nightly:
				      topic: reports.nightly
				      cron: "0 0 2 * * *"
				      zone: Europe/Berlin
				      payload:
				        kind: nightly
				        limits:
				          rows: 100
				        tags: [a, b]
				      misfire: fire-all
				      catch-up-limit: 24
				    partner-sync:
				      topic: partner.sync
				      every: 5m
				      overlap: skip
				      enabled: false
				""");
		this.runner.withInitializer((context) -> context.getEnvironment().getPropertySources().addFirst(yaml))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				Map<String, ScheduleProperties> schedules = context.getBean(DelayQueueProperties.class).getSchedules();
				assertThat(schedules).containsOnlyKeys("reports.nightly", "partner-sync");
				ScheduleProperties nightly = schedules.get("reports.nightly");
				assertThat(nightly.getMisfire()).isEqualTo(Misfire.FIRE_ALL);
				assertThat(nightly.getCatchUpLimit()).isEqualTo(24);
				ScheduleProperties sync = schedules.get("partner-sync");
				assertThat(sync.getEvery()).isEqualTo(Duration.ofMinutes(5));
				assertThat(sync.getOverlap()).isEqualTo(Overlap.SKIP);
				assertThat(sync.isEnabled()).isFalse();
				JsonMapper jsonMapper = JsonMapper.builder().build();
				List<ScheduleDefinition> definitions = SchedulePropertiesBinder.definitions(schedules, jsonMapper);
				assertThat(definitions).extracting(ScheduleDefinition::id)
					.containsExactly("reports.nightly", "partner-sync");
				assertThat(definitions.get(0).toJson(jsonMapper))
					.contains("\"payload\":{\"kind\":\"nightly\",\"limits\":{\"rows\":100},\"tags\":[\"a\",\"b\"]}");
			});
	}

	@Test
	void failsStartUpNamingTheKeyOfEveryMistake() throws IOException {
		PropertySource<?> yaml = yaml("""
				delayqueue:
				  schedules:
				    bad-cron:
				      topic: reports
				      cron: "0 0 25 * * *"
				    unknown-zone:
				      topic: reports
				      cron: "0 0 2 * * *"
				      zone: Mars/Olympus
				    both:
				      topic: reports
				      cron: "0 0 2 * * *"
				      every: 5m
				    neither:
				      topic: reports
				    bad-topic:
				      topic: "reports nightly"
				      every: 1h
				    no-topic:
				      every: 1h
				    too-fast:
				      topic: reports
				      every: 100ms
				    zoned-rate:
				      topic: reports
				      every: 1h
				      zone: Europe/Berlin
				    typo:
				      topic: reports
				      every: 1h
				      misfires: skip
				    overlapping-catch-up:
				      topic: reports
				      every: 1h
				      misfire: fire-all
				      overlap: skip
				""");
		this.runner.withInitializer((context) -> context.getEnvironment().getPropertySources().addFirst(yaml))
			.run((context) -> {
				List<String> problems = failure(context.getStartupFailure()).getProblems();
				assertThat(problems).hasSize(10);
				assertThat(problems).anySatisfy((problem) -> assertThat(problem)
					.startsWith("Property delayqueue.schedules.bad-cron.cron with value '0 0 25 * * *' is invalid: "
							+ "Not a cron expression"));
				assertThat(problems).anySatisfy((problem) -> assertThat(problem)
					.startsWith("Property delayqueue.schedules.unknown-zone.zone with value 'Mars/Olympus' is invalid: "
							+ "Unknown time zone"));
				assertThat(problems).anySatisfy((problem) -> assertThat(problem)
					.isEqualTo("Property delayqueue.schedules.both.every with value 'PT5M' is invalid: "
							+ "Set either cron or every, not both"));
				assertThat(problems).anySatisfy((problem) -> assertThat(problem)
					.isEqualTo("Property delayqueue.schedules.neither.cron with value 'null' is invalid: "
							+ "Set either cron (a cron expression) or every (a rate)"));
				assertThat(problems).anySatisfy((problem) -> assertThat(problem).startsWith(
						"Property delayqueue.schedules.bad-topic.topic with value 'reports nightly' is invalid"));
				assertThat(problems).anySatisfy((problem) -> assertThat(problem)
					.isEqualTo("Property delayqueue.schedules.no-topic.topic with value 'null' is invalid: "
							+ "A schedule needs the topic its jobs go to"));
				assertThat(problems).anySatisfy((problem) -> assertThat(problem)
					.startsWith("Property delayqueue.schedules.too-fast.every with value 'PT0.1S' is invalid"));
				assertThat(problems).anySatisfy((problem) -> assertThat(problem)
					.startsWith("Property delayqueue.schedules.zoned-rate.zone with value 'Europe/Berlin' is invalid: "
							+ "A zone applies to cron only"));
				assertThat(problems).anySatisfy((problem) -> assertThat(problem)
					.startsWith("Unknown property 'delayqueue.schedules.typo.misfires'")
					.endsWith("did you mean 'delayqueue.schedules.typo.misfire'?"));
				assertThat(problems).anySatisfy((problem) -> assertThat(problem)
					.startsWith("Property delayqueue.schedules.overlapping-catch-up.misfire with value 'fire-all'"));
			});
	}

	@Test
	void failsStartUpOnAnUnknownMisfirePolicyNamingTheKey() {
		this.runner
			.withPropertyValues("delayqueue.schedules.nightly.topic=reports", "delayqueue.schedules.nightly.every=1h",
					"delayqueue.schedules.nightly.misfire=sometimes")
			.run((context) -> assertThat(failure(context.getStartupFailure()).getProblems())
				.anySatisfy((problem) -> assertThat(problem)
					.startsWith("Property delayqueue.schedules.nightly.misfire with value 'sometimes' is invalid")));
	}

	@Test
	void namesTheValuesAnEnumTakesAndTheGroupATypoMeant() {
		this.runner
			.withPropertyValues("delayqueue.schedules.nightly.topic=reports", "delayqueue.schedules.nightly.every=1h",
					"delayqueue.schedules.nightly.misfire=sometimes", "delayqueue.schedule.x.every=5s",
					"delayqueue.topic.orders.concurrency=4")
			.run((context) -> {
				List<String> problems = failure(context.getStartupFailure()).getProblems();
				assertThat(problems).contains("Property delayqueue.schedules.nightly.misfire with value 'sometimes' "
						+ "is invalid: expected one of fire-once, skip, fire-all");
				assertThat(problems).anySatisfy(
						(problem) -> assertThat(problem).startsWith("Unknown property 'delayqueue.schedule.x.every'")
							.endsWith("did you mean 'delayqueue.schedules.x.every'?"));
				assertThat(problems).anySatisfy((problem) -> assertThat(problem)
					.startsWith("Unknown property 'delayqueue.topic.orders.concurrency'")
					.endsWith("did you mean 'delayqueue.topics.orders.concurrency'?"));
			});
	}

	@Test
	void failsStartUpOnAScheduleIdThatSpringBootWouldChange() throws IOException {
		PropertySource<?> yaml = yaml("""
				delayqueue:
				  schedules:
				    "nightly report!":
				      topic: reports
				      every: 1h
				""");
		this.runner.withInitializer((context) -> context.getEnvironment().getPropertySources().addFirst(yaml))
			.run((context) -> assertThat(failure(context.getStartupFailure()).getProblems())
				.anySatisfy((problem) -> assertThat(problem)
					.startsWith("Schedule id 'nightly report!' under " + "delayqueue.schedules (from ")));
	}

	private static InvalidDelayQueuePropertiesException failure(Throwable startupFailure) {
		Throwable cause = startupFailure;
		while (cause != null && !(cause instanceof InvalidDelayQueuePropertiesException)) {
			cause = cause.getCause();
		}
		assertThat(cause).as("cause of %s", startupFailure).isInstanceOf(InvalidDelayQueuePropertiesException.class);
		return (InvalidDelayQueuePropertiesException) cause;
	}

	private static PropertySource<?> yaml(String content) throws IOException {
		return new YamlPropertySourceLoader()
			.load("test-yaml", new ByteArrayResource(content.getBytes(StandardCharsets.UTF_8)))
			.get(0);
	}

}
