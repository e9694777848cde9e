package io.github.delayqueue.internal.store;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * {@link ScriptRunner} on Lettuce's shared connection and through the template, against a
 * real Redis.
 */
@ExtendWith(RedisExtension.class)
class ScriptRunnerTests {

	private static final TopicKeys KEYS = TopicKeys.of("dq", "scripts");

	private static final String CLIENT_NAME = "script-runner-tests";

	private final List<LettuceConnectionFactory> factories = new ArrayList<>();

	private RedisTestServer server;

	@BeforeEach
	void setUp(RedisTestServer server) {
		server.flushAll();
		this.server = server;
	}

	@AfterEach
	void tearDown() {
		this.factories.forEach(LettuceConnectionFactory::destroy);
	}

	@Test
	void runsOnTheSharedConnectionWithoutAConnectionObjectPerCall() {
		CountingConnectionFactory factory = started(new CountingConnectionFactory(configuration()));
		ScriptRunner scripts = runner(factory);
		int before = factory.connections.get();
		for (int i = 0; i < 20; i++) {
			assertThat(enqueue(scripts, "job-" + i)).containsExactly(-1L);
		}
		assertThat(factory.connections.get() - before).isEqualTo(1);
		assertThat(scripts.redis().opsForList().size(KEYS.ready())).isEqualTo(20);
	}

	@Test
	void runsSeveralCallsBackToBackOnTheSharedConnectionWithoutOpeningAnother() {
		CountingConnectionFactory factory = started(new CountingConnectionFactory(configuration()));
		ScriptRunner scripts = runner(factory);
		enqueue(scripts, "first");
		int before = factory.connections.get();

		List<List<Object>> replies = scripts.runPipelined(List.of(enqueueCall(TopicKeys.of("dq", "a"), "a1"),
				enqueueCall(TopicKeys.of("dq", "b"), "b1"), enqueueCall(TopicKeys.of("dq", "a"), "a1")));

		assertThat(replies).containsExactly(List.of(-1L), List.of(-1L), List.of(-1L, "!a1"));
		assertThat(factory.connections.get()).isEqualTo(before);
	}

	@Test
	void runsAgainOnlyTheCallsWhoseScriptRedisHadForgotten() {
		ScriptRunner scripts = runner(factory());
		this.server.command("SCRIPT", "FLUSH");
		enqueue(scripts, "loads-the-enqueue-script");
		TopicKeys topic = TopicKeys.of("dq", "mixed");

		List<List<Object>> replies = scripts
			.runPipelined(
					List.of(enqueueCall(topic, "once"),
							new ScriptRunner.Call(
									DelayQueueScript.COUNT_STATES, List.of(topic.delayed(), topic.ready(),
											topic.claiming(), topic.running(), topic.dead(), topic.ghosts()),
									List.of())));

		// Run twice, the enqueue would have reported its own job as a duplicate.
		assertThat(replies).containsExactly(List.of(-1L), List.of(0L, 1L, 0L, 0L));
		assertThat(scripts.redis().opsForList().range(topic.ready(), 0, -1)).containsExactly("once");
	}

	@ParameterizedTest(name = "shared connection: {0}")
	@ValueSource(booleans = { true, false })
	void loadsAScriptAgainAfterRedisForgotIt(boolean shared) {
		LettuceConnectionFactory factory = factory();
		factory.setShareNativeConnection(shared);
		ScriptRunner scripts = runner(factory);
		enqueue(scripts, "before");
		this.server.command("SCRIPT", "FLUSH");

		assertThat(enqueue(scripts, "after")).containsExactly(-1L);
		assertThat(this.server.command("SCRIPT", "EXISTS", DelayQueueScript.ENQUEUE.sha1Hex())).contains(":1");
		assertThat(scripts.redis().opsForList().range(KEYS.ready(), 0, -1)).containsExactly("after", "before");
	}

	@Test
	void runsThroughTheTemplateWhenTheFactoryValidatesEveryConnection() {
		CountingConnectionFactory factory = new CountingConnectionFactory(configuration());
		factory.setValidateConnection(true);
		ScriptRunner scripts = runner(started(factory));
		int before = factory.connections.get();
		enqueue(scripts, "a");
		enqueue(scripts, "b");
		assertThat(factory.connections.get() - before).isEqualTo(2);
	}

