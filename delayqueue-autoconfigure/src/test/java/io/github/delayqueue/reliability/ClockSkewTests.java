package io.github.delayqueue.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;

import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.JobRequest;
import io.github.delayqueue.test.RecordingJobHandler;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two instances whose wall clocks are ten minutes apart, five minutes ahead of and behind
 * the Redis server, still fire every delay on time by the Redis clock.
 */
@ExtendWith(RedisExtension.class)
class ClockSkewTests {

	@Test
	void firesDelaysOnTimeByTheRedisClockWhenInstanceClocksDisagreeByMinutes(RedisTestServer server) {
		server.flushAll();
		// The default 5 s maximum sleep: a scheduler misled by its clock would show up
		// as seconds late, not milliseconds.
		String[] settings = { "delayqueue.scheduler.max-sleep=5s" };
		try (Scenario scenario = new Scenario(server, "skew")) {
			scenario.instance("ahead", append(settings, "reliability.clock-offset=PT5M"))
				.run((ahead) -> scenario.instance("behind", append(settings, "reliability.clock-offset=PT-5M"))
					.run((behind) -> {
						DelayQueueOperations fromAhead = ahead.getBean(DelayQueueOperations.class);
						DelayQueueOperations fromBehind = behind.getBean(DelayQueueOperations.class);
						// Half the jobs are sent by each instance, with delays of 200 ms
						// to 1.4 s, so that each scheduler wakes for its own sends.
						try (JobStream stream = new JobStream(
								(request) -> ((request.id().hashCode() & 1) == 0 ? fromAhead : fromBehind)
									.send(request),
								100,
								(i) -> JobRequest.builder("skew", "timed")
									.id("skew-" + i)
									.delay(Duration.ofMillis(200 + (i % 7) * 200L))
									.build())
							.start(20)) {
							scenario.settle("clocks 5 min ahead and behind", stream, Set.of());
							List<Long> lateness = new ArrayList<>();
							scenario.redis()
								.<String, String>opsForHash()
								.values(RecordingJobHandler.ledger("skew") + ":lateness")
								.forEach((ms) -> lateness.add(Long.parseLong(ms)));
							Collections.sort(lateness);
							long median = lateness.get(lateness.size() / 2);
							long p95 = lateness.get(lateness.size() * 95 / 100);
							long max = lateness.get(lateness.size() - 1);
							System.out.println("RELIABILITY clock skew lateness ms: min " + lateness.get(0)
									+ ", median " + median + ", p95 " + p95 + ", max " + max);
							assertThat(lateness).hasSize(100);
							assertThat(lateness.get(0)).isNotNegative();
							assertThat(median).isLessThan(50);
							assertThat(max).isLessThan(1000);
						}
					}));
		}
	}

	private static String[] append(String[] settings, String setting) {
		List<String> all = new ArrayList<>(List.of(settings));
		all.add(setting);
		return all.toArray(String[]::new);
	}

}
