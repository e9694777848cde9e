package io.github.delayqueue.listener;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.DelayedJob;
import io.github.delayqueue.core.JobRequest;
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
 * Each group's own bounds across two application instances on one Redis
 * ({@code group.concurrency}, {@code group.rate-limit.*}): a group never runs more than
 * its bound, reaches it, and a group at its bound holds back its own jobs only, while the
 * other groups of the topic run.
 */
@ExtendWith(RedisExtension.class)
class GroupLimitsTests {

	/**
	 * What a handler start may lag behind the admission the limit counted it at, on the
	 * Redis clock: a claim's reply and a hand-off to a worker thread, on a shared
	 * machine.
	 */
	private static final long DISPATCH_SLACK_MILLIS = 100;

	// Handlers of both instances, which share this JVM.
	static final Map<String, AtomicInteger> running = new ConcurrentHashMap<>();

	static final Map<String, AtomicInteger> mostAtOnce = new ConcurrentHashMap<>();

	static final Map<String, AtomicInteger> started = new ConcurrentHashMap<>();

	static final Map<String, Integer> sent = new ConcurrentHashMap<>();

	static final AtomicInteger runningInAll = new AtomicInteger();

	// Whether a handler holds until its group runs two at once.
	static volatile boolean holdUntilTwo;

	static final AtomicInteger mostInAll = new AtomicInteger();

	static final List<Start> starts = Collections.synchronizedList(new ArrayList<>());

	static final Map<String, AtomicInteger> deliveries = new ConcurrentHashMap<>();

	private ApplicationContextRunner runner;

	@BeforeEach
	void setUp(RedisTestServer server) {
		server.flushAll();
		running.clear();
		mostAtOnce.clear();
		started.clear();
		sent.clear();
		runningInAll.set(0);
		mostInAll.set(0);
		starts.clear();
		deliveries.clear();
		holdUntilTwo = false;
		this.runner = DelayQueueContextRunner.create(server)
			.withUserConfiguration(TenantListener.class)
			.withPropertyValues("delayqueue.topics.tenants.ttr=10s", "delayqueue.scheduler.max-sleep=200ms");
	}

	@Test
	void eachGroupRunsAtMostItsConcurrencyAndTheOtherGroupsRunMeanwhile() {
		ApplicationContextRunner bounded = this.runner
			.withPropertyValues("delayqueue.topics.tenants.group.concurrency=2");
		holdUntilTwo = true;
		bounded.run((first) -> bounded.run((second) -> {
			send(first.getBean(DelayQueueOperations.class), Map.of("big", 20, "mid", 6, "small", 2));
			await().atMost(Duration.ofSeconds(30)).until(() -> deliveries.size() == 28);
			assertThat(mostAtOnce.get("big").get()).isEqualTo(2);
			assertThat(mostAtOnce.get("mid").get()).isEqualTo(2);
			assertThat(mostAtOnce.get("small").get()).isLessThanOrEqualTo(2);
			// Big at its bound left the workers to the other groups.
			assertThat(mostInAll.get()).isGreaterThanOrEqualTo(4);
			assertThat(deliveries.values()).allSatisfy((count) -> assertThat(count.get()).isOne());
			assertThat(first.getBean(TenantListener.class).handled.get()
					+ second.getBean(TenantListener.class).handled.get())
				.isEqualTo(28);
		}));
	}

	@Test
	void eachGroupHasARateLimitOfItsOwn() {
		ApplicationContextRunner limited = this.runner.withPropertyValues(
				"delayqueue.topics.tenants.group.rate-limit.limit=5",
				"delayqueue.topics.tenants.group.rate-limit.period=1s");
		limited.run((first) -> limited.run((second) -> {
			send(first.getBean(DelayQueueOperations.class), Map.of("a", 15, "b", 15));
			await().atMost(Duration.ofSeconds(30)).until(() -> deliveries.size() == 30);
			List<Start> sorted = new ArrayList<>(starts);
			sorted.sort((x, y) -> Long.compare(x.at(), y.at()));
			for (String group : List.of("a", "b")) {
				List<Long> times = sorted.stream()
					.filter((start) -> start.group().equals(group))
					.map(Start::at)
					.toList();
				assertThat(times).hasSize(15);
				// No window of a period holds more than the limit plus one start, at
				// the handlers.
				for (int i = 0; i + 6 < times.size(); i++) {
					assertThat(times.get(i + 6) - times.get(i))
						.as("group %s: starts %d to %d span a period", group, i, i + 6)
						.isGreaterThanOrEqualTo(1000);
				}
			}
			// Both groups at their own pace at once: a limit of five for the whole
			// topic would have taken six seconds.
			assertThat(sorted.get(sorted.size() - 1).at() - sorted.get(0).at()).isBetween(2000 - DISPATCH_SLACK_MILLIS,
					4000L);
		}));
	}

