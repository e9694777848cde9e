package io.github.delayqueue.internal.scheduler;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;

import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.JobInfo;
import io.github.delayqueue.core.JobState;
import io.github.delayqueue.test.DelayQueueContextRunner;
import io.github.delayqueue.test.DelayQueueFixture;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An application restarted during a Redis outage: it starts, warns once, and works once
 * Redis is back, instead of failing to start again and again.
 */
@ExtendWith(OutputCaptureExtension.class)
class RedisDownAtStartTests {

	// Logback's plain format names the logger in full; Spring Boot's, once an earlier
	// test application set it up, abbreviates it (i.g.d.i.scheduler... or i.g.d.i.s...).
	private static final Pattern SCHEDULER_WARNINGS = Pattern
		.compile("WARN\\s+(?:.*?\\s)?(io\\.github\\.delayqueue\\.internal|i\\.g\\.d\\.i)\\.(scheduler|s)\\.");

	@Test
	void startsWhileRedisIsDownAndMovesJobsOnTimeOnceItIsBack(CapturedOutput output) {
		try (RedisTestServer server = RedisTestServer.startDedicated()) {
			server.stop();
			DelayQueueContextRunner.create(server)
				.withPropertyValues("delayqueue.scheduler.max-sleep=200ms")
				.run((context) -> {
					assertThat(context).hasNotFailed();
					RedisMessageListenerContainer wakeUps = context.getBean("delayQueueWakeUpContainer",
							RedisMessageListenerContainer.class);
					DelayedJobScheduler scheduler = context.getBean(DelayedJobScheduler.class);
					assertThat(scheduler.isRunning()).isTrue();
					assertThat(wakeUps.isRunning()).isTrue();
					// Both retry in the background, and one warning says so.
					await().atMost(Duration.ofSeconds(20)).until(() -> countWarnings(output) >= 1);
					await().atMost(Duration.ofSeconds(20))
						.during(Duration.ofSeconds(2))
						.until(() -> countWarnings(output) == 1);
					assertThat(wakeUps.isListening()).isFalse();
					server.restart();
					await().atMost(Duration.ofSeconds(30)).until(wakeUps::isListening);
					DelayQueueOperations operations = context.getBean(DelayQueueOperations.class);
					String id = operations.send("back", "x", Duration.ofMillis(500));
					JobInfo sent = operations.find("back", id).orElseThrow();
					assertThat(sent.state()).isEqualTo(JobState.DELAYED);
					await().atMost(Duration.ofSeconds(20))
						.until(() -> operations.find("back", id).map(JobInfo::state).orElse(null) == JobState.READY);
				});
		}
	}

	@Test
	void stopsTryingToSubscribeOnceStopped() throws Exception {
		try (RedisTestServer server = RedisTestServer.startDedicated();
				DelayQueueFixture fixture = new DelayQueueFixture(server)) {
			server.stop();
			WakeUpListenerContainer container = new WakeUpListenerContainer(fixture.connectionFactory(),
					new WakeUpSubscriber(fixture.scheduler(100, Duration.ofMillis(200)), fixture.keys()));
			container.afterPropertiesSet();
			container.start();
			assertThat(container.isRunning()).isTrue();
			AtomicBoolean stopped = new AtomicBoolean();
			container.stop(() -> stopped.set(true));
			assertThat(stopped).isTrue();
			assertThat(container.isRunning()).isFalse();
			server.restart();
			await().atMost(Duration.ofSeconds(20)).during(Duration.ofSeconds(2)).until(() -> !container.isListening());
			container.start();
			await().atMost(Duration.ofSeconds(20)).until(container::isListening);
			container.destroy();
			assertThat(container.isListening()).isFalse();
		}
	}

	private static long countWarnings(CapturedOutput output) {
		return SCHEDULER_WARNINGS.matcher(output.getAll()).results().count();
	}

}
