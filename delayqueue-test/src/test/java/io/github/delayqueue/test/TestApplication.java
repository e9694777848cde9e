package io.github.delayqueue.test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayedJob;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * The application that the test support's own tests drive: a listener per topic that
 * records what it handled, fails where a test wants failures, and hangs where a test
 * wants a delivery to outlive its time to run.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
class TestApplication {

	@Bean
	Handlers handlers() {
		return new Handlers();
	}

	static class Handlers {

		final List<DelayedJob<String>> handled = new CopyOnWriteArrayList<>();

		volatile CountDownLatch hang = new CountDownLatch(0);

		@DelayedJobListener("reminders")
		void reminder(DelayedJob<String> job) {
			this.handled.add(job);
		}

		@DelayedJobListener("other")
		void other(DelayedJob<String> job) {
			this.handled.add(job);
		}

		@DelayedJobListener("parts")
		void part(DelayedJob<String> job) {
			this.handled.add(job);
		}

		@DelayedJobListener("webhooks")
		void webhook(DelayedJob<String> job) {
			this.handled.add(job);
			throw new IllegalStateException("partner answered 500 to " + job.payload());
		}

		@DelayedJobListener("slow")
		void slow(DelayedJob<String> job) throws InterruptedException {
			this.handled.add(job);
			if (job.attempt() == 1) {
				this.hang.await(30, TimeUnit.SECONDS);
			}
		}

		List<String> payloads(String topic) {
			return this.handled.stream().filter((job) -> job.topic().equals(topic)).map(DelayedJob::payload).toList();
		}

	}

}
