package io.github.delayqueue.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.github.delayqueue.internal.store.TopicKeys;
import io.github.delayqueue.reliability.QueueInvariants.Snapshot;
import io.github.delayqueue.reliability.ScenarioLedger.Figures;
import io.github.delayqueue.test.ConsumerProcess;
import io.github.delayqueue.test.DelayQueueContextRunner;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * One reliability scenario on one topic: the settings every instance shares, a checker
 * that takes an atomic snapshot of the topic every 25 ms while the scenario runs, and the
 * final accounting from Redis.
 */
final class Scenario implements AutoCloseable {

	/**
	 * How long a scenario may take to settle after its stream ended: generous, because a
	 * loaded CI machine is slow; correctness is asserted exactly.
	 */
	static final Duration SETTLE = Duration.ofSeconds(60);

	private final String topic;

	private final RedisTestServer server;

	private final LettuceConnectionFactory connectionFactory;

	private final StringRedisTemplate redis;

	private final QueueInvariants invariants;

	private final ScenarioLedger ledger;

	private final ScheduledExecutorService checker = Executors.newSingleThreadScheduledExecutor((task) -> {
		Thread thread = new Thread(task, "reliability-invariants");
		thread.setDaemon(true);
		return thread;
	});

	Scenario(RedisTestServer server, String topic) {
		this.server = server;
		this.topic = topic;
		this.connectionFactory = RedisExtension.connectionFactory(server);
		this.redis = new StringRedisTemplate(this.connectionFactory);
		this.redis.afterPropertiesSet();
		this.invariants = new QueueInvariants(this.redis, topic);
		this.ledger = new ScenarioLedger(this.redis, topic);
		this.checker.scheduleWithFixedDelay(this.invariants::checkQuietly, 0, 25, TimeUnit.MILLISECONDS);
	}

	/**
	 * Return the settings of every instance in this scenario.
	 * @return {@code name=value} pairs
	 */
	List<String> properties() {
		String t = "delayqueue.topics." + this.topic;
		return List.of("reliability.topic=" + this.topic, "delayqueue.listener.poll-timeout=500ms",
				"delayqueue.scheduler.max-sleep=1s", "delayqueue.scheduler.orphan-check-interval=1s",
				"delayqueue.listener.shutdown-timeout=10s", t + ".ttr=2s", t + ".concurrency=4",
				t + ".retry.max-attempts=20", t + ".retry.backoff.delay=100ms", t + ".retry.backoff.max-delay=500ms",
				t + ".retry.backoff.jitter=0");
	}

	/**
	 * Return a runner for an in-process instance.
	 * @param instance the instance's name in the ledger
	 * @param extra settings beyond {@link #properties()}
	 * @return the runner
	 */
	ApplicationContextRunner instance(String instance, String... extra) {
		List<String> all = new ArrayList<>(properties());
		all.add("reliability.instance=" + instance);
		all.addAll(List.of(extra));
		return DelayQueueContextRunner.create(this.server)
			.withUserConfiguration(ReliabilityConfiguration.class)
			.withPropertyValues(all.toArray(String[]::new));
	}

	/**
	 * Start an instance in a JVM of its own.
	 * @param instance the instance's name in the ledger
	 * @return the process
	 */
	ConsumerProcess process(String instance) {
		List<String> all = new ArrayList<>(properties());
		all.addAll(List.of("consumer.topic=" + this.topic, "consumer.instance=" + instance));
		return ConsumerProcess.start(this.server, "record", all.toArray(String[]::new));
	}

	StringRedisTemplate redis() {
		return this.redis;
	}

	ScenarioLedger ledger() {
		return this.ledger;
	}

	Snapshot snapshot() {
		return this.invariants.check();
	}

	/**
	 * Wait until every job expected to complete did and nothing is pending but the dead,
	 * check the invariant once more, and report the figures.
	 * @param name the scenario's name
	 * @param stream the stream
	 * @param dead ids dead by design
	 * @return the figures
	 */
	Figures settle(String name, JobStream stream, Set<String> dead) {
		awaitSettled(stream, dead);
		return report(name, stream, dead);
	}

	/**
	 * Wait until the stream ended, every job expected to complete did and nothing is
	 * pending but the dead, then check the invariant once more.
	 * @param stream the stream
	 * @param dead ids dead by design
	 */
	void awaitSettled(JobStream stream, Set<String> dead) {
		await().atMost(SETTLE).until(stream::finished);
		Set<String> expected = new HashSet<>(stream.sentIds());
		expected.removeAll(dead);
		await().atMost(SETTLE).until(() -> this.ledger.completedAll(expected) && snapshot().settled());
		this.checker.shutdownNow();
		Snapshot last = snapshot();
		assertThat(this.redis.opsForZSet().range(TopicKeys.of("dq", this.topic).dead(), 0, -1))
			.containsExactlyInAnyOrderElementsOf(dead);
		assertThat(last.violations()).isEmpty();
	}

	/**
	 * Report the figures and assert that nothing was lost and no snapshot broke the
	 * invariant.
	 * @param name the scenario's name
	 * @param stream the stream
	 * @param dead ids dead by design
	 * @return the figures
	 */
	Figures report(String name, JobStream stream, Set<String> dead) {
		Figures figures = this.ledger.report(name, stream.sentIds(), dead, this.invariants);
		System.out
			.println("RELIABILITY " + name + ": " + stream.failedSends() + " send(s) failed and were tried again, "
					+ stream.refusedAsDuplicates() + " refused as duplicates of an earlier try that had landed");
		assertThat(figures.lostIds()).isEmpty();
		assertThat(this.invariants.violations()).isEmpty();
		assertThat(figures.checks()).isGreaterThan(0);
		return figures;
	}

	@Override
	public void close() {
		this.checker.shutdownNow();
		this.connectionFactory.destroy();
	}

}
