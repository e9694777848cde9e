package io.github.delayqueue.listener;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.DelayedJob;
import io.github.delayqueue.core.JobRequest;
import io.github.delayqueue.test.ConsumerProcess;
import io.github.delayqueue.test.DelayQueueContextRunner;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A consumer JVM killed with {@code kill -9} while it holds jobs loses none of them.
 */
@ExtendWith(RedisExtension.class)
class ConsumerKilledTests {

	@Test
	void anotherConsumerCompletesEveryJobOfAConsumerKilledWhileHoldingThem(RedisTestServer server) {
		server.flushAll();
		Map<String, Integer> attempts = new ConcurrentHashMap<>();
		Completing.attempts = attempts;
		List<String> sent = new ArrayList<>();
		try (ConsumerProcess doomed = ConsumerProcess.start(server, "hold", "delayqueue.topics.kill.ttr=2s")) {
			DelayQueueContextRunner.create(server)
				.withPropertyValues("delayqueue.topics.kill.ttr=2s", "delayqueue.listener.enabled=false")
				.run((context) -> {
					DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
					DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
					List<JobRequest> requests = new ArrayList<>();
					for (int i = 0; i < 20; i++) {
						requests.add(JobRequest.builder("kill", "job-" + i).build());
					}
					sent.addAll(queue.sendAll(requests));
					await().atMost(Duration.ofSeconds(30))
						.until(() -> admin.stats("kill").running() == 4 && doomed.output().lines().count() >= 4);
				});
			doomed.kill();
			assertThat(doomed.isAlive()).isFalse();
		}
		DelayQueueContextRunner.create(server)
			.withUserConfiguration(Completing.class)
			.withPropertyValues("delayqueue.topics.kill.ttr=2s")
			.run((context) -> {
				DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
				DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
				await().atMost(Duration.ofSeconds(30)).until(() -> attempts.size() == 20);
				await().atMost(Duration.ofSeconds(10)).until(() -> admin.stats("kill").pending() == 0);
			});
		Set<String> completed = new HashSet<>(attempts.keySet());
		assertThat(completed).isEqualTo(new HashSet<>(sent));
		assertThat(attempts.values().stream().filter((attempt) -> attempt == 2)).hasSize(4);
		Completing.attempts = null;
	}

	@Configuration(proxyBeanMethods = false)
	static class Completing {

		static volatile Map<String, Integer> attempts;

		@DelayedJobListener(topics = "kill", concurrency = "4")
		void on(DelayedJob<String> job) {
			attempts.put(job.id(), job.attempt());
		}

	}

}
