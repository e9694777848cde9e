package io.github.delayqueue.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.InvalidJobException;
import io.github.delayqueue.internal.store.TopicKeys;
import io.github.delayqueue.reliability.QueueInvariants.Snapshot;
import io.github.delayqueue.test.DelayQueueContextRunner;
import io.github.delayqueue.test.RecordingJobHandler;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Bad input ends in a clear error or a dead job with its reason, never in a crash loop or
 * a silent drop of a real job. Garbage written into Redis by hand, and job data that
 * vanished, are covered here; invalid topic names, ids, delays and payloads sent through
 * the template are refused before anything is written (see
 * {@code DelayQueueTemplateTests.refusesInvalidInputBeforeWritingAnything}), a payload
 * that does not convert to the listener's type makes the job dead at once (see
 * {@code DelayedJobListenerTests.makesAJobDeadAtOnceWhenItsPayloadDoesNotConvert}), a
 * listener method that cannot be served fails start-up (see
 * {@code DelayedJobListenerValidationTests}), and most invalid settings fail start-up
 * naming the property (see
 * {@code DelayQueueAutoConfigurationTests.failsStartUpNamingAnInvalidProperty}).
 */
@ExtendWith(RedisExtension.class)
class BadInputTests {

	private static final Duration DEADLINE = Duration.ofSeconds(30);

	private static final TopicKeys KEYS = TopicKeys.of("dq", "bad");

	private RedisTestServer server;

	@BeforeEach
	void setUp(RedisTestServer server) {
		this.server = server;
		server.flushAll();
	}

	@Test
	void buriesMalformedRecordsPushedByHandWithTheReasonAndKeepsConsuming() {
		try (Scenario scenario = new Scenario(this.server, "bad")) {
			scenario.instance("a").run((context) -> {
				StringRedisTemplate redis = scenario.redis();
				redis.opsForHash().put(KEYS.jobs(), "no-fields", "not a job record");
				redis.opsForHash().put(KEYS.jobs(), "bad-number", "1|2|soon||||\"ok\"");
				redis.opsForHash().put(KEYS.jobs(), "bad-json", "1|2||||{}|{not json");
				redis.opsForList().leftPushAll(KEYS.ready(), "no-fields", "bad-number", "bad-json");
				String good = context.getBean(DelayQueueOperations.class).send("bad", "ok");
				await().atMost(DEADLINE)
					.until(() -> scenario.ledger().completions().containsKey(good) && scenario.snapshot().dead() == 3);
				assertThat(error(redis, "no-fields")).contains("Malformed job record");
				assertThat(error(redis, "bad-number")).contains("Malformed job record");
				assertThat(error(redis, "bad-json")).isNotBlank();
				DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
				DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
				assertThat(admin.deadJobs("bad", 0, 10)).hasSize(3);
				assertThat(admin.stats("bad").dead()).isEqualTo(3);
				assertClean(scenario.snapshot());
			});
		}
	}

	@Test
	void dropsIdsPushedWithoutARecordAndKeepsConsuming() {
		try (Scenario scenario = new Scenario(this.server, "bad")) {
			StringRedisTemplate redis = scenario.redis();
			redis.opsForList().leftPush(KEYS.ready(), "ghost-in-ready");
			// An id left in the claiming list goes back to ready on the orphan check, and
			// is dropped there.
			redis.opsForList().leftPush(KEYS.claiming(), "ghost-in-claiming");
			assertThat(scenario.snapshot().violations()).hasSize(2);
			scenario.instance("a").run((context) -> {
				String good = context.getBean(DelayQueueOperations.class).send("bad", "ok");
				await().atMost(DEADLINE).until(() -> scenario.ledger().completions().containsKey(good));
				await().atMost(DEADLINE).until(() -> scenario.snapshot().violations().isEmpty());
				assertClean(scenario.snapshot());
				assertThat(redis.opsForHash().keys(KEYS.attempts())).isEmpty();
				assertThat(scenario.ledger().completions()).containsOnlyKeys(good);
			});
		}
	}

