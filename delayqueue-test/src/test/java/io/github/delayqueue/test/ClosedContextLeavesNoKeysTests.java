package io.github.delayqueue.test;

import java.time.Duration;
import java.util.Set;

import io.github.delayqueue.core.DelayQueueOperations;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.test.annotation.DirtiesContext.HierarchyMode;
import org.springframework.test.context.TestContextManager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A test's application context, closed as Spring's test framework closes it, leaves no
 * key of its prefix on the Redis the tests use: not the schedules' registry, not the
 * timelines, not the throughput history that is flushed as the context stops.
 */
class ClosedContextLeavesNoKeysTests {

	@Test
	void aClosedTestContextLeavesNoKeyOfItsPrefix() throws Exception {
		TestContextManager manager = new TestContextManager(ScheduledApplicationTest.class);
		manager.prepareTestInstance(new ScheduledApplicationTest());
		ApplicationContext context = manager.getTestContext().getApplicationContext();
		String prefix = context.getEnvironment().getRequiredProperty("delayqueue.key-prefix");
		DelayQueueTester tester = context.getBean(DelayQueueTester.class);
		DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
		queue.send("partner.sync", "by hand");
		queue.send("partner.sync", "later", Duration.ofHours(1));
		tester.awaitIdle("partner.sync");
		LettuceConnectionFactory connectionFactory = context.getBean(LettuceConnectionFactory.class);
		RedisStandaloneConfiguration redis = connectionFactory.getStandaloneConfiguration();
		LettuceConnectionFactory own = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(redis.getHostName(), redis.getPort()));
		own.afterPropertiesSet();
		own.start();
		try {
			StringRedisTemplate template = new StringRedisTemplate(own);
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(keysOf(template, prefix)).as("keys while the context runs")
					.anyMatch((key) -> key.contains("schedules"))
					.anyMatch((key) -> key.contains(":history:")));

			manager.getTestContext().markApplicationContextDirty(HierarchyMode.EXHAUSTIVE);

			assertThat(keysOf(template, prefix)).as("keys of prefix " + prefix + " after the context closed").isEmpty();
		}
		finally {
			own.destroy();
		}
	}

	private static Set<String> keysOf(StringRedisTemplate template, String prefix) {
		Set<String> keys = new java.util.TreeSet<>(template.keys(prefix + ":*"));
		keys.addAll(template.keys("{" + prefix + ":*"));
		return keys;
	}

	@SpringBootTest(classes = ScheduleTestApplication.class,
			properties = { "delayqueue.topics.partner.sync.timeline=true", "delayqueue.history.flush-interval=100ms" })
	@AutoConfigureDelayQueue
	static class ScheduledApplicationTest {

	}

}
