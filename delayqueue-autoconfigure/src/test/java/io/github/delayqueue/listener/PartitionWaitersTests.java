package io.github.delayqueue.listener;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.JobRequest;
import io.github.delayqueue.internal.scheduler.SchedulerIntervals;
import io.github.delayqueue.internal.store.DelayQueueKeys;
import io.github.delayqueue.internal.store.PartitionRegistry;
import io.github.delayqueue.internal.store.ScriptRunner;
import io.github.delayqueue.test.DelayQueueContextRunner;
import io.github.delayqueue.test.DelayQueueFixture;
import io.github.delayqueue.test.PartitionIds;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What a listener holds for the partitions of its topic: a bounded number of waiting
 * threads and connections, however many partitions there are, and fewer once drained
 * partitions that the configuration no longer has leave their topic: at once when they
 * are drained as an instance with fewer partitions starts, soon after they drain when
 * they still held jobs then.
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
		// The topic is now configured with one partition, and another instance's
		// scheduler retires the drained partitions: this listener finds out at its next
		// look at its queues.
		DelayQueueContextRunner.create(server)
			.withUserConfiguration(FannedListener.class)
			.withPropertyValues("delayqueue.listener.poll-timeout=1s", "delayqueue.scheduler.enabled=false")
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
					.retireDrained(TOPIC)
					.retired();
				assertThat(retired).hasSize(PARTITIONS - 1);
				await().atMost(Duration.ofSeconds(10))
					.until(() -> waiterThreads() == 1 && waitingConnections(server) == 1);
				System.out.println("Once the drained partitions left the topic: " + waiterThreads() + " waiter thread, "
						+ waitingConnections(server) + " waiting connection");
			});
	}

	@Test
	void drainedPartitionsThatTheConfigurationNoLongerHasAreRetiredAtStartAndTheirWaitersGo(RedisTestServer server) {
		// An instance configured with 64 partitions wrote a job to each, and every job
		// was cancelled since.
		DelayQueueContextRunner.create(server)
			.withPropertyValues("delayqueue.topics." + TOPIC + ".partitions=" + PARTITIONS,
					"delayqueue.scheduler.enabled=false")
			.run((context) -> {
				DelayQueueOperations operations = context.getBean(DelayQueueOperations.class);
				List<String> ids = PartitionIds.onePerPartition(context.getBean(DelayQueueKeys.class), TOPIC,
						PARTITIONS);
				operations.sendAll(requests(ids, Duration.ofHours(1)));
				ids.forEach((id) -> assertThat(operations.cancel(TOPIC, id)).isTrue());
			});
		assertThat(listedQueues(server)).hasSize(PARTITIONS);
		// Started again with one partition: the scheduler retires the drained ones as it
		// starts, well before the listener's next periodic look at its queues.
		DelayQueueContextRunner.create(server)
			.withUserConfiguration(FannedListener.class)
			.withPropertyValues("delayqueue.listener.poll-timeout=1s")
			.run((context) -> {
				startListener(context);
				await().atMost(Duration.ofSeconds(10))
					.until(() -> listedQueues(server).equals(List.of(TOPIC)) && waiterThreads() == 1
							&& waitingConnections(server) == 1);
			});
	}

	@Test
	void partitionsThatTheConfigurationNoLongerHasAndHeldJobsAtStartAreRetiredSoonAfterTheyDrain(
			RedisTestServer server) {
		// An instance configured with 64 partitions wrote a job to each, due in an hour.
		List<String> ids = new ArrayList<>();
		DelayQueueContextRunner.create(server)
			.withPropertyValues("delayqueue.topics." + TOPIC + ".partitions=" + PARTITIONS,
					"delayqueue.scheduler.enabled=false")
			.run((context) -> {
				ids.addAll(PartitionIds.onePerPartition(context.getBean(DelayQueueKeys.class), TOPIC, PARTITIONS));
				context.getBean(DelayQueueOperations.class).sendAll(requests(ids, Duration.ofHours(1)));
			});
		// Started again with one partition: none can be retired at start.
		DelayQueueContextRunner.create(server)
			.withUserConfiguration(FannedListener.class, QuickRetirementRetries.class)
			.withPropertyValues("delayqueue.listener.poll-timeout=1s")
			.run((context) -> {
				startListener(context);
				await().atMost(Duration.ofSeconds(10))
					.until(() -> waiterThreads() == ReadyWaiters.MIN_BOUND
							&& waitingConnections(server) == ReadyWaiters.MIN_BOUND);
				assertThat(listedQueues(server)).hasSize(PARTITIONS);
				// The jobs come due now, and the listener drains every partition.
				DelayQueueOperations operations = context.getBean(DelayQueueOperations.class);
				ids.forEach((id) -> assertThat(operations.reschedule(TOPIC, id, Duration.ZERO)).isTrue());
				FannedListener listener = context.getBean(FannedListener.class);
				await().atMost(Duration.ofSeconds(30)).until(() -> listener.received.size() == PARTITIONS);
				// Retired within the short retry interval, not the hourly one, and the
				// listener drops its waiters before its next periodic look at its queues.
				await().atMost(Duration.ofSeconds(10))
					.until(() -> listedQueues(server).equals(List.of(TOPIC)) && waiterThreads() == 1
							&& waitingConnections(server) == 1);
			});
	}

	private static void startListener(AssertableApplicationContext context) {
		DelayedJobListenerContainer container = context.getBean(DelayedJobListenerEndpointRegistry.class)
			.getListenerContainer(TOPIC);
		assertThat(container).isNotNull();
		container.start();
	}

	// The queues of the topic as a listener started now would find them.
	private static List<String> listedQueues(RedisTestServer server) {
		try (DelayQueueFixture fixture = new DelayQueueFixture(server)) {
			return new PartitionRegistry(fixture.scripts(), fixture.keys()).queues(TOPIC);
		}
	}

	private static List<JobRequest> onePerPartition(DelayQueueKeys keys) {
		return requests(PartitionIds.onePerPartition(keys, TOPIC, PARTITIONS), Duration.ZERO);
	}

	// One job per id, with the id as its payload.
	private static List<JobRequest> requests(List<String> ids, Duration delay) {
		return ids.stream().map((id) -> JobRequest.builder(TOPIC, id).id(id).delay(delay).build()).toList();
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
	static class QuickRetirementRetries {

		@Bean
		static BeanPostProcessor quickRetirementRetries() {
			return SchedulerIntervals.partitionRetirementRetry(Duration.ofMillis(200));
		}

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
