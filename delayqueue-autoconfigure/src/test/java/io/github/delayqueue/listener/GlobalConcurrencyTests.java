package io.github.delayqueue.listener;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.JobRequest;
import io.github.delayqueue.internal.store.JobClaims;
import io.github.delayqueue.internal.store.JobClaims.ClaimedJob;
import io.github.delayqueue.internal.store.TopicLimiter;
import io.github.delayqueue.internal.store.TopicLimiter.Delivery;
import io.github.delayqueue.test.DelayQueueContextRunner;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A topic's global concurrency across two application instances on one Redis: never more
 * handlers at once than the bound, the bound reached, and the permits of an instance that
 * died coming back with its deliveries' time to run.
 */
@ExtendWith(RedisExtension.class)
class GlobalConcurrencyTests {

	// Handlers of both instances, which share this JVM.
	static final AtomicInteger running = new AtomicInteger();

	static final AtomicInteger mostAtOnce = new AtomicInteger();

	static final Set<String> done = ConcurrentHashMap.newKeySet();

	static final AtomicInteger startedAll = new AtomicInteger();

	// The jobs a test sends in all; a handler holds no longer once every one has started.
	static volatile int jobsInAll;

	private ApplicationContextRunner runner;

	@BeforeEach
	void setUp(RedisTestServer server) {
		server.flushAll();
		running.set(0);
		mostAtOnce.set(0);
		done.clear();
		startedAll.set(0);
		BusyListener.running.set(0);
		BusyListener.mostAtOnce.set(0);
		this.runner = DelayQueueContextRunner.create(server)
			.withUserConfiguration(ScarceListener.class)
			.withPropertyValues("delayqueue.topics.scarce.global-concurrency=3", "delayqueue.topics.scarce.ttr=2s",
					"delayqueue.scheduler.max-sleep=200ms");
	}

	@Test
	void twoInstancesOfFourRunAtMostThreeAtOnceAndReachThree() {
		this.runner.run((first) -> this.runner.run((second) -> {
			jobsInAll = 30;
			send(first.getBean(DelayQueueOperations.class), "job", 30);
			await().atMost(Duration.ofSeconds(30)).until(() -> done.size() == 30);
			assertThat(mostAtOnce.get()).isEqualTo(3);
			// Each job once, whichever instance won its permit.
			assertThat(first.getBean(ScarceListener.class).started.get()
					+ second.getBean(ScarceListener.class).started.get())
				.isEqualTo(30);
		}));
	}

	@Test
	void thePermitsGoRoundTheInstancesThatWantThem() {
		this.runner.withUserConfiguration(BusyListener.class)
			.withPropertyValues("delayqueue.topics.busy.global-concurrency=3")
			.run((first) -> this.runner.withUserConfiguration(BusyListener.class)
				.withPropertyValues("delayqueue.topics.busy.global-concurrency=3")
				.run((second) -> {
					List<JobRequest> requests = new ArrayList<>();
					for (int i = 0; i < 60; i++) {
						requests.add(JobRequest.builder("busy", "job-" + i).build());
					}
					first.getBean(DelayQueueOperations.class).sendAll(requests);
					BusyListener one = first.getBean(BusyListener.class);
					BusyListener two = second.getBean(BusyListener.class);
					await().atMost(Duration.ofSeconds(30)).until(() -> one.handled.get() + two.handled.get() == 60);
					// Each instance has a worker free all along: without turns, the one
					// that gives a permit back takes it again at once, and the other
					// finds none whenever it looks.
					assertThat(one.handled.get()).as("jobs run by the first instance").isGreaterThanOrEqualTo(15);
					assertThat(two.handled.get()).as("jobs run by the second instance").isGreaterThanOrEqualTo(15);
					assertThat(BusyListener.mostAtOnce.get()).isEqualTo(3);
				}));
	}

	@Test
	void permitsOfAnInstanceThatDiedComeBackWithItsDeliveriesTimeToRun() {
		jobsInAll = 6;
		this.runner.withPropertyValues("delayqueue.listener.enabled=false").run((dead) -> {
			// An instance claimed three jobs, was admitted, and died before it settled
			// them: its permits are in Redis, nothing will give them back.
			send(dead.getBean(DelayQueueOperations.class), "orphan", 3);
			JobClaims claims = dead.getBean(JobClaims.class);
			List<ClaimedJob> claimed = claims.claim("scarce", null, 3, Duration.ofSeconds(2)).jobs();
			List<Delivery> deliveries = new ArrayList<>();
			claimed.forEach((job) -> deliveries.add(new Delivery(job.id(), job.attempt(), Duration.ofSeconds(2))));
			assertThat(claims.limiter()
				.admit("scarce", new TopicLimiter.Limits(0, Duration.ofSeconds(1), 3), deliveries)
				.admitted()).isEqualTo(3);
			long diedAt = System.nanoTime();
			send(dead.getBean(DelayQueueOperations.class), "fresh", 3);
			this.runner.run((live) -> {
				await().atMost(Duration.ofSeconds(20)).until(() -> done.size() == 6);
				assertThat(Duration.ofNanos(System.nanoTime() - diedAt))
					.isGreaterThanOrEqualTo(Duration.ofMillis(1900));
				assertThat(mostAtOnce.get()).isLessThanOrEqualTo(3);
				assertThat(live.getBean(ScarceListener.class).firstStartAfterDeath.get())
					.isGreaterThanOrEqualTo(diedAt + Duration.ofMillis(1900).toNanos());
			});
		});
	}

	private static void send(DelayQueueOperations queue, String prefix, int jobs) {
		List<JobRequest> requests = new ArrayList<>();
		for (int i = 0; i < jobs; i++) {
			requests.add(JobRequest.builder("scarce", prefix + "-" + i).build());
		}
		queue.sendAll(requests);
	}

	@Configuration(proxyBeanMethods = false)
	static class BusyListener {

		static final AtomicInteger running = new AtomicInteger();

		static final AtomicInteger mostAtOnce = new AtomicInteger();

		final AtomicInteger handled = new AtomicInteger();

		@DelayedJobListener(id = "busy", topics = "busy", concurrency = "4")
		void on(String payload) throws InterruptedException {
			mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
			try {
				// A call to a partner that takes a while: the load under test, not a wait
				// for a condition. Each permit comes back on its own, which is when an
				// instance without turns takes it again at once; a hold until some
				// condition would give the permits back together and let this test pass
				// without turns.
				Thread.sleep(30);
			}
			finally {
				running.decrementAndGet();
				this.handled.incrementAndGet();
			}
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ScarceListener {

		final AtomicInteger started = new AtomicInteger();

		final java.util.concurrent.atomic.AtomicLong firstStartAfterDeath = new java.util.concurrent.atomic.AtomicLong(
				Long.MAX_VALUE);

		@DelayedJobListener(id = "scarce", topics = "scarce", concurrency = "4")
		void on(String payload) {
			this.firstStartAfterDeath.accumulateAndGet(System.nanoTime(), Math::min);
			this.started.incrementAndGet();
			startedAll.incrementAndGet();
			mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
			try {
				// Hold the permit until the bound is reached (or no job is left to join),
				// so
				// that a fourth handler would get its chance to run if the bound leaked.
				await().atMost(Duration.ofSeconds(10))
					.pollInterval(Duration.ofMillis(2))
					.until(() -> running.get() >= 3 || startedAll.get() >= jobsInAll);
			}
			finally {
				running.decrementAndGet();
				done.add(payload);
			}
		}

	}

}
