package io.github.delayqueue.listener;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.DelayedJob;
import io.github.delayqueue.core.JobRequest;
import io.github.delayqueue.core.JobState;
import io.github.delayqueue.test.DelayQueueContextRunner;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import io.github.delayqueue.test.ReplyDroppingProxy;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ContextConsumer;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A topic's rate limit across two application instances on one Redis: at most the limit
 * of handler starts in any window of one period, jobs over the limit waiting in READY
 * without spending attempts, and each next start as soon as the limit allows.
 */
@ExtendWith(RedisExtension.class)
class RateLimitTests {

	/**
	 * What a handler start may lag behind the admission the limit counted it at, on the
	 * Redis clock: a claim's reply and a hand-off to a worker thread, on a shared
	 * machine.
	 */
	private static final long DISPATCH_SLACK_MILLIS = 100;

	private ApplicationContextRunner runner;

	@BeforeEach
	void setUp(RedisTestServer server) {
		server.flushAll();
		this.runner = DelayQueueContextRunner.create(server)
			.withUserConfiguration(PartnerListener.class)
			.withPropertyValues("delayqueue.topics.partner.rate-limit.limit=20",
					"delayqueue.topics.partner.rate-limit.period=1s");
	}

	@Test
	void twoInstancesStartNoMoreThanTheLimitInAnyWindowAndKeepPace() {
		this.runner.run((first) -> this.runner.run((second) -> {
			List<Start> starts = sendAndRun(first, second, 120);
			long span = starts.get(starts.size() - 1).at() - starts.get(0).at();
			// Six windows' worth: the first twenty at once, the last a little over five
			// periods later.
			assertThat(span).isBetween(5000 - DISPATCH_SLACK_MILLIS, 6000L);
			assertNoWindowExceedsTheLimit(starts, 20, 1000);
			assertThat(starts).extracting(Start::attempt).containsOnly(1);
			assertThat(first.getBean(PartnerListener.class).starts).isNotEmpty();
			assertThat(second.getBean(PartnerListener.class).starts).isNotEmpty();
		}));
	}

	@Test
	void holdsAcrossEveryPartitionOfATopic() {
		ApplicationContextRunner partitioned = this.runner.withPropertyValues("delayqueue.topics.partner.partitions=3");
		partitioned.run((first) -> partitioned.run((second) -> {
			List<Start> starts = sendAndRun(first, second, 50);
			assertThat(starts.get(starts.size() - 1).at() - starts.get(0).at()).isBetween(2000 - DISPATCH_SLACK_MILLIS,
					3000L);
			assertNoWindowExceedsTheLimit(starts, 20, 1000);
		}));
	}

