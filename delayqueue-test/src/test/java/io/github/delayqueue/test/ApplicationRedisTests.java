package io.github.delayqueue.test;

import java.time.Duration;

import io.github.delayqueue.core.DelayQueueOperations;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.annotation.DirtiesContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A test whose application names a Redis of its own, by URL: the test support starts
 * none, drives the queue on that Redis, and touches nothing there but the keys of the
 * test's own prefix.
 */
@SpringBootTest(classes = TestApplication.class)
@AutoConfigureDelayQueue
// Closed after the class, while its Redis still runs: a cached context would be closed
// only
// as the JVM exits, when this server's shutdown hook may have stopped it already, and the
// closing scheduler would wait for a Redis that is gone.
@DirtiesContext
class ApplicationRedisTests {

	// Another server than the one the test support would start: the application's own.
	private static final EmbeddedRedisServer applicationRedis = EmbeddedRedisServer
		.start(System.getProperty("delayqueue-test.redis-server", EmbeddedRedisServer.EMBEDDED));

	@Autowired
	private ApplicationContext context;

	@Autowired
	private LettuceConnectionFactory connectionFactory;

	@Autowired
	private StringRedisTemplate redis;

	@Autowired
	private Environment environment;

	@Autowired
	private DelayQueueOperations delayQueue;

	@Autowired
	private DelayQueueTester tester;

	@Autowired
	private TestApplication.Handlers handlers;

	@DynamicPropertySource
	static void applicationRedis(DynamicPropertyRegistry registry) {
		registry.add("spring.data.redis.url", () -> "redis://127.0.0.1:" + applicationRedis.port());
	}

	@Test
	void startsNoRedisAndDrivesTheQueueOnTheApplicationsOwn() {
		assertThat(this.context.containsBean("delayQueueEmbeddedRedis")).isFalse();
		assertThat(this.context.containsBean("delayQueueRedisContainer")).isFalse();
		assertThat(this.connectionFactory.getPort()).isEqualTo(applicationRedis.port());

		this.delayQueue.send("reminders", "on the application's Redis", Duration.ofHours(1));
		String prefix = this.environment.getRequiredProperty("delayqueue.key-prefix");
		assertThat(this.redis.keys("{" + prefix + ":reminders}:*")).isNotEmpty();
		this.tester.advance("reminders", Duration.ofHours(1));
		this.tester.awaitIdle("reminders");

		assertThat(this.handlers.payloads("reminders")).contains("on the application's Redis");
	}

	@Test
	void aResetLeavesTheApplicationsDataAlone() {
		this.redis.opsForValue().set("application:orders:42", "kept");
		this.delayQueue.send("reminders", "wiped", Duration.ofHours(1));

		this.tester.reset();

		assertThat(this.redis.opsForValue().get("application:orders:42")).isEqualTo("kept");
		this.tester.assertThat("reminders").hasDelayed(0).hasSent(0);
	}

}
