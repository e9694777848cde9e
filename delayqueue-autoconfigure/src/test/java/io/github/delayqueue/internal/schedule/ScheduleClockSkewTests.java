package io.github.delayqueue.internal.schedule;

import java.time.Duration;
import java.util.List;

import io.github.delayqueue.autoconfigure.DelayQueueSchedulesAutoConfiguration;
import io.github.delayqueue.test.DelayQueueContextRunner;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two instances whose wall clocks are five minutes ahead of and behind the Redis server
 * still produce every tick once and on time by the Redis clock, as the clock-skew
 * scenario of the delayed jobs does.
 */
@ExtendWith(RedisExtension.class)
class ScheduleClockSkewTests {

	@Test
	void producesEveryTickOnceAndOnTimeWhenInstanceClocksDisagreeByMinutes(RedisTestServer server) {
		server.flushAll();
		TickLedger.clear();
		String topic = "skewed";
		ApplicationContextRunner instance = DelayQueueContextRunner.create(server)
			.withConfiguration(AutoConfigurations.of(DelayQueueSchedulesAutoConfiguration.class))
			.withUserConfiguration(TickLedger.Recorder.class)
			.withPropertyValues("ticks.topic=" + topic, "delayqueue.schedules.skewed.topic=" + topic,
					"delayqueue.schedules.skewed.every=1s");
		instance.withPropertyValues("ticks.instance=ahead", "ticks.clock-offset=PT5M")
			.run((ahead) -> instance.withPropertyValues("ticks.instance=behind", "ticks.clock-offset=PT-5M")
				.run((behind) -> await().atMost(Duration.ofSeconds(30))
					.until(() -> TickLedger.runs(topic).size() >= 8)));
		List<Long> ticks = TickLedger.ticks(topic);
		ScheduleTicksTests.assertConsecutiveOnce(ticks, 1000);
		List<Long> lateness = TickLedger.runs(topic).stream().map(TickLedger.Run::latenessMillis).sorted().toList();
		System.out.println("SCHEDULES clock skew: " + ticks.size() + " ticks, lateness ms min " + lateness.get(0)
				+ ", median " + lateness.get(lateness.size() / 2) + ", max " + lateness.get(lateness.size() - 1));
		// A tick decided by a clock five minutes off would run minutes early or late.
		assertThat(lateness.get(0)).isNotNegative();
		assertThat(lateness.get(lateness.size() - 1)).isLessThan(1000);
	}

}
