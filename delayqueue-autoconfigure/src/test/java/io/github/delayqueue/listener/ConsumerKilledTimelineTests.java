package io.github.delayqueue.listener;

import java.time.Duration;
import java.util.List;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.JobEvent;
import io.github.delayqueue.core.JobEvent.Type;
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
 * The timeline of a job whose consumer JVM was killed with {@code kill -9} mid-job tells
 * the whole story: claimed by the killed instance, expired, claimed by another instance,
 * completed.
 */
@ExtendWith(RedisExtension.class)
class ConsumerKilledTimelineTests {

	private static final String[] PROPERTIES = { "delayqueue.topics[killed].ttr=2s",
			"delayqueue.topics[killed].timeline=true" };

	@Test
	void showsTheKilledDeliveryExpireAndAnotherInstanceCompleteTheJob(RedisTestServer server) {
		server.flushAll();
		String here = ":" + ProcessHandle.current().pid();
		try (ConsumerProcess doomed = ConsumerProcess.start(server, "hold", "consumer.topic=killed", PROPERTIES[0],
				PROPERTIES[1])) {
			DelayQueueContextRunner.create(server)
				.withPropertyValues(PROPERTIES)
				.withPropertyValues("delayqueue.listener.enabled=false")
				.run((context) -> {
					context.getBean(DelayQueueOperations.class)
						.send(JobRequest.builder("killed", "p").id("order-1").build());
					await().atMost(Duration.ofSeconds(60)).until(() -> doomed.output().contains("STARTED order-1 1"));
				});
			doomed.kill();
			assertThat(doomed.isAlive()).isFalse();
		}
		DelayQueueContextRunner.create(server)
			.withUserConfiguration(Completing.class)
			.withPropertyValues(PROPERTIES)
			.run((context) -> {
				DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
				await().atMost(Duration.ofSeconds(30)).until(() -> {
					List<JobEvent> events = admin.timeline("killed", "order-1");
					return !events.isEmpty() && events.get(events.size() - 1).type() == Type.COMPLETED;
				});
				List<JobEvent> timeline = admin.timeline("killed", "order-1");
				assertThat(timeline).extracting(JobEvent::type)
					.containsExactly(Type.SENT, Type.CLAIMED, Type.EXPIRED, Type.RETRIED, Type.CLAIMED, Type.COMPLETED);
				assertThat(timeline).extracting(JobEvent::attempt).containsExactly(0, 1, 1, 1, 2, 2);
				assertThat(timeline).extracting(JobEvent::at).isSorted();
				String killed = timeline.get(1).instance();
				assertThat(killed).isNotNull().doesNotEndWith(here);
				assertThat(timeline.get(2).instance()).as("the sweep names no instance").isNull();
				assertThat(timeline.get(4).instance()).endsWith(here);
				assertThat(timeline.get(5).instance()).endsWith(here);
				assertThat(Duration.between(timeline.get(1).at(), timeline.get(2).at()))
					.isGreaterThanOrEqualTo(Duration.ofSeconds(2));
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class Completing {

		@DelayedJobListener(topics = "killed")
		void on(String payload) {
		}

	}

}
