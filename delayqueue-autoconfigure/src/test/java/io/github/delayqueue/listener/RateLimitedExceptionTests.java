package io.github.delayqueue.listener;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.DelayedJob;
import io.github.delayqueue.core.RateLimitedException;
import io.github.delayqueue.test.DelayQueueContextRunner;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A handler that reports a partner's rate limit: its job runs again after the wait
 * without spending an attempt, and with {@code pause-topic-on-429} the whole topic holds
 * back as long on every instance.
 */
@ExtendWith(RedisExtension.class)
class RateLimitedExceptionTests {

	private ApplicationContextRunner runner;

	@BeforeEach
	void setUp(RedisTestServer server) {
		server.flushAll();
		PartnerListener.refusals.set(0);
		PartnerListener.refusalWait = Duration.ofMillis(300);
		this.runner = DelayQueueContextRunner.create(server)
			.withUserConfiguration(PartnerListener.class)
			.withPropertyValues("delayqueue.topics.partner.retry.max-attempts=1",
					"delayqueue.scheduler.max-sleep=200ms");
	}

	@Test
	void runsTheJobAgainAfterTheWaitWithoutSpendingAnAttempt() {
		this.runner.run((context) -> {
			PartnerListener listener = context.getBean(PartnerListener.class);
			PartnerListener.refusals.set(3);
			String id = context.getBean(DelayQueueOperations.class).send("partner", "notify");
			await().atMost(Duration.ofSeconds(20)).until(() -> listener.completed.get() == 1);
			// A single attempt allowed, refused three times: none of the refusals
			// counted.
			assertThat(listener.attempts).containsExactly(1, 1, 1, 1);
			for (int i = 1; i < listener.startedAt.size(); i++) {
				assertThat(listener.startedAt.get(i) - listener.startedAt.get(i - 1)).isGreaterThanOrEqualTo(300);
			}
			assertThat(context.getBean(DelayQueueOperations.class).find("partner", id)).isEmpty();
			assertThat(context.getBean(DelayQueueAdmin.class).stats("partner").dead()).isZero();
		});
	}

	@Test
	void holdsTheWholeTopicBackOnEveryInstanceWhenAsked() {
		ApplicationContextRunner pausing = this.runner
			.withPropertyValues("delayqueue.topics.partner.rate-limit.pause-topic-on-429=true");
		pausing.run((first) -> pausing.run((second) -> {
			PartnerListener one = first.getBean(PartnerListener.class);
			PartnerListener two = second.getBean(PartnerListener.class);
			PartnerListener.refusals.set(1);
			PartnerListener.refusalWait = Duration.ofSeconds(2);
			DelayQueueOperations queue = first.getBean(DelayQueueOperations.class);
			StringRedisTemplate redis = first.getBean(StringRedisTemplate.class);
			queue.send("partner", "first");
			await().atMost(Duration.ofSeconds(10)).until(() -> Boolean.TRUE.equals(redis.hasKey("{dq:partner}:held")));
			long heldUntil = System.currentTimeMillis()
					+ redis.getExpire("{dq:partner}:held", java.util.concurrent.TimeUnit.MILLISECONDS);
			int startedBefore = one.startedAt.size() + two.startedAt.size();
			for (int i = 0; i < 6; i++) {
				queue.send("partner", "next-" + i);
			}
			await().atMost(Duration.ofSeconds(20)).until(() -> one.completed.get() + two.completed.get() == 7);
			List<Long> later = new ArrayList<>(one.startedAt);
			later.addAll(two.startedAt);
			Collections.sort(later);
			assertThat(later.subList(startedBefore, later.size()))
				.allSatisfy((start) -> assertThat(start).isGreaterThanOrEqualTo(heldUntil - 50));
			assertThat(one.attempts).containsOnly(1);
			assertThat(two.attempts).containsOnly(1);
		}));
	}

	@Configuration(proxyBeanMethods = false)
	static class PartnerListener {

		// Shared by the instances, which share this JVM.
		static final AtomicInteger refusals = new AtomicInteger();

		static volatile Duration refusalWait = Duration.ofMillis(300);

		final List<Integer> attempts = Collections.synchronizedList(new ArrayList<>());

		final List<Long> startedAt = Collections.synchronizedList(new ArrayList<>());

		final AtomicInteger completed = new AtomicInteger();

		@DelayedJobListener(id = "partner", topics = "partner", concurrency = "2")
		void on(DelayedJob<String> job) {
			this.startedAt.add(System.currentTimeMillis());
			this.attempts.add(job.attempt());
			if (refusals.getAndUpdate((left) -> Math.max(0, left - 1)) > 0) {
				throw new RateLimitedException(refusalWait);
			}
			this.completed.incrementAndGet();
		}

	}

}