	@Test
	void aGroupHeldForLongHoldsUpNoJobOfAnotherGroupThatBecomesReadyLater() {
		ApplicationContextRunner limited = this.runner.withPropertyValues(
				"delayqueue.topics.tenants.group.rate-limit.limit=2",
				"delayqueue.topics.tenants.group.rate-limit.period=30s");
		limited.run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			send(queue, Map.of("slow", 5));
			await().atMost(Duration.ofSeconds(10)).until(() -> starts.size() == 2);
			long sentAt = System.currentTimeMillis();
			send(queue, Map.of("other", 2));
			await().atMost(Duration.ofSeconds(10)).until(() -> startsOf("other").size() == 2);
			assertThat(startsOf("other")).allSatisfy((at) -> assertThat(at - sentAt).isLessThan(2000));
			assertThat(startsOf("slow")).hasSize(2);
		});
	}

	@Test
	void theJobsOfAHeldGroupStartWhenItsHoldEndsWithNoOtherJobToWakeTheListener() {
		ApplicationContextRunner limited = this.runner.withPropertyValues(
				"delayqueue.topics.tenants.group.rate-limit.limit=2",
				"delayqueue.topics.tenants.group.rate-limit.period=2s");
		limited.run((context) -> {
			send(context.getBean(DelayQueueOperations.class), Map.of("paced", 4));
			await().atMost(Duration.ofSeconds(20)).until(() -> starts.size() == 4);
			List<Long> times = startsOf("paced");
			// The second pair starts when the window lets it, not at the listener's next
			// look for jobs no waiter brought.
			assertThat(times.get(2) - times.get(0)).isBetween(2000 - DISPATCH_SLACK_MILLIS, 3000L);
		});
	}

	private static List<Long> startsOf(String group) {
		List<Start> sorted = new ArrayList<>(starts);
		sorted.sort((x, y) -> Long.compare(x.at(), y.at()));
		return sorted.stream().filter((start) -> start.group().equals(group)).map(Start::at).toList();
	}

	private static void send(DelayQueueOperations queue, Map<String, Integer> jobsByGroup) {
		List<JobRequest> requests = new ArrayList<>();
		jobsByGroup.forEach((group, jobs) -> {
			sent.put(group, jobs);
			for (int i = 0; i < jobs; i++) {
				requests.add(JobRequest.builder("tenants", group + "-" + i).group(group).build());
			}
		});
		queue.sendAll(requests);
	}

	record Start(long at, String group) {

	}

	@Configuration(proxyBeanMethods = false)
	static class TenantListener {

		final AtomicInteger handled = new AtomicInteger();

		@DelayedJobListener(id = "tenants", topics = "tenants", concurrency = "4")
		void on(DelayedJob<String> job) {
			String group = job.group();
			starts.add(new Start(System.currentTimeMillis(), group));
			deliveries.computeIfAbsent(job.payload(), (key) -> new AtomicInteger()).incrementAndGet();
			this.handled.incrementAndGet();
			AtomicInteger mine = running.computeIfAbsent(group, (key) -> new AtomicInteger());
			int startedOfGroup = started.computeIfAbsent(group, (key) -> new AtomicInteger()).incrementAndGet();
			mostAtOnce.computeIfAbsent(group, (key) -> new AtomicInteger())
				.accumulateAndGet(mine.incrementAndGet(), Math::max);
			mostInAll.accumulateAndGet(runningInAll.incrementAndGet(), Math::max);
			try {
				// Hold the handler until its group runs two at once (or has no job left
				// to start), so that a third would get its chance if the bound leaked.
				await().atMost(Duration.ofSeconds(10))
					.pollInterval(Duration.ofMillis(2))
					.until(() -> !holdUntilTwo || mine.get() >= 2 || started.get(group).get() >= sent.get(group));
			}
			finally {
				mine.decrementAndGet();
				runningInAll.decrementAndGet();
			}
		}

	}

}
