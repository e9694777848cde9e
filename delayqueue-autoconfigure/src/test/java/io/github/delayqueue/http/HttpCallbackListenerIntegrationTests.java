package io.github.delayqueue.http;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.github.delayqueue.autoconfigure.DelayQueueAutoConfiguration;
import io.github.delayqueue.autoconfigure.DelayQueueHttpCallbackAutoConfiguration;
import io.github.delayqueue.autoconfigure.DelayQueueListenerAutoConfiguration;
import io.github.delayqueue.autoconfigure.DelayQueueSchedulerAutoConfiguration;
import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.InvalidJobException;
import io.github.delayqueue.core.JobEvent;
import io.github.delayqueue.core.JobInfo;
import io.github.delayqueue.core.JobState;
import io.github.delayqueue.core.TopicStats;
import io.github.delayqueue.test.DelayQueueFixture;
import io.github.delayqueue.test.HttpTestServer;
import io.github.delayqueue.test.HttpTestServer.Request;
import io.github.delayqueue.test.HttpTestServer.Response;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ContextConsumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * HTTP callback jobs end to end: sent through the auto-configured template, performed by
 * the built-in listener in a real application context, against a real Redis and a real
 * HTTP server.
 */
@ExtendWith(RedisExtension.class)
class HttpCallbackListenerIntegrationTests {

	private static final String TOPIC = "http-callback";

	private static final Duration WAIT = Duration.ofSeconds(20);

	private final HttpTestServer http = HttpTestServer.start();

	private RedisTestServer redis;

	@BeforeEach
	void flush(RedisTestServer redis) {
		this.redis = redis;
		redis.flushAll();
	}

	@AfterEach
	void closeHttp() {
		this.http.close();
	}

