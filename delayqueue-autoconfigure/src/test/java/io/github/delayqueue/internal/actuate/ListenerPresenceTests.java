package io.github.delayqueue.internal.actuate;

import java.time.Duration;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.internal.presence.EmptyTopicPruner;
import io.github.delayqueue.internal.presence.ListenerPresencePublisher;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The presence of an instance's listeners in Redis, and the pruning of topics that have
 * neither jobs nor listeners, in a real application against a real Redis.
 */
@ExtendWith(RedisExtension.class)
class ListenerPresenceTests {

	@Test
	void publishesItsListenersWhileRunningAndRemovesThemWhenStopped(RedisTestServer server) {
		ConfigurableApplicationContext context = start(server, "presence");
		StringRedisTemplate redis = redis(context);
		String instance = context.getBean(ListenerPresencePublisher.class).getInstanceId();

		await().atMost(Duration.ofSeconds(20))
			.untilAsserted(() -> assertThat((String) redis.opsForHash().get("presence:listeners", instance))
				.contains("\"id\":\"keptListener\"", "\"topics\":[\"kept\"]", "\"running\":true"));

		context.close();

		assertThat(server.command("HEXISTS", "presence:listeners", instance)).isEqualTo(":0\r\n");
	}

	@Test
	void forgetsTopicsWithoutJobsAndListenersForLongerThanTheirRetention(RedisTestServer server) {
		try (ConfigurableApplicationContext context = start(server, "pruned")) {
			DelayQueueOperations delayQueue = context.getBean(DelayQueueOperations.class);
			DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
			EmptyTopicPruner pruner = context.getBean(EmptyTopicPruner.class);
			StringRedisTemplate redis = redis(context);
			String gone = delayQueue.send("gone", "x", Duration.ofHours(1));
			assertThat(delayQueue.cancel("gone", gone)).isTrue();
			delayQueue.send("busy", "x", Duration.ofHours(1));
			await().atMost(Duration.ofSeconds(20))
				.until(() -> redis.opsForHash()
					.hasKey("pruned:listeners", context.getBean(ListenerPresencePublisher.class).getInstanceId()));
			assertThat(admin.topics()).contains("gone", "busy", "kept");

			await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
				pruner.prune();
				assertThat(admin.topics()).doesNotContain("gone");
			});

			assertThat(admin.topics()).contains("busy", "kept");
			assertThat(redis.opsForHash().hasKey("pruned:topics-empty-since", "gone")).isFalse();
			assertThat(redis.opsForHash().hasKey("pruned:topics-empty-since", "busy")).isFalse();
			assertThat(redis.opsForHash().hasKey("pruned:topics-empty-since", "kept")).isFalse();
		}
	}

	private static ConfigurableApplicationContext start(RedisTestServer server, String prefix) {
		return new SpringApplicationBuilder(PresenceApplication.class).web(WebApplicationType.NONE)
			.properties("spring.data.redis.host=" + server.host(), "spring.data.redis.port=" + server.port(),
					"spring.data.redis.client-type=lettuce", "delayqueue.key-prefix=" + prefix,
					"delayqueue.topics.gone.dead-letter.retention=200ms",
					"delayqueue.topics.busy.dead-letter.retention=200ms",
					"delayqueue.topics.kept.dead-letter.retention=200ms")
			.run();
	}

	private static StringRedisTemplate redis(ConfigurableApplicationContext context) {
		StringRedisTemplate redis = new StringRedisTemplate(context.getBean(RedisConnectionFactory.class));
		redis.afterPropertiesSet();
		return redis;
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class PresenceApplication {

		@Bean
		KeptListener keptListener() {
			return new KeptListener();
		}

	}

	static class KeptListener {

		@DelayedJobListener(topics = "kept", id = "keptListener")
		void handle(String payload) {
		}

	}

}
