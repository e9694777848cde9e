package io.github.delayqueue.reliability;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.JobRequest;
import io.github.delayqueue.reliability.ScenarioLedger.Figures;
import io.github.delayqueue.test.ConsumerProcess;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A steady stream of jobs through several consumer instances while a fault strikes; at
 * the end, Redis shows every job completed at least once, and every snapshot taken on the
 * way shows every job in exactly one state.
 */
@ExtendWith(RedisExtension.class)
class StreamFaultsTests {

	private static final Duration FAULT_DEADLINE = Duration.ofSeconds(60);

	private RedisTestServer server;

	@BeforeEach
	void setUp(RedisTestServer server) {
		this.server = server;
		server.flushAll();
	}

	@Test
	void losesNothingWhenAConsumerJvmIsKilledWhileHoldingJobs() {
		try (Scenario scenario = new Scenario(this.server, "killed");
				ConsumerProcess doomed = scenario.process("doomed")) {
			scenario.instance("survivor", "delayqueue.topics.killed.concurrency=2").run((context) -> {
				DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
				try (JobStream stream = new JobStream(queue, 300, (i) -> job("killed", i, "work:40")).start(10)) {
					// Kill only once the doomed JVM is busy, so that it dies holding
					// jobs.
					awaitProcess(doomed,
							() -> runs(scenario).getOrDefault("doomed", 0L) >= 20 && stream.sentCount() >= 150);
					doomed.kill();
					assertThat(doomed.isAlive()).isFalse();
					Figures figures = scenario.settle("consumer JVM killed (kill -9)", stream, Set.of());
					// Only a job whose handler completed in the killed JVM before its ack
					// got out can run twice; that JVM ran at most 4 jobs at once.
					assertThat(figures.duplicates()).isLessThanOrEqualTo(4);
				}
			});
		}
	}

	static JobRequest job(String topic, int i, String payload) {
		// Every other job is delayed, by up to 400 ms, so the scheduler is part of every
		// scenario.
		Duration delay = Duration.ofMillis((i % 2 == 0) ? 0 : (i % 5) * 100L);
		return JobRequest.builder(topic, payload).id(topic + "-" + i).delay(delay).build();
	}

	static void awaitProcess(ConsumerProcess process, Callable<Boolean> condition) {
		try {
			await().atMost(FAULT_DEADLINE).until(condition);
		}
		catch (ConditionTimeoutException ex) {
			throw new AssertionError("Timed out; the consumer JVM printed:\n" + process.output(), ex);
		}
	}

	static Map<String, Long> runs(Scenario scenario) {
		return scenario.ledger().runsByInstance();
	}

}
