package io.github.delayqueue.internal.dashboard;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.JobInfo;
import io.github.delayqueue.core.JobRequest;
import io.github.delayqueue.core.JobState;
import io.github.delayqueue.internal.presence.ListenerPresence;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static io.github.delayqueue.test.TimelineJson.step;
import static io.github.delayqueue.test.TimelineJson.types;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The dashboard's {@code api/topics/{topic}/jobs/{id}/timeline} in a real web application
 * on a random port against a real Redis: a job's steps hidden as the job's own values
 * are, a topic that records none said so, bad input refused naming it, and no spelling of
 * the path that shows what the setting hides. Requests go over a plain socket, so that
 * each reaches the server exactly as written.
 */
@ExtendWith(RedisExtension.class)
class DashboardTimelineApiTests {

	private static final Duration PATIENCE = Duration.ofSeconds(30);

	private final JsonMapper json = JsonMapper.builder().build();

	private final List<ConfigurableApplicationContext> contexts = new ArrayList<>();

	private RedisTestServer server;

	@BeforeEach
	void setUp(RedisTestServer server) {
		server.flushAll();
		this.server = server;
	}

	@AfterEach
	void tearDown() {
		this.contexts.forEach(ConfigurableApplicationContext::close);
	}

	@Test
	void showsTheStepsOfAJobWithHostAndErrorMessageOnlyWhenShowPayloadsAllows() throws Exception {
		int shown = start("delayqueue.dashboard.show-payloads=always");
		int hidden = start();
		int whenAuthorized = start("delayqueue.dashboard.show-payloads=when-authorized");
		bean(DelayQueueOperations.class).send(JobRequest.builder("traced", "order 1").id("order-1").build());
		await().atMost(PATIENCE).until(() -> types(get(shown, timeline("traced", "order-1"))).contains("COMPLETED"));

		JsonNode all = get(shown, timeline("traced", "order-1"));
		assertThat(all.path("recorded").asBoolean()).isTrue();
		assertThat(types(all)).containsSubsequence("SENT", "CLAIMED", "FAILED", "RETRIED", "CLAIMED", "COMPLETED");
		assertThat(step(all, "FAILED").path("detail").asString())
			.isEqualTo("java.lang.IllegalStateException: card 4111 refused for order 1");
		assertThat(step(all, "FAILED").path("instance").asString()).startsWith(ListenerPresence.hostName() + ":");
		for (int port : List.of(hidden, whenAuthorized)) {
			String answer = exchange(port, "GET", timeline("traced", "order-1"));
			assertThat(RawHttp.status(answer)).isEqualTo(200);
			JsonNode masked = body(answer);
			assertThat(types(masked)).isEqualTo(types(all));
			assertThat(step(masked, "FAILED").path("detail").asString())
				.isEqualTo("java.lang.IllegalStateException: " + JobInfo.HIDDEN);
			assertThat(step(masked, "FAILED").path("instance").asString()).startsWith(JobInfo.HIDDEN + ":");
			assertThat(answer).doesNotContain("card 4111").doesNotContain(ListenerPresence.hostName());
		}
	}

	@Test
	void saysWhenTheTopicRecordsNoTimeline() throws Exception {
		int port = start();
		bean(DelayQueueOperations.class)
			.send(JobRequest.builder("untraced", "x").id("untraced-1").delay(Duration.ofHours(1)).build());

		JsonNode untraced = get(port, timeline("untraced", "untraced-1"));
		JsonNode unknown = get(port, timeline("traced", "no-such-job"));

		assertThat(untraced.path("recorded").asBoolean()).isFalse();
		assertThat(untraced.path("events")).isEmpty();
		assertThat(unknown.path("recorded").asBoolean()).isTrue();
		assertThat(unknown.path("events")).isEmpty();
	}

	@Test
	void namesTheDashboardAsWhoCancelledOrRequeuedAJob() throws Exception {
		int port = start("delayqueue.dashboard.read-only=false");
		DelayQueueOperations queue = bean(DelayQueueOperations.class);
		queue.send(JobRequest.builder("parked", "later").id("parked-1").delay(Duration.ofHours(1)).build());
		queue.send(JobRequest.builder("traced", "always").id("doomed-1").build());
		await().atMost(PATIENCE)
			.until(() -> queue.find("traced", "doomed-1").map(JobInfo::state).orElse(null) == JobState.DEAD);
		String origin = "Origin: http://localhost:" + port;

		assertThat(
				RawHttp.status(RawHttp.exchange(port, "DELETE", "/delayqueue/api/topics/parked/jobs/parked-1", origin)))
			.isEqualTo(200);
		assertThat(RawHttp
			.status(RawHttp.exchange(port, "POST", "/delayqueue/api/topics/traced/jobs/doomed-1/requeue", origin)))
			.isEqualTo(200);

		assertThat(step(get(port, timeline("parked", "parked-1")), "CANCELLED").path("detail").asString())
			.isEqualTo("dashboard");
		assertThat(step(get(port, timeline("traced", "doomed-1")), "REQUEUED").path("detail").asString())
			.isEqualTo("dashboard");
	}

