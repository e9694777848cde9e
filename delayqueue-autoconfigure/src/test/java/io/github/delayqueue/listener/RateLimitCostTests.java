package io.github.delayqueue.listener;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.JobRequest;
import io.github.delayqueue.test.DelayQueueContextRunner;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A rate limit far above the rate a topic's jobs are handled at costs few script calls:
 * its jobs are claimed ahead of the free workers like any topic's and each claim is
 * admitted in one call, not a call or two for every few jobs. The calls are counted by a
 * Redis server of this class's own.
 */
class RateLimitCostTests {

	private static final Pattern EVALSHA_CALLS = Pattern.compile("cmdstat_evalsha:calls=(\\d+)");

	private static final int JOBS = 5000;

	static final AtomicInteger handled = new AtomicInteger();

	private RedisTestServer server;

	@BeforeEach
	void setUp() {
		this.server = RedisTestServer.startDedicated();
		handled.set(0);
	}

	@AfterEach
	void tearDown() {
		this.server.close();
	}

	@Test
	void aBurstUnderALimitFarAboveItsRateTakesFarFewerScriptCallsThanJobs() {
		DelayQueueContextRunner.create(this.server)
			.withUserConfiguration(BurstListener.class)
			.withPropertyValues("delayqueue.topics.burst.rate-limit.limit=1000000")
			.run((context) -> {
				DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
				// Handlers prove quick first, so that the container claims ahead.
				send(queue, "warm", 500);
				await().atMost(Duration.ofSeconds(30)).until(() -> handled.get() == 500);
				this.server.command("CONFIG", "RESETSTAT");
				send(queue, "job", JOBS);
				await().atMost(Duration.ofSeconds(60)).until(() -> handled.get() == 500 + JOBS);
				// Sends, claims, admissions, acknowledgements and the scheduler's own
				// calls, all together: a claim and an admission for every few jobs made
				// nearly one call per job.
				assertThat(evalShaCalls()).isLessThan(JOBS / 5);
			});
	}

	private static void send(DelayQueueOperations queue, String prefix, int jobs) {
		List<JobRequest> requests = new ArrayList<>();
		for (int i = 0; i < jobs; i++) {
			requests.add(JobRequest.builder("burst", prefix + "-" + i).build());
		}
		queue.sendAll(requests);
	}

	private long evalShaCalls() {
		Matcher calls = EVALSHA_CALLS.matcher(this.server.command("INFO", "commandstats"));
		assertThat(calls.find()).isTrue();
		return Long.parseLong(calls.group(1));
	}

	@Configuration(proxyBeanMethods = false)
	static class BurstListener {

		@DelayedJobListener(id = "burst", topics = "burst", concurrency = "8")
		void on(String payload) {
			handled.incrementAndGet();
		}

	}

}
