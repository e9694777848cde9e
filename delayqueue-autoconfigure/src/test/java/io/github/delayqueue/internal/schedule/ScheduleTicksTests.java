package io.github.delayqueue.internal.schedule;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.github.delayqueue.autoconfigure.DelayQueueSchedulesAutoConfiguration;
import io.github.delayqueue.test.DelayQueueContextRunner;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Ticks of a schedule declared in YAML, on real Redis: every tick runs exactly once and
 * the ticks are consecutive, with one instance or several, also when one of them is
 * restarted.
 */
@ExtendWith(RedisExtension.class)
class ScheduleTicksTests {

	private RedisTestServer server;

	@BeforeEach
	void setUp(RedisTestServer server) {
		this.server = server;
		server.flushAll();
		TickLedger.clear();
	}

	private ApplicationContextRunner instance(String topic, String name, String... settings) {
		return DelayQueueContextRunner.create(this.server)
			.withConfiguration(AutoConfigurations.of(DelayQueueSchedulesAutoConfiguration.class))
			.withUserConfiguration(TickLedger.Recorder.class)
			.withPropertyValues("ticks.topic=" + topic, "ticks.instance=" + name,
					"delayqueue.schedules.every-second.topic=" + topic, "delayqueue.schedules.every-second.every=1s",
					"delayqueue.schedules.every-second.payload.kind=tick")
			.withPropertyValues(settings);
	}

	@Test
	void runsEveryTickOnceOnOneInstance() {
		instance("one", "a").run((context) -> {
			assertThat(context).hasNotFailed();
			await().atMost(Duration.ofSeconds(20)).until(() -> TickLedger.runs("one").size() >= 4);
		});
		List<Long> ticks = TickLedger.ticks("one");
		assertConsecutiveOnce(ticks, 1000);
		assertThat(TickLedger.runs("one")).allSatisfy((run) -> {
			assertThat(run.jobId()).startsWith("every-second@");
			assertThat(run.dueAt().toEpochMilli()).isEqualTo(run.tick());
			assertThat(run.payload()).containsEntry("kind", "tick");
		});
	}

	@Test
	void runsEveryTickExactlyOnceOnThreeInstancesWhileOneRestarts() {
		String topic = "three";
		instance(topic, "a").run((a) -> instance(topic, "b").run((b) -> {
			instance(topic, "c")
				.run((c) -> await().atMost(Duration.ofSeconds(30)).until(() -> TickLedger.runs(topic).size() >= 7));
			instance(topic, "c2")
				.run((c2) -> await().atMost(Duration.ofSeconds(30)).until(() -> TickLedger.runs(topic).size() >= 15));
		}));
		List<Long> ticks = TickLedger.ticks(topic);
		assertConsecutiveOnce(ticks, 1000);
		Set<String> instances = new HashSet<>();
		TickLedger.runs(topic).forEach((run) -> instances.add(run.instance()));
		System.out.println("SCHEDULES three instances, one restarted: " + ticks.size() + " ticks ran on " + instances);
	}

	// Each tick once, and no tick left out between the first and the last.
	static void assertConsecutiveOnce(List<Long> ticks, long period) {
		assertThat(ticks).doesNotHaveDuplicates();
		List<Long> sorted = ticks.stream().sorted().toList();
		for (int i = 1; i < sorted.size(); i++) {
			assertThat(sorted.get(i) - sorted.get(i - 1)).as("gap after tick %s", sorted.get(i - 1)).isEqualTo(period);
		}
	}

}
