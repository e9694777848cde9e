package io.github.delayqueue.listener;

import java.time.Duration;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.JobState;
import io.github.delayqueue.test.DelayQueueContextRunner;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Every failed attempt is logged once, at WARN with its stack trace, and so is the
 * failure that makes a job dead.
 */
@ExtendWith({ RedisExtension.class, OutputCaptureExtension.class })
class FailureLoggingTests {

	@Test
	void logsEachFailedAttemptWithItsStackTraceAndTheNextDueTime(RedisTestServer server, CapturedOutput output) {
		server.flushAll();
		DelayQueueContextRunner.create(server)
			.withUserConfiguration(AlwaysFailing.class)
			.withPropertyValues("delayqueue.topics.logged.retry.max-attempts=2",
					"delayqueue.topics.logged.retry.backoff.delay=100ms")
			.run((context) -> {
				DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
				String id = queue.send("logged", "x");
				await().atMost(Duration.ofSeconds(15))
					.until(() -> queue.find("logged", id).map((job) -> job.state() == JobState.DEAD).orElse(false));
				String job = "Job '" + id + "' of topic 'logged' failed on attempt ";
				String log = output.getOut();
				assertThat(log.split(job + "1 of 2; next attempt due at ", -1)).hasSize(2);
				assertThat(log.split(job + "2 of 2 and is now dead \\(no attempts left\\)", -1)).hasSize(2);
				assertThat(log.split("java.lang.IllegalStateException: failing on purpose on attempt 1\n\tat ", -1))
					.hasSize(2);
				assertThat(log.split("java.lang.IllegalStateException: failing on purpose on attempt 2\n\tat ", -1))
					.hasSize(2);
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class AlwaysFailing {

		@DelayedJobListener("logged")
		void on(io.github.delayqueue.core.DelayedJob<String> job) {
			throw new IllegalStateException("failing on purpose on attempt " + job.attempt());
		}

	}

}