	@Test
	void dropsADelayedJobWhoseRecordVanished() {
		try (Scenario scenario = new Scenario(this.server, "bad")) {
			scenario.instance("a").run((context) -> {
				DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
				DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
				String vanished = queue.send("bad", "ok", Duration.ofSeconds(2));
				scenario.redis().opsForHash().delete(KEYS.jobs(), vanished);
				// The checker sees the damage: an id in the delayed set without a record.
				assertThat(scenario.snapshot().violations())
					.containsExactly(vanished + " is in delayed without a record");
				String good = queue.send("bad", "ok", Duration.ofMillis(2100));
				await().atMost(DEADLINE).until(() -> scenario.ledger().completions().containsKey(good));
				await().atMost(DEADLINE).until(() -> scenario.snapshot().violations().isEmpty());
				assertClean(scenario.snapshot());
				assertThat(scenario.ledger().completions()).containsOnlyKeys(good);
			});
		}
	}

	@Test
	void dropsARunningJobWhoseRecordVanishedOnceItsTimeToRunElapses() {
		try (Scenario scenario = new Scenario(this.server, "bad")) {
			scenario.instance("a", "delayqueue.topics.bad.ttr=1s").run((context) -> {
				StringRedisTemplate redis = scenario.redis();
				String vanished = context.getBean(DelayQueueOperations.class).send("bad", "work:2500");
				await().atMost(DEADLINE).until(() -> redis.opsForZSet().score(KEYS.running(), vanished) != null);
				redis.opsForHash().delete(KEYS.jobs(), vanished);
				await().atMost(DEADLINE).until(() -> scenario.snapshot().violations().isEmpty());
				assertThat(redis.opsForHash().keys(KEYS.attempts())).isEmpty();
				// The handler still finishes its run; its acknowledgement finds nothing
				// to settle, and there is nothing left to deliver again.
				await().atMost(DEADLINE).until(() -> scenario.ledger().completions().containsKey(vanished));
				assertThat(redis.opsForHash().get(RecordingJobHandler.ledger("bad") + ":runs", vanished))
					.isEqualTo("1");
				assertClean(scenario.snapshot());
			});
		}
	}

	@Test
	void refusesAPayloadOverTheConfiguredSizeBeforeWritingAnything() {
		try (Scenario scenario = new Scenario(this.server, "bad")) {
			scenario.instance("a", "delayqueue.max-payload-size=1KB").run((context) -> {
				DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
				DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
				assertThatExceptionOfType(InvalidJobException.class)
					.isThrownBy(() -> queue.send("bad", "x".repeat(2000)))
					.withMessageContaining("delayqueue.max-payload-size");
				assertThat(scenario.redis().hasKey(KEYS.jobs())).isFalse();
			});
		}
	}

	@Test
	void failsStartUpNamingAnInvalidTimingOrAValueThatIsNotADuration() {
		ApplicationContextRunner runner = DelayQueueContextRunner.create(this.server);
		for (String property : List.of("delayqueue.listener.poll-timeout=0s", "delayqueue.scheduler.max-sleep=-1s",
				"delayqueue.topics.bad.ttr=soon", "delayqueue.defaults.retry.max-attempts=many")) {
			runner.withPropertyValues(property).run((context) -> {
				assertThat(context).hasFailed();
				assertThat(messages(context.getStartupFailure())).anySatisfy(
						(message) -> assertThat(message).contains(property.substring(0, property.indexOf('='))));
			});
		}
	}

	private static String error(StringRedisTemplate redis, String id) {
		Object error = redis.opsForHash().get(KEYS.errors(), id);
		assertThat(redis.opsForZSet().score(KEYS.dead(), id)).isNotNull();
		return String.valueOf(error);
	}

	private static void assertClean(Snapshot snapshot) {
		assertThat(snapshot.violations()).isEmpty();
		assertThat(snapshot.ready() + snapshot.claiming() + snapshot.running() + snapshot.delayed()).isZero();
	}

	private static List<String> messages(Throwable failure) {
		List<String> messages = new ArrayList<>();
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			messages.add(String.valueOf(cause.getMessage()));
		}
		return messages;
	}

}