	@ParameterizedTest(name = "shared connection: {0}")
	@ValueSource(booleans = { true, false })
	void reportsTheRedisErrorWhenAScriptFails(boolean shared) {
		LettuceConnectionFactory factory = factory();
		factory.setShareNativeConnection(shared);
		ScriptRunner scripts = runner(factory);
		scripts.redis().opsForValue().set(KEYS.jobs(), "not a hash");

		assertThatExceptionOfType(DataAccessException.class).isThrownBy(() -> enqueue(scripts, "job"))
			.havingRootCause()
			.withMessageContaining("WRONGTYPE");
	}

	@Test
	void takesTheNewSharedConnectionAfterTheFactoryResetsIt() {
		LettuceConnectionFactory factory = factory();
		ScriptRunner scripts = runner(factory);
		enqueue(scripts, "before");
		factory.resetConnection();

		assertThat(enqueue(scripts, "after")).containsExactly(-1L);
	}

	@Test
	void failsAsTheTemplateDoesWhileTheFactoryIsStoppedAndRecoversWhenItStarts() {
		LettuceConnectionFactory factory = factory();
		ScriptRunner scripts = runner(factory);
		enqueue(scripts, "before");
		factory.stop();

		assertThatIllegalStateException().isThrownBy(() -> enqueue(scripts, "while stopped"))
			.withMessageContaining("STOPPED");
		factory.start();
		assertThat(enqueue(scripts, "after")).containsExactly(-1L);
	}

	@Test
	void carriesOnAfterRedisDropsTheSharedConnection() {
		LettuceConnectionFactory factory = started(new LettuceConnectionFactory(configuration(),
				LettuceClientConfiguration.builder().clientName(CLIENT_NAME).build()));
		ScriptRunner scripts = runner(factory);
		enqueue(scripts, "before");
		assertThat(this.server.command("CLIENT", "KILL", "ID", clientId(CLIENT_NAME))).startsWith(":1");

		await().atMost(Duration.ofSeconds(10))
			.ignoreExceptions()
			.untilAsserted(() -> assertThat(enqueue(scripts, "after")).containsExactly(-1L));
		assertThat(scripts.redis().opsForList().range(KEYS.ready(), 0, -1)).contains("after", "before");
	}

	private String clientId(String name) {
		for (String client : this.server.command("CLIENT", "LIST").split("\n")) {
			if (client.contains(" name=" + name + " ")) {
				return client.substring(client.indexOf("id=") + 3, client.indexOf(' ', client.indexOf("id=")));
			}
		}
		throw new IllegalStateException("No client named " + name);
	}

	private static ScriptRunner.Call enqueueCall(TopicKeys topic, String id) {
		return new ScriptRunner.Call(DelayQueueScript.ENQUEUE,
				List.of(topic.jobs(), topic.delayed(), topic.ready(), topic.dead(), topic.attempts(), topic.errors()),
				List.of("dq:wake", topic.topic(), "", id, "d0", "||||\"payload\""));
	}

	private static List<Object> enqueue(ScriptRunner scripts, String id) {
		return scripts.run(DelayQueueScript.ENQUEUE,
				List.of(KEYS.jobs(), KEYS.delayed(), KEYS.ready(), KEYS.dead(), KEYS.attempts(), KEYS.errors()),
				"dq:wake", KEYS.topic(), "", id, "d0", "||||\"payload\"");
	}

	private ScriptRunner runner(LettuceConnectionFactory factory) {
		StringRedisTemplate redis = new StringRedisTemplate(factory);
		redis.afterPropertiesSet();
		return new ScriptRunner(redis);
	}

	private LettuceConnectionFactory factory() {
		return started(new LettuceConnectionFactory(configuration()));
	}

	private <F extends LettuceConnectionFactory> F started(F factory) {
		factory.afterPropertiesSet();
		factory.start();
		this.factories.add(factory);
		return factory;
	}

	private RedisStandaloneConfiguration configuration() {
		return new RedisStandaloneConfiguration(this.server.host(), this.server.port());
	}

	/**
	 * Lettuce's factory, counting the connection objects it hands out.
	 */
	static class CountingConnectionFactory extends LettuceConnectionFactory {

		final AtomicInteger connections = new AtomicInteger();

		CountingConnectionFactory(RedisStandaloneConfiguration configuration) {
			super(configuration);
		}

		@Override
		public RedisConnection getConnection() {
			this.connections.incrementAndGet();
			return super.getConnection();
		}

	}

}
