package io.github.delayqueue.reliability;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.JobInfo;
import io.github.delayqueue.core.JobRequest;
import io.github.delayqueue.core.NonRetryableJobException;
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

	private static final Duration STARTUP = Duration.ofSeconds(120);

	private RedisTestServer server;

	@BeforeEach
	void setUp(RedisTestServer server) {
		this.server = server;
		server.flushAll();
	}

	@Test
	void losesNothingWhenAConsumerJvmIsKilledWhileHoldingJobs() {
		killAConsumerJvmHoldingJobs("killed", (i) -> job("killed", i, "work:40"));
	}

	@Test
	void losesNothingWhenAConsumerJvmIsKilledWhileHoldingJobsTakenByGroupInTurns() {
		killAConsumerJvmHoldingJobs("grouped",
				(i) -> JobRequest.builder("grouped", "work:40")
					.id("grouped-" + i)
					.delay(job("grouped", i, "work:40").delay())
					.group("tenant-" + (i % 3))
					.build());
	}

	private void killAConsumerJvmHoldingJobs(String topic, IntFunction<JobRequest> jobs) {
		try (Scenario scenario = new Scenario(this.server, topic);
				ConsumerProcess doomed = scenario.process("doomed")) {
			scenario.instance("survivor", "delayqueue.topics." + topic + ".concurrency=2").run((context) -> {
				DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
				DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
				// The JVM takes seconds to start on a busy machine: the stream waits.
				awaitProcess(doomed, STARTUP, () -> doomed.output().contains("Started ConsumerProcessApplication"));
				try (JobStream stream = new JobStream(queue::send, 300, jobs).start(10)) {
					// Kill once the doomed JVM is busy, so that it dies holding jobs.
					awaitProcess(doomed, FAULT_DEADLINE,
							() -> runs(scenario).getOrDefault("doomed", 0L) >= 20 && stream.sentCount() >= 150);
					doomed.kill();
					assertThat(doomed.isAlive()).isFalse();
					Figures figures = scenario.settle("consumer JVM killed (kill -9)", stream, Set.of());
					// What the killed JVM held came back and was finished by the
					// survivor.
					assertThat(scenario.ledger().redeliveredRuns()).isNotEmpty()
						.allMatch((run) -> run.endsWith("survivor"));
					// Only a job whose handler completed in the killed JVM before its ack
					// got out can run twice; that JVM ran at most 4 jobs at once.
					assertThat(figures.duplicates()).isLessThanOrEqualTo(4);
				}
			});
		}
	}

	@Test
	void losesNothingWhenEveryClientConnectionIsKilledRepeatedly() {
		try (Scenario scenario = new Scenario(this.server, "dropped")) {
			scenario.instance("a").run((a) -> scenario.instance("b").run((b) -> {
				DelayQueueOperations queue = a.getBean(DelayQueueOperations.class);
				DelayQueueAdmin admin = a.getBean(DelayQueueAdmin.class);
				try (JobStream stream = new JobStream(queue::send, 300, (i) -> job("dropped", i, "work:10"))
					.start(10)) {
					long killed = 0;
					for (int round = 1; round <= 8; round++) {
						int sent = round * 30;
						await().atMost(FAULT_DEADLINE).until(() -> stream.sentCount() >= sent);
						for (RedisTestServer node : RedisExtension.servers(this.server)) {
							killed += integerReply(node.command("CLIENT", "KILL", "TYPE", "normal"));
						}
					}
					Figures figures = scenario.settle("all client connections killed, 8 times", stream, Set.of());
					assertThat(killed).isGreaterThanOrEqualTo(8);
					assertThat(figures.completed()).isEqualTo(300);
				}
			}));
		}
	}

	@Test
	void losesNothingWhenRedisPausesLongerThanTheBlockingPollTimeout() {
		try (Scenario scenario = new Scenario(this.server, "paused")) {
			scenario.instance("a").run((a) -> scenario.instance("b").run((b) -> {
				DelayQueueOperations queue = a.getBean(DelayQueueOperations.class);
				DelayQueueAdmin admin = a.getBean(DelayQueueAdmin.class);
				try (JobStream stream = new JobStream(queue::send, 300, (i) -> job("paused", i, "work:10")).start(10)) {
					for (int round = 1; round <= 2; round++) {
						int sent = round * 100;
						await().atMost(FAULT_DEADLINE).until(() -> stream.sentCount() >= sent);
						// Six times the 500 ms poll timeout: blocking moves time out on
						// the client side while Redis answers nobody.
						for (RedisTestServer node : RedisExtension.servers(this.server)) {
							assertThat(node.command("CLIENT", "PAUSE", "3000")).startsWith("+OK");
						}
					}
					Figures figures = scenario.settle("Redis paused 3 s (poll timeout 500 ms), twice", stream,
							Set.of());
					assertThat(figures.completed()).isEqualTo(300);
					// Only a job running when a pause began can run twice: its ack waited
					// behind the pause, past its 2 s TTR. Two instances run 4 jobs each.
					assertThat(figures.duplicates()).isLessThanOrEqualTo(2 * 2 * 4);
				}
			}));
		}
	}

	@Test
	void settlesHandlersThatHangThrowOrRefuseAsConfigured() {
		String[] settings = { "delayqueue.topics.failing.ttr=1s", "delayqueue.topics.failing.concurrency=8",
				"delayqueue.topics.failing.retry.max-attempts=3",
				"delayqueue.topics.failing.retry.non-retryable=java.lang.IllegalArgumentException" };
		try (Scenario scenario = new Scenario(this.server, "failing")) {
			scenario.instance("a", settings).run((a) -> scenario.instance("b", settings).run((b) -> {
				DelayQueueOperations queue = a.getBean(DelayQueueOperations.class);
				DelayQueueAdmin admin = a.getBean(DelayQueueAdmin.class);
				try (JobStream stream = new JobStream(queue::send, 200, (i) -> job("failing", i, failingPayload(i)))
					.start(10)) {
					await().atMost(FAULT_DEADLINE).until(stream::finished);
					Set<String> dead = new HashSet<>();
					List.of("always-throw", "fatal", "refuse").forEach((p) -> dead.addAll(stream.idsOf(p)));
					scenario.awaitSettled(stream, dead);
					// A handler that hangs past its time to run is delivered again, and
					// the late run completes too: the one duplicate the design cannot
					// avoid.
					Set<String> hung = stream.idsOf("hang-once:2500");
					assertThat(hung).hasSize(8);
					await().atMost(FAULT_DEADLINE).until(() -> duplicateIds(scenario).containsAll(hung));
					Figures figures = scenario.report("handlers hang past TTR, throw, throw non-retryable", stream,
							dead);
					assertThat(figures.duplicates()).isGreaterThanOrEqualTo(hung.size());
					Map<String, JobInfo> buried = new HashMap<>();
					admin.deadJobs("failing", 0, 100).forEach((job) -> buried.put(job.id(), job));
					stream.idsOf("always-throw")
						.forEach((id) -> assertThat(buried.get(id).lastError()).startsWith("Failed 3 of 3 attempts")
							.contains("failing on purpose on attempt 3"));
					stream.idsOf("fatal")
						.forEach((id) -> assertThat(buried.get(id).lastError())
							.startsWith(NonRetryableJobException.class.getName() + ": cannot ever succeed\n\tat "));
					stream.idsOf("refuse").forEach((id) -> assertThat(buried.get(id).attempts()).isOne());
					assertThat(stream.idsOf("throw-once"))
						.allSatisfy((id) -> assertThat(scenario.ledger().completions()).containsEntry(id, 1L));
				}
			}));
		}
	}

	@Test
	void losesNothingWhenAnInstanceShutsDownGracefullyMidStream() {
		try (Scenario scenario = new Scenario(this.server, "leaving")) {
			scenario.instance("stays").run((stays) -> {
				DelayQueueOperations queue = stays.getBean(DelayQueueOperations.class);
				DelayQueueAdmin admin = stays.getBean(DelayQueueAdmin.class);
				try (JobStream stream = new JobStream(queue::send, 400, (i) -> job("leaving", i, "work:40"))) {
					AtomicInteger sentAtShutdown = new AtomicInteger();
					scenario.instance("leaves").run((leaves) -> {
						stream.start(10);
						await().atMost(FAULT_DEADLINE)
							.until(() -> runs(scenario).getOrDefault("leaves", 0L) >= 20 && stream.sentCount() >= 150);
						sentAtShutdown.set(stream.sentCount());
					});
					assertThat(sentAtShutdown.get()).isLessThan(400);
					Figures figures = scenario.settle("graceful shutdown of one of two instances", stream, Set.of());
					// A graceful stop finishes and acknowledges what runs and hands back
					// what has not started: nothing runs twice.
					assertThat(figures.duplicates()).isZero();
				}
			});
		}
	}

	private static String failingPayload(int i) {
		if (i % 25 == 3) {
			return "hang-once:2500";
		}
		if (i % 40 == 7) {
			return "always-throw";
		}
		if (i % 40 == 17) {
			return "fatal";
		}
		if (i % 40 == 27) {
			return "refuse";
		}
		return (i % 10 == 1) ? "throw-once" : "ok";
	}

	private static Set<String> duplicateIds(Scenario scenario) {
		Set<String> ids = new HashSet<>();
		scenario.ledger().completions().forEach((id, count) -> {
			if (count > 1) {
				ids.add(id);
			}
		});
		return ids;
	}

	private static long integerReply(String reply) {
		assertThat(reply).startsWith(":");
		return Long.parseLong(reply.substring(1).trim());
	}

	static JobRequest job(String topic, int i, String payload) {
		// Every other job is delayed, by up to 400 ms, so the scheduler is part of every
		// scenario.
		Duration delay = Duration.ofMillis((i % 2 == 0) ? 0 : (i % 5) * 100L);
		return JobRequest.builder(topic, payload).id(topic + "-" + i).delay(delay).build();
	}

	static void awaitProcess(ConsumerProcess process, Duration deadline, Callable<Boolean> condition) {
		try {
			await().atMost(deadline).until(condition);
		}
		catch (ConditionTimeoutException ex) {
			throw new AssertionError("Timed out; the consumer JVM printed:\n" + process.output(), ex);
		}
	}

	static Map<String, Long> runs(Scenario scenario) {
		return scenario.ledger().runsByInstance();
	}

}
