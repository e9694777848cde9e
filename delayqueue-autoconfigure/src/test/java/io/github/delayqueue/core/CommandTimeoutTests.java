package io.github.delayqueue.core;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.github.delayqueue.core.DefaultDelayQueueAdmin;
import io.github.delayqueue.core.DefaultDelayQueueAdmin;
import io.github.delayqueue.core.DefaultDelayQueueAdmin;
import io.github.delayqueue.core.DefaultDelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.internal.store.DelayQueueKeys;
import io.github.delayqueue.internal.store.JobRecordCodec;
import io.github.delayqueue.internal.store.JobStore;
import io.github.delayqueue.internal.store.ScriptRunner;
import io.github.delayqueue.test.RedisTestServer;
import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.dao.DataAccessException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Sends fail fast while Redis is gone, however long {@code spring.data.redis.timeout}:
 * every call of the starter waits at most {@code delayqueue.command-timeout}, and while
 * Redis refuses connections a call fails at once. Each test runs a Redis of its own, so
 * that it may stop and pause it.
 */
class CommandTimeoutTests {

	// Boot's default spring.data.redis.timeout, under which a send used to hang a minute.
	private static final Duration FACTORY_TIMEOUT = Duration.ofSeconds(60);

	private RedisTestServer server;

	private LettuceConnectionFactory factory;

	@BeforeEach
	void setUp() {
		this.server = RedisTestServer.startDedicated();
		this.factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(this.server.host(), this.server.port()),
				LettuceClientConfiguration.builder().commandTimeout(FACTORY_TIMEOUT).build());
		this.factory.afterPropertiesSet();
		this.factory.start();
	}

	@AfterEach
	void tearDown() {
		this.factory.destroy();
		this.server.close();
	}

	@Test
	void failsASendWhileRedisIsDownAndSendsAgainOnceItIsBack() {
		DelayQueueTemplate template = template(new ScriptRunner(redis()));
		template.send("orders", "before");

		this.server.stop();
		assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
			// Queued behind a reconnect, it waits the command timeout; once a reconnect
			// failed, it fails at once.
			DataAccessException first = catchThrowableOfType(DataAccessException.class,
					() -> template.send("orders", "during"));
			assertThat(first).isNotNull();
			assertThat(first.getMessage()).containsAnyOf("delayqueue.command-timeout", "Redis is not reachable");
			// A reconnect has failed by now: the next send is not even queued.
			assertThatExceptionOfType(RedisConnectionFailureException.class)
				.isThrownBy(() -> template.send("orders", "refused"))
				.withMessageContaining("Redis is not reachable")
				.withMessageContaining("the command was not sent");
			// A topic not seen before registers it first, on the same bounded path.
			assertThatExceptionOfType(DataAccessException.class).isThrownBy(() -> template.send("fresh", "refused"));
		});

		this.server.restart();
		await().atMost(Duration.ofSeconds(60))
			.ignoreExceptionsInstanceOf(DataAccessException.class)
			.untilAsserted(() -> assertThat(template.send("orders", "after")).isNotBlank());
		assertThat(admin(new ScriptRunner(redis())).stats("orders").ready()).isEqualTo(1);
	}

	@Test
	void failsACallThatRedisDoesNotAnswerInTimeAndNamesTheProperty() {
		DelayQueueTemplate template = template(new ScriptRunner(redis(), Duration.ofSeconds(2)));
		template.send("orders", "before");

		assertThat(this.server.command("CLIENT", "PAUSE", "20000", "WRITE")).startsWith("+OK");
		try {
			assertTimeoutPreemptively(Duration.ofSeconds(15),
					() -> assertThatExceptionOfType(QueryTimeoutException.class)
						.isThrownBy(() -> template.send(JobRequest.builder("orders", "late").id("late").build()))
						.withMessageContaining("Redis did not answer within 2000 ms (delayqueue.command-timeout"));
		}
		finally {
			this.server.command("CLIENT", "UNPAUSE");
		}
		// The send had reached Redis, which runs it once the pause ends: a timed-out send
		// may have been written. Sending it again with its id tells which.
		await().atMost(Duration.ofSeconds(20))
			.untilAsserted(() -> assertThat(template.find("orders", "late")).isPresent());
		assertThatExceptionOfType(DuplicateJobException.class)
			.isThrownBy(() -> template.send(JobRequest.builder("orders", "late").id("late").build()));
	}

	@Test
	void lettuceDropsACommandCancelledWhileItWaitedForAReconnect() throws Exception {
		try (RedisConnection connection = this.factory.getConnection()) {
			RedisClusterAsyncCommands<byte[], byte[]> commands = ((LettuceConnection) connection).getNativeConnection();
			byte[] key = "probe".getBytes(StandardCharsets.UTF_8);
			assertThat(LettuceFutures.awaitOrCancel(commands.ping(), 10, TimeUnit.SECONDS)).isEqualTo("PONG");

			this.server.stop();
			RedisFuture<String> queued = commands.set(key, key);
			assertThatExceptionOfType(RedisCommandTimeoutException.class)
				.isThrownBy(() -> LettuceFutures.awaitOrCancel(queued, 500, TimeUnit.MILLISECONDS));
			this.server.restart();

			// Commands queued during the outage are written first once the connection is
			// back; the cancelled one is not among them.
			await().atMost(Duration.ofSeconds(60))
				.ignoreExceptions()
				.until(() -> "PONG".equals(LettuceFutures.awaitOrCancel(commands.ping(), 1, TimeUnit.SECONDS)));
			assertThat(LettuceFutures.awaitOrCancel(commands.exists(key), 10, TimeUnit.SECONDS)).isZero();
		}
	}

	private StringRedisTemplate redis() {
		StringRedisTemplate redis = new StringRedisTemplate(this.factory);
		redis.afterPropertiesSet();
		return redis;
	}

	private static DelayQueueAdmin admin(ScriptRunner scripts) {
		return new DefaultDelayQueueAdmin(
				new JobStore(scripts, new DelayQueueKeys("dq"), new JobRecordCodec(JsonMapper.builder().build())));
	}

	private static DelayQueueTemplate template(ScriptRunner scripts) {
		JsonMapper jsonMapper = JsonMapper.builder().build();
		JobRecordCodec codec = new JobRecordCodec(jsonMapper);
		return new DelayQueueTemplate(new JobStore(scripts, new DelayQueueKeys("dq"), codec), codec, jsonMapper);
	}

}
