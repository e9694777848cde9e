package io.github.delayqueue.listener;

import java.time.Duration;

import io.github.delayqueue.test.ConsumerProcess;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An application whose only work is its listeners (no web server) stays up waiting for
 * jobs, and still stops when asked to.
 */
@ExtendWith(RedisExtension.class)
class WorkerApplicationTests {

	@Test
	void keepsAWorkerOnlyApplicationRunningWhileNoJobIsReadyAndStopsItOnRequest(RedisTestServer server) {
		server.flushAll();
		try (ConsumerProcess worker = ConsumerProcess.start(server, "complete", "consumer.topic=idle")) {
			await().atMost(Duration.ofSeconds(120))
				.until(() -> worker.output().contains("Started ConsumerProcessApplication") || !worker.isAlive());
			// No job is ready, so no handler thread exists yet: only the listener's own
			// threads can keep the JVM up once main() has returned.
			await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(10)).until(worker::isAlive);
			worker.terminate();
			assertThat(worker.isAlive()).isFalse();
		}
	}

}
