package io.github.delayqueue.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DefaultDelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.DelayedJob;
import io.github.delayqueue.core.JobEvent;
import io.github.delayqueue.core.JobEvent.Type;
import io.github.delayqueue.core.JobRequest;
import io.github.delayqueue.test.ClusterExtension;
import io.github.delayqueue.test.DelayQueueContextRunner;
import io.github.delayqueue.test.RedisTestCluster;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

/**
 * Job timelines on a Redis Cluster, the topic spread over partitions in several slots:
 * each job's timeline lives in its partition's slot and records every step there.
 */
@ExtendWith(ClusterExtension.class)
class ClusterTimelineTests {

	static final Map<String, AtomicInteger> deliveries = new ConcurrentHashMap<>();

	@Test
	void recordsEveryStepOfJobsInEveryPartition(RedisTestCluster cluster) {
		cluster.flushAll();
		deliveries.clear();
		DelayQueueContextRunner.create(cluster)
			.withUserConfiguration(FailingOnce.class)
			.withPropertyValues("delayqueue.topics[cluster.timeline].partitions=6",
					"delayqueue.topics[cluster.timeline].timeline=true",
					"delayqueue.topics[cluster.timeline].retry.backoff.delay=50ms",
					"delayqueue.topics[cluster.timeline].retry.backoff.jitter=0")
			.run((context) -> {
				DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
				DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
				List<JobRequest> batch = new ArrayList<>();
				for (int i = 0; i < 12; i++) {
					batch.add(JobRequest.builder("cluster.timeline", "job-" + i).id("job-" + i).build());
				}
				queue.sendAll(batch);
				queue.send(
						JobRequest.builder("cluster.timeline", "later").id("later").delay(Duration.ofHours(1)).build());
				assertThat(((DefaultDelayQueueAdmin) admin).actingAs(DefaultDelayQueueAdmin.ENDPOINT)
					.cancel("cluster.timeline", "later")).isTrue();
				int holding = 0;
				for (RedisTestServer master : cluster.masters()) {
					if (!master.command("KEYS", "{*cluster.timeline*}:timeline:*").isBlank()) {
						holding++;
					}
				}
				assertThat(holding).as("masters holding timelines").isGreaterThan(1);
				await().atMost(Duration.ofSeconds(30)).until(() -> {
					for (int i = 0; i < 12; i++) {
						List<JobEvent> events = admin.timeline("cluster.timeline", "job-" + i);
						if (events.isEmpty() || events.get(events.size() - 1).type() != Type.COMPLETED) {
							return false;
						}
					}
					return true;
				});
				for (int i = 0; i < 12; i++) {
					assertThat(admin.timeline("cluster.timeline", "job-" + i)).as("job-" + i)
						.extracting(JobEvent::type)
						.containsExactly(Type.SENT, Type.CLAIMED, Type.FAILED, Type.RETRIED, Type.READY, Type.CLAIMED,
								Type.COMPLETED);
				}
				assertThat(admin.timeline("cluster.timeline", "later")).extracting(JobEvent::type, JobEvent::detail)
					.last()
					.isEqualTo(tuple(Type.CANCELLED, "endpoint"));
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class FailingOnce {

		@DelayedJobListener(topics = "cluster.timeline", concurrency = "4")
		void handle(DelayedJob<String> job) {
			if (deliveries.computeIfAbsent(job.id(), (id) -> new AtomicInteger()).incrementAndGet() == 1) {
				throw new IllegalStateException("First attempt of " + job.id() + " fails");
			}
		}

	}

}