	@Test
	void completesTheJobWhenTheCallbackAnswers2xx() {
		run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
			String id = queue.send(TOPIC,
					HttpCallback.post(this.http.url("/notify"))
						.header("Content-Type", "application/json")
						.body("{\"order\":42}")
						.build());

			await().atMost(WAIT).until(() -> queue.find(TOPIC, id).isEmpty());
			assertThat(this.http.requests("/notify")).singleElement().satisfies((request) -> {
				assertThat(request.method()).isEqualTo("POST");
				assertThat(request.header("Content-Type")).isEqualTo("application/json");
				assertThat(request.body()).isEqualTo("{\"order\":42}");
			});
			assertThat(admin.stats(TOPIC)).isEqualTo(new TopicStats(TOPIC, 0, 0, 0, 0));
		});
	}

	@Test
	void retriesOnTheTopicsBackoffUntilTheCallbackSucceeds() {
		this.http.respond("/flaky", Response.status(503), Response.status(500), Response.status(200));
		run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
			String id = queue.send(TOPIC, HttpCallback.get(this.http.url("/flaky")).build());

			await().atMost(WAIT).until(() -> queue.find(TOPIC, id).isEmpty());
			assertThat(this.http.requests("/flaky")).hasSize(3);
		});
	}

	@Test
	void makesTheJobDeadWhenRetriesAreExhausted() {
		this.http.respond("/down", Response.status(500, "database unavailable"));
		run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
			String id = queue.send(TOPIC, HttpCallback.get(this.http.url("/down")).build());

			JobInfo dead = awaitDead(queue, id);
			assertThat(dead.attempts()).isEqualTo(3);
			assertThat(dead.lastError())
				.startsWith("Failed 3 of 3 attempts; last: " + HttpCallbackException.class.getName()
						+ ": HTTP 500 from GET " + this.http.url("/down") + ": database unavailable\n\tat ");
			assertThat(this.http.requests("/down")).hasSize(3);
		});
	}

	@Test
	void recordsEachFailedCallInTheTimelineWithoutHeaderValuesOrTheQuery() {
		this.http.respond("/down", Response.status(500, "database unavailable"));
		contextRunner().withPropertyValues("delayqueue.topics.http-callback.timeline=true").run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
			String id = queue.send(TOPIC,
					HttpCallback.get(this.http.url("/down") + "?key=k3y-value")
						.header("Authorization", "Bearer s3cr3t-token")
						.build());

			awaitDead(queue, id);
			List<JobEvent> failures = admin.timeline(TOPIC, id)
				.stream()
				.filter((event) -> event.type() == JobEvent.Type.FAILED)
				.toList();
			assertThat(failures).hasSize(3)
				.allSatisfy((failure) -> assertThat(failure.detail())
					.contains(HttpCallbackException.class.getName() + ": HTTP 500 from GET " + this.http.url("/down"))
					.endsWith(": database unavailable")
					.doesNotContain("s3cr3t")
					.doesNotContain("k3y-value"));
			assertThat(this.http.requests("/down")).first()
				.satisfies((request) -> assertThat(request.header("Authorization")).isEqualTo("Bearer s3cr3t-token"));
			assertThat(admin.timeline(TOPIC, id)).last().extracting(JobEvent::type).isEqualTo(JobEvent.Type.DEAD);
		});
	}

	@Test
	void makesTheJobDeadAtOnceOnAClientError() {
		this.http.respond("/orders/7", Response.status(422, "{\"error\":\"order 7 is closed\"}"));
		run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
			String id = queue.send(TOPIC, HttpCallback.put(this.http.url("/orders/7")).body("{}").build());

			JobInfo dead = awaitDead(queue, id);
			assertThat(dead.attempts()).isEqualTo(1);
			assertThat(dead.lastError()).contains("NonRetryableJobException: HTTP 422 from PUT")
				.contains(": {\"error\":\"order 7 is closed\"}\n\tat ");
			assertThat(this.http.requests("/orders/7")).hasSize(1);
		});
	}

	@Test
	void retriesATimedOutCallAndReportsTheTimeout() {
		this.http.hang("/slow");
		run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
			String id = queue.send(TOPIC,
					HttpCallback.get(this.http.url("/slow")).timeout(Duration.ofMillis(300)).build());

			JobInfo dead = awaitDead(queue, id);
			assertThat(dead.attempts()).isEqualTo(3);
			assertThat(dead.lastError()).contains("GET " + this.http.url("/slow") + " timed out after PT0.3S");
			assertThat(this.http.requests("/slow")).hasSize(3);
		});
	}

	@Test
	void waitsForRetryAfterInsteadOfTheBackoff() {
		this.http.respond("/limited", Response.status(429).header("Retry-After", "2"), Response.status(204));
		run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
			String id = queue.send(TOPIC, HttpCallback.get(this.http.url("/limited")).build());

			await().atMost(WAIT).until(() -> queue.find(TOPIC, id).isEmpty());
			List<Request> requests = this.http.requests("/limited");
			assertThat(requests).hasSize(2);
			// The backoff would have waited 100 ms; Retry-After asked for 2 s.
			assertThat(Duration.ofNanos(requests.get(1).receivedNanos() - requests.get(0).receivedNanos()))
				.isGreaterThanOrEqualTo(Duration.ofMillis(1900));
		});
	}

	@Test
	void refusesACallbackToAHostOutsideTheAllowListWhenItIsSent() {
		run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);

			assertThatExceptionOfType(InvalidJobException.class)
				.isThrownBy(() -> queue.send(TOPIC, HttpCallback.get(this.http.url("localhost", "/x")).build()))
				.withMessageContaining("'localhost'")
				.withMessageContaining("delayqueue.http-callback.allowed-hosts");
			assertThat(admin.stats(TOPIC)).isEqualTo(new TopicStats(TOPIC, 0, 0, 0, 0));
		});
	}

	@Test
	void makesAJobDeadWhoseHostIsNoLongerAllowedWhenItIsDue() {
		// Sent without the allow-list, as by an instance configured differently.
		String id = sendUnchecked(HttpCallback.get(this.http.url("localhost", "/moved")).build());
		run((context) -> {
			JobInfo dead = awaitDead(context.getBean(DelayQueueOperations.class), id);
			assertThat(dead.attempts()).isEqualTo(1);
			assertThat(dead.lastError()).contains("NonRetryableJobException: HTTP callback host 'localhost'")
				.contains("is not in delayqueue.http-callback.allowed-hosts");
			assertThat(this.http.requests("/moved")).isEmpty();
		});
	}

	@Test
	void makesAJobDeadWhoseStoredSchemeIsRefused() {
		// Written by hand: the payload type checks its rules again when it is read back.
		String id = sendUnchecked(Map.of("url", "file:///etc/passwd", "method", "GET"));
		run((context) -> {
			JobInfo dead = awaitDead(context.getBean(DelayQueueOperations.class), id);
			assertThat(dead.attempts()).isEqualTo(1);
			assertThat(dead.lastError()).contains("must use http or https, not file");
		});
	}

	@Test
	void doesNotFollowARedirectToAHostOutsideTheAllowList() {
		this.http.respond("/old", Response.status(307).header("Location", this.http.url("localhost", "/new")));
		run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
			String id = queue.send(TOPIC, HttpCallback.post(this.http.url("/old")).body("x").build());

			JobInfo dead = awaitDead(queue, id);
			assertThat(dead.attempts()).isEqualTo(1);
			assertThat(dead.lastError()).contains("HTTP 307 from POST " + this.http.url("/old")
					+ ": redirects are not followed (Location: " + this.http.url("localhost", "/new") + ")");
			assertThat(this.http.requests("/old")).hasSize(1);
			assertThat(this.http.requests("/new")).isEmpty();
		});
	}

	@Test
	void listensOnTheConfiguredTopic() {
		contextRunner().withPropertyValues("delayqueue.http-callback.topic=webhooks").run((context) -> {
			assertThat(context).hasNotFailed();
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
			String id = queue.send("webhooks", HttpCallback.get(this.http.url("/hook")).build());

			await().atMost(WAIT).until(() -> queue.find("webhooks", id).isEmpty());
			assertThat(this.http.requests("/hook")).hasSize(1);
			assertThatExceptionOfType(InvalidJobException.class).isThrownBy(() -> queue.send("webhooks", "text"));
		});
	}

	@Test
	void refusesEveryCallbackWhenNoHostIsAllowed() {
		String id = sendUnchecked(HttpCallback.get(this.http.url("/closed")).build());
		new ApplicationContextRunner().withConfiguration(autoConfigurations())
			.withPropertyValues(commonProperties())
			.run((context) -> {
				assertThat(context).hasNotFailed();
				DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
				DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
				assertThatExceptionOfType(InvalidJobException.class)
					.isThrownBy(() -> queue.send(TOPIC, HttpCallback.get(this.http.url("/closed")).build()))
					.withMessage("HTTP callback host '127.0.0.1' of GET " + this.http.url("/closed")
							+ " is refused: delayqueue.http-callback.allowed-hosts is empty, so callbacks may call "
							+ "no host; list the hosts they may call");

				JobInfo dead = awaitDead(queue, id);
				assertThat(dead.attempts()).isEqualTo(1);
				assertThat(dead.lastError()).contains("delayqueue.http-callback.allowed-hosts is empty");
				assertThat(this.http.requests("/closed")).isEmpty();
			});
	}

	@Test
	void refusesMetadataAndPrivateAddressesWhenSent() {
		run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
			for (String url : List.of("http://169.254.169.254/latest/meta-data/", "http://10.0.0.1/",
					"http://[::1]:" + this.http.port() + "/")) {
				assertThatExceptionOfType(InvalidJobException.class).as(url)
					.isThrownBy(() -> queue.send(TOPIC, HttpCallback.get(url).build()))
					.withMessageContaining("is not in delayqueue.http-callback.allowed-hosts (a non-public address");
			}
			assertThat(admin.stats(TOPIC)).isEqualTo(new TopicStats(TOPIC, 0, 0, 0, 0));
		});
	}

	@Test
	void makesAJobDeadWhoseNameResolvesToLoopbackWhenItIsDue() {
		contextRunner("localhost:" + this.http.port()).run((context) -> {
			assertThat(context).hasNotFailed();
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
			// Accepted when sent, without a DNS lookup on the sender's thread: the check
			// that decides is made when the job is due.
			String id = queue.send(TOPIC, HttpCallback.get(this.http.url("localhost", "/internal")).build());

			JobInfo dead = awaitDead(queue, id);
			assertThat(dead.attempts()).isEqualTo(1);
			assertThat(dead.lastError()).contains("NonRetryableJobException: HTTP callback host 'localhost'")
				.contains("it resolves to ")
				.contains("a non-public address (loopback)")
				.contains("delayqueue.http-callback.allowed-hosts");
			assertThat(this.http.requests("/internal")).isEmpty();
		});
	}

	@Test
	void callsALoopbackNameWhoseAddressesAreListedToo() {
		contextRunner("localhost:" + this.http.port(), "127.0.0.0/8:" + this.http.port(), "[::1]:" + this.http.port())
			.run((context) -> {
				assertThat(context).hasNotFailed();
				DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
				DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
				String id = queue.send(TOPIC, HttpCallback.get(this.http.url("localhost", "/local")).build());

				await().atMost(WAIT).until(() -> queue.find(TOPIC, id).isEmpty());
				assertThat(this.http.requests("/local")).hasSize(1);
			});
	}

	private void run(ContextConsumer<AssertableApplicationContext> test) {
		contextRunner().run((context) -> {
			assertThat(context).hasNotFailed();
			test.accept(context);
		});
	}

	// The test server listens on 127.0.0.1, a loopback address: it must be allowed
	// explicitly.
	private ApplicationContextRunner contextRunner() {
		return contextRunner("127.0.0.1:" + this.http.port());
	}

	private ApplicationContextRunner contextRunner(String... allowedHosts) {
		return new ApplicationContextRunner().withConfiguration(autoConfigurations())
			.withPropertyValues(commonProperties())
			.withPropertyValues("delayqueue.http-callback.allowed-hosts=" + String.join(",", allowedHosts));
	}

	private static AutoConfigurations autoConfigurations() {
		return AutoConfigurations.of(DataRedisAutoConfiguration.class, DelayQueueAutoConfiguration.class,
				DelayQueueSchedulerAutoConfiguration.class, DelayQueueListenerAutoConfiguration.class,
				DelayQueueHttpCallbackAutoConfiguration.class);
	}

	private String[] commonProperties() {
		return new String[] { "spring.data.redis.host=" + this.redis.host(),
				"spring.data.redis.port=" + this.redis.port(), "delayqueue.http-callback.enabled=true",
				"delayqueue.scheduler.max-sleep=200ms", "delayqueue.listener.shutdown-timeout=1s",
				"delayqueue.topics.http-callback.retry.max-attempts=3",
				"delayqueue.topics.http-callback.retry.backoff.delay=100ms",
				"delayqueue.topics.http-callback.retry.backoff.jitter=0ms" };
	}

	private String sendUnchecked(Object payload) {
		try (DelayQueueFixture fixture = new DelayQueueFixture(this.redis)) {
			return fixture.template().send(TOPIC, payload);
		}
	}

	private static JobInfo awaitDead(DelayQueueOperations queue, String id) {
		return await().atMost(WAIT)
			.until(() -> queue.find(TOPIC, id), (job) -> job.map(JobInfo::state).equals(Optional.of(JobState.DEAD)))
			.orElseThrow();
	}

}
