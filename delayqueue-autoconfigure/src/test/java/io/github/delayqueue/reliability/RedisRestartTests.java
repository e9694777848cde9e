package io.github.delayqueue.reliability;

import java.time.Duration;
import java.util.Set;

import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.reliability.ScenarioLedger.Figures;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Redis itself crashes in the middle of a stream. With the append-only file synced on
 * every write, what Redis confirmed survives the crash, so no job is lost.
 */
class RedisRestartTests {

	@Test
	void losesNothingWhenRedisCrashesMidStreamWithAppendOnlyFsyncAlways() {
		RedisTestServer server = RedisTestServer.startDedicated("--appendonly", "yes", "--appendfsync", "always");
		try (server; Scenario scenario = new Scenario(server, "crash")) {
			scenario.instance("a").run((a) -> scenario.instance("b").run((b) -> {
				DelayQueueOperations queue = a.getBean(DelayQueueOperations.class);
				try (JobStream stream = new JobStream(queue::send, 300,
						(i) -> StreamFaultsTests.job("crash", i, "work:10"))
					.start(10)) {
					await().atMost(Duration.ofSeconds(60)).until(() -> stream.sentCount() >= 150);
					server.kill();
					// The outage is the fault: Redis stays away for a second while the
					// stream, the consumers and the schedulers keep trying.
					await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(5)).until(() -> !server.isUp());
					server.restart();
					Figures figures = scenario.settle("Redis killed (kill -9) and restarted, AOF fsync always", stream,
							Set.of());
					assertThat(figures.completed()).isEqualTo(300);
				}
			}));
		}
	}

}
