package io.github.delayqueue.listener;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.JobRequest;
import io.github.delayqueue.store.DelayQueueKeys;
import io.github.delayqueue.store.PartitionRegistry;
import io.github.delayqueue.store.ScriptRunner;
import io.github.delayqueue.test.DelayQueueContextRunner;
import io.github.delayqueue.test.PartitionIds;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What a listener holds for the partitions of its topic: a bounded number of waiting
 * threads and connections, however many partitions there are, and fewer once drained
 * partitions that the configuration no longer has leave their topic.
 */
@ExtendWith(RedisExtension.class)
class PartitionWaitersTests {

	private static final String TOPIC = "fanned";

	private static final int PARTITIONS = 64;

	@BeforeEach
	void setUp(RedisTestServer server) {
		server.flushAll();
	}

	@Test
	void keepsBoundedWaitersAndDropsThoseOfPartitionsThatLeftTheTopic(RedisTestServer server) {
		// An instance configured with 64 partitions sends a job to each.
		DelayQueueContextRunner.create(server)
			.withPropertyValues("delayqueue.topics." + TOPIC + ".partitions=" + PARTITIONS,
					"delayqueue.scheduler.enabled=false")
			.run((context) -> context.getBean(DelayQueueOperations.class)
				.sendAll(onePerPartition(context.getBean(DelayQueueKeys.class))));
		// The topic is now configured with one partition.
		DelayQueueContextRunner.create(server)
			.withUserConfiguration(FannedListener.class)
			.withPropertyValues("delayqueue.listener.poll-timeout=1s")
			.run((context) -> {
				context.getBean(DelayedJobListenerContainerFactory.class)
					.setQueueRefreshInterval(Duration.ofSeconds(1));
				DelayedJobListenerContainer container = context.getBean(DelayedJobListenerEndpointRegistry.class)
					.getListenerContainer(TOPIC);
				assertThat(container).isNotNull();
				container.start();
				FannedListener listener = context.getBean(FannedListener.class);
				await().atMost(Duration.ofSeconds(30)).until(() -> listener.received.size() == PARTITIONS);
				// 64 queues, waited on by at most 16 threads and connections.
				await().atMost(Duration.ofSeconds(10))
					.until(() -> waiterThreads() == ReadyWaiters.MIN_BOUND
							&& waitingConnections(server) == ReadyWaiters.MIN_BOUND);
				System.out.println("Listener of " + PARTITIONS + " partitions: " + waiterThreads() + " waiter threads, "
						+ waitingConnections(server) + " waiting connections");
				List<String> retired = new PartitionRegistry(context.getBean(ScriptRunner.class),
						context.getBean(DelayQueueKeys.class))
					.retireDrained(TOPIC);
				assertThat(retired).hasSize(PARTITIONS - 1);
				await().atMost(Duration.ofSeconds(10))
					.until(() -> waiterThreads() == 1 && waitingConnections(server) == 1);
				System.out.println("Once the drained partitions left the topic: " + waiterThreads() + " waiter thread, "
						+ waitingConnections(server) + " waiting connection");
			});
	}

	private static List<JobRequest> onePerPartition(DelayQueueKeys keys) {
		return PartitionIds.onePerPartition(keys, TOPIC, PARTITIONS)
			.stream()
			.map((id) -> JobRequest.builder(TOPIC, id).id(id).build())
			.toList();
	}

	private static long waiterThreads() {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.isAlive() && thread.getName().startsWith("delayqueue-" + TOPIC + "-waiter-"))
			.count();
	}

	// Connections whose last command was a blocking move: those the waiters hold.
	private static long waitingConnections(RedisTestServer server) {
		return server.command("CLIENT", "LIST").lines().filter((line) -> line.contains(" cmd=blmove")).count();
	}

	@Configuration(proxyBeanMethods = false)
	static class FannedListener {

		final Set<String> received = ConcurrentHashMap.newKeySet();

		@DelayedJobListener(id = TOPIC, topics = TOPIC, autoStartup = "false")
		void on(String payload) {
			this.received.add(payload);
		}

	}

}
