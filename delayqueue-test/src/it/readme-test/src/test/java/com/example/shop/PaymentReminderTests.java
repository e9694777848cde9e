package com.example.shop;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.JobInfo;
import io.github.delayqueue.test.AutoConfigureDelayQueue;
import io.github.delayqueue.test.DelayQueueTester;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;

@SpringBootTest(properties = {
		"delayqueue.topics.payment.reminder.retry.max-attempts=3",
		"delayqueue.topics.payment.reminder.retry.backoff.schedule=5m,1h" })
@AutoConfigureDelayQueue
class PaymentReminderTests {

	@Autowired
	DelayQueueOperations jobs;

	@Autowired
	DelayQueueTester delayQueue;

	@Autowired
	Mailer mailer;

	@Test
	void remindsOfAnUnpaidOrder30MinutesAfterItWasPlaced() {
		jobs.send("payment.reminder", "order-42", Duration.ofMinutes(30));

		delayQueue.advance("payment.reminder", Duration.ofMinutes(29));
		delayQueue.awaitIdle("payment.reminder");
		assertThat(mailer.sent).isEmpty();

		delayQueue.advance("payment.reminder", Duration.ofMinutes(1));
		delayQueue.awaitIdle("payment.reminder");
		assertThat(mailer.sent).containsExactly("order-42");
		delayQueue.assertThat("payment.reminder").hasSent(1).hasNoDeadJobs();
	}

	@Test
	void retriesAfter5MinutesThen1HourThenGivesUp() {
		mailer.down = true;
		String id = jobs.send("payment.reminder", "order-43");
		delayQueue.awaitIdle("payment.reminder");
		delayQueue.assertThat("payment.reminder").job(id)
			.isDelayed()
			.hasAttempts(1)
			.isDueIn(Duration.ofMinutes(5), Duration.ofSeconds(10));

		delayQueue.advance("payment.reminder", Duration.ofMinutes(5));
		delayQueue.awaitIdle("payment.reminder");
		delayQueue.assertThat("payment.reminder").job(id)
			.hasAttempts(2)
			.isDueIn(Duration.ofHours(1), Duration.ofSeconds(10));

		delayQueue.advance("payment.reminder", Duration.ofHours(1));
		delayQueue.awaitIdle("payment.reminder");
		assertThat(delayQueue.deadJobs("payment.reminder"))
			.extracting(JobInfo::lastError)
			.singleElement().asString().contains("mail server is down");
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class ShopApplication {

		@Bean
		Mailer mailer() {
			return new Mailer();
		}

	}

	static class Mailer {

		final List<String> sent = new CopyOnWriteArrayList<>();

		volatile boolean down;

		@DelayedJobListener("payment.reminder")
		void remind(String orderId) {
			if (down) {
				throw new IllegalStateException("mail server is down");
			}
			sent.add(orderId);
		}

	}

}