	@Test
	void jobsOverTheLimitWaitInReadyWithoutSpendingAttempts() {
		this.runner.run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
			PartnerListener listener = context.getBean(PartnerListener.class);
			sendAll(queue, 30);
			await().atMost(Duration.ofSeconds(10)).until(() -> listener.starts.size() == 20);
			await().atMost(Duration.ofSeconds(5))
				.until(() -> admin.stats("partner").ready() == 10 && admin.stats("partner").running() == 0);
			assertThat(listener.starts).hasSize(20);
			assertThat(admin.jobs("partner", JobState.READY, 0, 100)).hasSize(10)
				.allSatisfy((job) -> assertThat(job.attempts()).isZero());
			await().atMost(Duration.ofSeconds(5)).until(() -> listener.starts.size() == 30);
		});
	}

	@Test
	void jobsStartWhenEveryCallToRedisTakesLongerThanAStartWindow(RedisTestServer server) throws Exception {
		runBehindASlowRedis(server, this.runner, (context) -> {
			PartnerListener listener = context.getBean(PartnerListener.class);
			sendAll(context.getBean(DelayQueueOperations.class), 30);
			// The first twenty at once, the rest a period and a few round trips later.
			await().atMost(Duration.ofSeconds(20)).until(() -> listener.starts.size() == 30);
			List<Start> starts = new ArrayList<>(listener.starts);
			starts.sort((a, b) -> Long.compare(a.at(), b.at()));
			assertNoWindowExceedsTheLimit(starts, 20, 1000);
			assertThat(listener.payloads.values()).allSatisfy((count) -> assertThat(count.get()).isOne());
		});
	}

	@Test
	void theFirstAdmissionAllowsForASlowRedisBeforeAnyAdmissionMeasuredIt(RedisTestServer server) throws Exception {
		// Two a minute: an admission whose jobs came back too late to start would spend
		// the whole limit, and the jobs would wait a minute.
		ApplicationContextRunner slow = this.runner.withPropertyValues("delayqueue.topics.partner.rate-limit.limit=2",
				"delayqueue.topics.partner.rate-limit.period=1m");
		runBehindASlowRedis(server, slow, (context) -> {
			PartnerListener listener = context.getBean(PartnerListener.class);
			sendAll(context.getBean(DelayQueueOperations.class), 2);
			await().atMost(Duration.ofSeconds(20)).until(() -> listener.starts.size() == 2);
			assertThat(listener.starts).extracting(Start::attempt).containsOnly(1);
		});
	}

	@Test
	void eachGroupsJobsStartWhenEveryCallToRedisTakesLongerThanAStartWindow(RedisTestServer server) throws Exception {
		ApplicationContextRunner grouped = this.runner.withPropertyValues(
				"delayqueue.topics.partner.group.rate-limit.limit=5",
				"delayqueue.topics.partner.group.rate-limit.period=1s");
		runBehindASlowRedis(server, grouped, (context) -> {
			PartnerListener listener = context.getBean(PartnerListener.class);
			List<JobRequest> requests = new ArrayList<>();
			for (String group : List.of("a", "b")) {
				for (int i = 0; i < 8; i++) {
					requests.add(JobRequest.builder("partner", group + "-" + i).group(group).build());
				}
			}
			context.getBean(DelayQueueOperations.class).sendAll(requests);
			await().atMost(Duration.ofSeconds(20)).until(() -> listener.starts.size() == 16);
			for (String group : List.of("a", "b")) {
				List<Start> starts = new ArrayList<>(listener.starts);
				starts.removeIf((start) -> !start.group().equals(group));
				starts.sort((a, b) -> Long.compare(a.at(), b.at()));
				assertThat(starts).hasSize(8);
				assertNoWindowExceedsTheLimit(starts, 5, 1000);
			}
		});
	}

	// Runs an application whose every call to Redis takes longer than a start window (at
	// most 50 ms), as with a Redis far away.
	private static void runBehindASlowRedis(RedisTestServer server, ApplicationContextRunner runner,
			ContextConsumer<AssertableApplicationContext> test) throws IOException {
		try (ReplyDroppingProxy distant = ReplyDroppingProxy.start(server)) {
			distant.delayReplies(Duration.ofMillis(80));
			runner.withPropertyValues("spring.data.redis.port=" + distant.port()).run(test);
		}
	}

	private static List<Start> sendAndRun(org.springframework.context.ApplicationContext first,
			org.springframework.context.ApplicationContext second, int jobs) {
		PartnerListener one = first.getBean(PartnerListener.class);
		PartnerListener two = second.getBean(PartnerListener.class);
		sendAll(first.getBean(DelayQueueOperations.class), jobs);
		await().atMost(Duration.ofSeconds(30)).until(() -> one.starts.size() + two.starts.size() >= jobs);
		List<Start> starts = new ArrayList<>(one.starts);
		starts.addAll(two.starts);
		starts.sort((a, b) -> Long.compare(a.at(), b.at()));
		assertThat(starts).hasSize(jobs);
		assertThat(one.payloads.keySet()).doesNotContainAnyElementsOf(two.payloads.keySet());
		assertThat(one.payloads.values()).allSatisfy((count) -> assertThat(count.get()).isOne());
		assertThat(two.payloads.values()).allSatisfy((count) -> assertThat(count.get()).isOne());
		return starts;
	}

	private static void sendAll(DelayQueueOperations queue, int jobs) {
		List<JobRequest> requests = new ArrayList<>();
		for (int i = 0; i < jobs; i++) {
			requests.add(JobRequest.builder("partner", "call-" + i).build());
		}
		queue.sendAll(requests);
	}

	/**
	 * Assert that no window of one period holds more than {@code limit + 1} starts,
	 * measured at the handlers: any {@code limit + 2} starts span at least a period. The
	 * one start of slack is a start that lags its admission by a dispatch.
	 */
	private static void assertNoWindowExceedsTheLimit(List<Start> starts, int limit, long periodMillis) {
		for (int i = 0; i + limit + 1 < starts.size(); i++) {
			assertThat(starts.get(i + limit + 1).at() - starts.get(i).at())
				.as("starts %d to %d span a period", i, i + limit + 1)
				.isGreaterThanOrEqualTo(periodMillis);
		}
	}

	record Start(long at, int attempt, String group) {

	}

	@Configuration(proxyBeanMethods = false)
	static class PartnerListener {

		final List<Start> starts = Collections.synchronizedList(new ArrayList<>());

		final Map<String, AtomicInteger> payloads = new ConcurrentHashMap<>();

		@DelayedJobListener(id = "partner", topics = "partner", concurrency = "4")
		void on(DelayedJob<String> job) {
			this.starts.add(new Start(System.currentTimeMillis(), job.attempt(), String.valueOf(job.group())));
			this.payloads.computeIfAbsent(job.payload(), (key) -> new AtomicInteger()).incrementAndGet();
		}

	}

}
