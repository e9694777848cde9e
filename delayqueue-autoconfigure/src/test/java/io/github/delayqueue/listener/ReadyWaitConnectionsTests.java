package io.github.delayqueue.listener;

import java.time.Duration;
import java.util.List;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.test.DelayQueueContextRunner;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The connections that listeners block on while they wait for ready jobs: one per topic,
 * their own, never taken from the application's connection pool, and released at once by
 * a stop.
 */
@ExtendWith(RedisExtension.class)
class ReadyWaitConnectionsTests {

	private static final int TOPICS = 6;

	private ApplicationContextRunner runner;

	@BeforeEach
	void setUp(RedisTestServer server) {
		server.flushAll();
		// A pool smaller than the number of topics, which waits for a free connection
		// no longer than two seconds.
		this.runner = DelayQueueContextRunner.create(server)
			.withPropertyValues("spring.data.redis.lettuce.pool.enabled=true",
					"spring.data.redis.lettuce.pool.max-active=2", "spring.data.redis.lettuce.pool.max-wait=2s")
			.withUserConfiguration(SixTopicListener.class);
	}

	@Test
	void leavesTheApplicationsPoolToTheApplicationWithMoreTopicsThanThePoolHoldsConnections(RedisTestServer server) {
		this.runner.run((context) -> {
			await().atMost(Duration.ofSeconds(10)).until(() -> RedisExtension.blockedClients(server) == TOPICS);
			StringRedisTemplate redis = context.getBean(StringRedisTemplate.class);
			// Pipelines run on a dedicated connection: one from the pool.
			List<Object> replies = redis.executePipelined((RedisCallback<Object>) (connection) -> {
				connection.stringCommands().set("app:key".getBytes(), "value".getBytes());
				connection.stringCommands().get("app:key".getBytes());
				return null;
			});
			assertThat(replies).containsExactly(true, "value");
		});
	}

	@Test
	void endsEveryBlockedWaitWhenTheListenersStop(RedisTestServer server) {
		this.runner.run((context) -> {
			await().atMost(Duration.ofSeconds(10)).until(() -> RedisExtension.blockedClients(server) == TOPICS);
			long start = System.nanoTime();
			context.getBean(DelayedJobListenerEndpointRegistry.class).stop();
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(1));
			assertThat(RedisExtension.blockedClients(server)).isZero();
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class SixTopicListener {

		@DelayedJobListener(topics = { "pool.a", "pool.b", "pool.c", "pool.d", "pool.e", "pool.f" })
		void on(String payload) {
		}

	}

}
