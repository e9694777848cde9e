package io.github.delayqueue.listener;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.test.DelayQueueContextRunner;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An application starts while Redis is down: its listeners and scheduler start anyway,
 * say so once, and work as soon as Redis is back.
 */
@ExtendWith(OutputCaptureExtension.class)
class RedisDownAtStartTests {

	@Test
	void startsListenersWhileRedisIsDownAndConsumesOnceItIsBack(CapturedOutput output) {
		try (RedisTestServer server = RedisTestServer.startDedicated()) {
			server.stop();
			DelayQueueContextRunner.create(server)
				.withUserConfiguration(RecordingListener.class)
				.withPropertyValues("spring.data.redis.timeout=2s")
				.run((context) -> {
					assertThat(context).hasNotFailed();
					DelayedJobListenerEndpointRegistry registry = context
						.getBean(DelayedJobListenerEndpointRegistry.class);
					assertThat(registry.isRunning()).isTrue();
					assertThat(registry.getListenerContainer("down-at-start").isRunning()).isTrue();
					await().atMost(Duration.ofSeconds(10)).until(() -> output.getOut().contains("cannot reach Redis"));
					server.restart();
					DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
					queue.send("down.at.start", "after the restart");
					// A delayed job needs the scheduler, which started while Redis was
					// down too.
					queue.send("down.at.start", "delayed after the restart", Duration.ofMillis(500));
					RecordingListener listener = context.getBean(RecordingListener.class);
					await().atMost(Duration.ofSeconds(30))
						.until(() -> listener.payloads
							.containsAll(List.of("after the restart", "delayed after the restart")));
					assertThat(output.getOut().split("Listener 'down-at-start' cannot reach Redis", -1)).hasSize(2);
				});
		}
	}

	@Configuration(proxyBeanMethods = false)
	static class RecordingListener {

		final List<String> payloads = new CopyOnWriteArrayList<>();

		@DelayedJobListener(id = "down-at-start", topics = "down.at.start")
		void on(String payload) {
			this.payloads.add(payload);
		}

	}

}
