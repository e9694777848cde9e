package io.github.delayqueue.internal.actuate;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.JobEvent;
import io.github.delayqueue.core.JobInfo;
import io.github.delayqueue.core.JobRequest;
import io.github.delayqueue.internal.presence.ListenerPresence;
import io.github.delayqueue.internal.store.ScriptRunner;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import io.github.delayqueue.test.TimelineJson;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code GET /actuator/delayqueue/{topic}/{id}/timeline} of a real web application over
 * HTTP, against a real Redis: the steps of a job, hidden as {@code show-values} says, and
 * clear refusals of what it cannot address.
 */
@ExtendWith(RedisExtension.class)
class DelayQueueTimelineEndpointTests {

	private static final Duration PATIENCE = Duration.ofSeconds(20);

	private static ConfigurableApplicationContext context;

	private static ActuatorHttp http;

	private static DelayQueueOperations delayQueue;

	@BeforeAll
	static void startApplication(RedisTestServer server) {
		context = new SpringApplicationBuilder(TimelineApplication.class)
			.properties("server.port=0", "spring.data.redis.host=" + server.host(),
					"spring.data.redis.port=" + server.port(), "management.endpoints.web.exposure.include=delayqueue",
					"management.endpoint.delayqueue.access=unrestricted", "delayqueue.topics.traced.timeline=true",
					"delayqueue.topics.traced.retry.backoff.delay=10ms",
					"delayqueue.topics.traced.retry.backoff.jitter=0ms", "delayqueue.topics.parked.timeline=true")
			.run();
		http = new ActuatorHttp(context.getEnvironment().getRequiredProperty("local.server.port", Integer.class));
		delayQueue = context.getBean(DelayQueueOperations.class);
	}

	@AfterAll
	static void stopApplication() {
		if (context != null) {
			context.close();
		}
	}

	@Test
	void showsEachStepOfAJobThatFailedOnceThenCompletedWithHostAndMessageHidden() {
		delayQueue.send(JobRequest.builder("traced", "order 1").id("traced-1").build());
		await().atMost(PATIENCE)
			.untilAsserted(
					() -> assertThat(types(http.get("/delayqueue/traced/traced-1/timeline"))).endsWith("COMPLETED"));

		ActuatorHttp.Response response = http.get("/delayqueue/traced/traced-1/timeline");

		assertThat(response.status()).isEqualTo(200);
		assertThat(response.json().path("topic").asString()).isEqualTo("traced");
		assertThat(response.json().path("id").asString()).isEqualTo("traced-1");
		assertThat(types(response)).containsSubsequence("SENT", "CLAIMED", "FAILED", "RETRIED", "CLAIMED", "COMPLETED");
		JsonNode failed = step(response, "FAILED");
		assertThat(failed.path("attempt").asInt()).isEqualTo(1);
		assertThat(failed.path("detail").asString()).isEqualTo("java.lang.IllegalStateException: " + JobInfo.HIDDEN);
		assertThat(failed.path("instance").asString()).startsWith(JobInfo.HIDDEN + ":");
		assertThat(step(response, "RETRIED").path("dueAt").asString()).isNotEmpty();
		assertThat(step(response, "COMPLETED").path("attempt").asInt()).isEqualTo(2);
		assertThat(response.body()).doesNotContain("card 4111").doesNotContain(ListenerPresence.hostName());
	}

	@Test
	void showsHostAndMessageWhenShowValuesAllows() {
		delayQueue.send(JobRequest.builder("traced", "order 2").id("traced-shown").build());
		DelayQueueEndpoint showing = new DelayQueueEndpoint(delayQueue, context.getBean(DelayQueueAdmin.class),
				new ListenerPresence(context.getBean(ScriptRunner.class).redis(), "dq"), Show.ALWAYS, Set.of());
		await().atMost(PATIENCE)
			.until(() -> http.get("/delayqueue/traced/traced-shown/timeline").body().contains("COMPLETED"));

		List<JobEvent> events = showing.timeline(SecurityContext.NONE, "traced", "traced-shown", "timeline").events();

		JobEvent failed = events.stream().filter((event) -> event.type() == JobEvent.Type.FAILED).findFirst().get();
		assertThat(failed.detail()).startsWith("java.lang.IllegalStateException: card 4111 refused for order 2");
		assertThat(failed.instance()).startsWith(ListenerPresence.hostName());
	}

	@Test
	void namesTheEndpointAsWhoCancelledAJob() {
		delayQueue.send(JobRequest.builder("parked", "later").id("cancelled-1").delay(Duration.ofHours(1)).build());

		assertThat(http.delete("/delayqueue/parked/cancelled-1").json().path("cancelled").asBoolean()).isTrue();

		JsonNode cancelled = step(http.get("/delayqueue/parked/cancelled-1/timeline"), "CANCELLED");
		assertThat(cancelled.path("detail").asString()).isEqualTo("endpoint");
	}

	@Test
	void answersAnEmptyTimelineForATopicThatRecordsNoneAndForAnUnknownJob() {
		delayQueue.send(JobRequest.builder("untraced", "x").id("untraced-1").delay(Duration.ofHours(1)).build());

		ActuatorHttp.Response untraced = http.get("/delayqueue/untraced/untraced-1/timeline");
		ActuatorHttp.Response unknown = http.get("/delayqueue/traced/no-such-job/timeline");

		assertThat(untraced.status()).isEqualTo(200);
		assertThat(untraced.json().path("events")).isEmpty();
		assertThat(unknown.status()).isEqualTo(200);
		assertThat(unknown.json().path("events")).isEmpty();
	}

	@Test
	void refusesABadTopicABadIdAndAnUnknownPartSayingWhy() {
		ActuatorHttp.Response badTopic = http.get("/delayqueue/-bad/traced-1/timeline");
		ActuatorHttp.Response longId = http.get("/delayqueue/traced/" + "x".repeat(300) + "/timeline");
		ActuatorHttp.Response unknownPart = http.get("/delayqueue/traced/traced-1/history");

		assertThat(badTopic.status()).isEqualTo(400);
		assertThat(badTopic.json().path("message").asString()).contains("Invalid topic name '-bad'");
		assertThat(longId.status()).isEqualTo(400);
		assertThat(longId.json().path("message").asString()).contains("300 characters long");
		assertThat(unknownPart.status()).isEqualTo(400);
		assertThat(unknownPart.json().path("message").asString()).contains("'history'").contains("timeline");
	}

	private static List<String> types(ActuatorHttp.Response response) {
		return TimelineJson.types(response.json());
	}

	private static JsonNode step(ActuatorHttp.Response response, String type) {
		return TimelineJson.step(response.json(), type);
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class TimelineApplication {

		@Bean
		FailsOnce failsOnce() {
			return new FailsOnce();
		}

	}

	static class FailsOnce {

		private final Set<String> failed = ConcurrentHashMap.newKeySet();

		@DelayedJobListener(topics = "traced", id = "tracedListener")
		void handle(String payload) {
			if (this.failed.add(payload)) {
				throw new IllegalStateException("card 4111 refused for " + payload);
			}
		}

	}

}