	@Test
	void refusesABadTopicOrIdNamingIt() throws Exception {
		int port = start();

		String badTopic = exchange(port, "GET", timeline("bad%20topic", "order-1"));
		String longId = exchange(port, "GET", timeline("traced", "x".repeat(300)));

		assertThat(RawHttp.status(badTopic)).isEqualTo(400);
		assertThat(body(badTopic).path("message").asString()).contains("'bad topic'");
		assertThat(RawHttp.status(longId)).isEqualTo(400);
		assertThat(body(longId).path("message").asString()).contains("300 characters long");
	}

	@Test
	void noSpellingOfThePathShowsWhatTheSettingHides() throws Exception {
		int port = start();
		DelayQueueOperations queue = bean(DelayQueueOperations.class);
		queue.send(JobRequest.builder("traced", "order 3").id("order-3").build());
		await().atMost(PATIENCE).until(() -> types(get(port, timeline("traced", "order-3"))).contains("COMPLETED"));

		List<String> answered = new ArrayList<>();
		List<String> leaks = new ArrayList<>();
		for (String spelling : DashboardHostileRequestTests.spellings(timeline("traced", "order-3"))) {
			String answer = exchange(port, "GET", spelling);
			if (RawHttp.status(answer) == 200) {
				answered.add(spelling);
			}
			if (answer.contains("card 4111") || answer.contains(ListenerPresence.hostName())) {
				leaks.add(spelling);
			}
		}

		assertThat(answered).as("spellings answered with the timeline").isNotEmpty();
		assertThat(leaks).as("spellings that show an error message or a host name").isEmpty();
	}

	private static String timeline(String topic, String id) {
		return "/delayqueue/api/topics/" + topic + "/jobs/" + id + "/timeline";
	}

	private JsonNode get(int port, String path) throws IOException {
		return body(exchange(port, "GET", path));
	}

	private static String exchange(int port, String method, String path) throws IOException {
		return RawHttp.exchange(port, method, path, "Origin: http://localhost:" + port);
	}

	private JsonNode body(String answer) {
		String[] parts = answer.split("\r\n\r\n", 2);
		return this.json.readTree(dechunk(parts[1]));
	}

	// Tomcat sends a body of unknown length in chunks: "<hex
	// size>\r\n<data>\r\n...0\r\n".
	private static String dechunk(String body) {
		StringBuilder data = new StringBuilder();
		String rest = body;
		while (true) {
			int lineEnd = rest.indexOf("\r\n");
			if (lineEnd < 0) {
				return body;
			}
			int size;
			try {
				size = Integer.parseInt(rest.substring(0, lineEnd).trim(), 16);
			}
			catch (NumberFormatException ex) {
				return body;
			}
			if (size == 0) {
				return data.toString();
			}
			data.append(rest, lineEnd + 2, lineEnd + 2 + size);
			rest = rest.substring(lineEnd + 2 + size + 2);
		}
	}

	private int start(String... properties) {
		List<String> all = new ArrayList<>(List.of("server.port=0", "spring.data.redis.host=" + this.server.host(),
				"spring.data.redis.port=" + this.server.port(), "delayqueue.dashboard.enabled=true",
				"delayqueue.topics.traced.timeline=true", "delayqueue.topics.traced.retry.max-attempts=2",
				"delayqueue.topics.traced.retry.backoff.delay=10ms",
				"delayqueue.topics.traced.retry.backoff.jitter=0ms", "delayqueue.topics.parked.timeline=true"));
		all.addAll(List.of(properties));
		ConfigurableApplicationContext context = new SpringApplicationBuilder(TimelineApplication.class)
			.properties(all.toArray(String[]::new))
			.run();
		this.contexts.add(context);
		return Integer.parseInt(context.getEnvironment().getRequiredProperty("local.server.port"));
	}

	private <T> T bean(Class<T> type) {
		return this.contexts.get(0).getBean(type);
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class TimelineApplication {

		@Bean
		FailsOnce failsOnce() {
			return new FailsOnce();
		}

	}

	/** Fails the first delivery of each payload, and every delivery of "always". */
	static class FailsOnce {

		// Shared by the applications a test starts, which all consume the topic.
		private static final Set<String> failed = ConcurrentHashMap.newKeySet();

		@DelayedJobListener(topics = "traced", id = "tracedListener")
		void handle(String payload) {
			if (failed.add(payload) || payload.equals("always")) {
				throw new IllegalStateException("card 4111 refused for " + payload);
			}
		}

	}

}
