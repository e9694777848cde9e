package io.github.delayqueue.reliability;

import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.JobRequest;
import io.github.delayqueue.internal.store.TopicKeys;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Cancels, reschedules and sends again the same ids while two instances consume a stream
 * of jobs: cancel and reschedule leave ghost entries in the ready list instead of
 * searching it, and the claims of both instances race with them. Every snapshot on the
 * way must hold the ghost invariant, a cancelled job must never run, and a job
 * rescheduled or sent again after its cancel must run exactly once.
 */
@ExtendWith(RedisExtension.class)
class CancelUnderLoadTests {

	private static final String TOPIC = "cancelled";

	private static final int JOBS = 300;

	private RedisTestServer server;

	@BeforeEach
	void setUp(RedisTestServer server) {
		this.server = server;
		server.flushAll();
	}

	@Test
	void neverRunsACancelledJobAndRunsARescheduledOrResentOneOnce() {
		// A time to run far above the handlers' 20 ms: no delivery expires, so any second
		// run, or any run of a cancelled job, is a fault of cancel, reschedule or claim.
		// Two workers per instance: fewer jobs a second than the stream sends.
		String[] settings = { "delayqueue.topics." + TOPIC + ".ttr=30s",
				"delayqueue.topics." + TOPIC + ".concurrency=2" };
		try (Scenario scenario = new Scenario(this.server, TOPIC)) {
			scenario.instance("a", settings).run((a) -> scenario.instance("b", settings).run((b) -> {
				DelayQueueOperations queue = a.getBean(DelayQueueOperations.class);
				DelayQueueAdmin admin = a.getBean(DelayQueueAdmin.class);
				Set<String> cancelled = new HashSet<>();
				Set<String> resent = new HashSet<>();
				Set<String> rescheduled = new HashSet<>();
				// Sent faster than the four workers finish them, so that a backlog of
				// READY jobs builds up for the cancels to meet.
				try (JobStream stream = new JobStream(queue::send, JOBS, CancelUnderLoadTests::job).start(2)) {
					for (int i = 0; i < JOBS; i++) {
						String id = TOPIC + "-" + i;
						// Right behind the stream, so as to meet jobs before they run.
						await().atMost(Scenario.SETTLE)
							.pollDelay(Duration.ZERO)
							.pollInterval(Duration.ofMillis(1))
							.until(() -> stream.sentIds().contains(id));
						if (i % 4 == 0 && queue.cancel(TOPIC, id)) {
							cancelled.add(id);
							if (i % 8 == 0) {
								queue.send(JobRequest.builder(TOPIC, "work:20").id(id).build());
								resent.add(id);
							}
						}
						else if (i % 4 == 1 && queue.reschedule(TOPIC, id, Duration.ofMillis(200))) {
							rescheduled.add(id);
						}
					}
					Set<String> expected = new HashSet<>(stream.sentIds());
					expected.removeAll(cancelled);
					expected.addAll(resent);
					await().atMost(Scenario.SETTLE)
						.until(() -> scenario.ledger().completedAll(expected) && scenario.snapshot().settled());
					Map<String, Long> completions = scenario.ledger().completions();
					Set<String> neverToRun = new HashSet<>(cancelled);
					neverToRun.removeAll(resent);
					// Jobs due at once that were cancelled were READY (or claiming):
					// ghosts.
					assertThat(resent).isNotEmpty();
					assertThat(rescheduled).isNotEmpty();
					assertThat(neverToRun).allSatisfy((id) -> assertThat(completions).doesNotContainKey(id));
					assertThat(completions.keySet()).containsExactlyInAnyOrderElementsOf(expected);
					assertThat(completions).allSatisfy((id, count) -> assertThat(count).as(id).isOne());
					assertThat(scenario.redis().hasKey(TopicKeys.of("dq", TOPIC).ghosts())).isFalse();
					assertThat(admin.stats(TOPIC).ready()).isZero();
					// The cancelled jobs take the place of the dead ones: sent, and
					// rightly never completed.
					scenario.report("cancel, reschedule, send again while two instances consume (dead: cancelled)",
							stream, neverToRun);
				}
			}));
		}
	}

	// Half the jobs due now, the other half after up to 400 ms; of those to be cancelled
	// (every fourth), half are due now and half after 300 ms, so that cancels meet READY,
	// claiming, running and DELAYED jobs.
	private static JobRequest job(int i) {
		long delay = (i % 4 == 0) ? ((i % 8 == 0) ? 0 : 300) : ((i % 2 == 0) ? 0 : (i % 5) * 100L);
		return JobRequest.builder(TOPIC, "work:20").id(TOPIC + "-" + i).delay(Duration.ofMillis(delay)).build();
	}

}
