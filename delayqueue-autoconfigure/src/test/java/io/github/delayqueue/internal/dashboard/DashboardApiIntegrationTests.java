package io.github.delayqueue.internal.dashboard;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.JobConstraints;
import io.github.delayqueue.core.JobInfo;
import io.github.delayqueue.core.JobRequest;
import io.github.delayqueue.core.JobState;
import io.github.delayqueue.core.NonRetryableJobException;
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
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The dashboard's JSON API in a real web application on a random port, called over HTTP
 * as the page and a forger would call it, against a real Redis.
 */
@ExtendWith(RedisExtension.class)
class DashboardApiIntegrationTests {

	private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

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
	void showsTopicsWithCountsPauseListenersAndDueLag() throws Exception {
		String base = start("delayqueue.dashboard.read-only=false");
		DelayQueueOperations queue = bean(DelayQueueOperations.class);
		DelayQueueAdmin admin = bean(DelayQueueAdmin.class);
		queue.send("shown", "a", Duration.ofHours(1));
		queue.send("unheard", "b");
		admin.pause("unheard");

		Answer topics = get(base + "/api/topics");

		assertThat(topics.status()).isEqualTo(200);
		JsonNode shown = row(topics.json(), "shown");
		assertThat(shown.path("delayed").asLong()).isEqualTo(1);
		assertThat(shown.path("paused").asBoolean()).isFalse();
		JsonNode unheard = row(topics.json(), "unheard");
		assertThat(unheard.path("ready").asLong()).isEqualTo(1);
		assertThat(unheard.path("paused").asBoolean()).isTrue();
		assertThat(unheard.path("noConsumer").asBoolean()).isTrue();
		assertThat(unheard.path("dueLagMillis").asLong()).isGreaterThanOrEqualTo(0);
		await().atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> assertThat(row(get(base + "/api/topics").json(), "dashboard.jobs").path("listeners"))
				.isNotEmpty());
	}

	@Test
	void pagesJobsAndShowsOneWithItsPayloadUnlessHidden() throws Exception {
		String base = start("delayqueue.dashboard.show-payloads=always");
		DelayQueueOperations queue = bean(DelayQueueOperations.class);
		DelayQueueAdmin admin = bean(DelayQueueAdmin.class);
		String sooner = queue.send(JobRequest.builder("paged", new Order(1))
			.header("Authorization", "Bearer secret")
			.delay(Duration.ofMinutes(1))
			.build());
		String later = queue.send("paged", new Order(2), Duration.ofMinutes(2));

		Answer page = get(base + "/api/topics/paged/jobs?state=delayed&count=1");
		assertThat(page.json().at("/jobs/0/id").asString()).isEqualTo(sooner);
		assertThat(
				get(base + "/api/topics/paged/jobs?state=delayed&offset=1&count=1").json().at("/jobs/0/id").asString())
			.isEqualTo(later);
		Answer job = get(base + "/api/topics/paged/jobs/" + sooner);
		assertThat(job.status()).isEqualTo(200);
		assertThat(job.json().path("payloadJson").asString()).contains("\"number\":1");
		assertThat(job.json().at("/headers/Authorization").asString()).isEqualTo("Bearer secret");
		assertThat(get(base + "/api/topics/paged/jobs/nope").status()).isEqualTo(404);

		String hidden = start();
		Answer masked = get(hidden + "/api/topics/paged/jobs/" + sooner);
		assertThat(masked.body()).doesNotContain("secret").doesNotContain("number");
	}

	@Test
	void refusesBadInputNamingIt() throws Exception {
		String base = start();
		assertThat(get(base + "/api/topics/paged/jobs?state=gone").json().path("message").asString())
			.contains("'gone'");
		assertThat(get(base + "/api/topics/paged/jobs?count=501").status()).isEqualTo(400);
		assertThat(get(base + "/api/topics/paged/jobs?count=ten").json().path("message").asString()).contains("'ten'");
		Answer badTopic = get(base + "/api/topics/bad%20topic/jobs");
		assertThat(badTopic.status()).isEqualTo(400);
		assertThat(badTopic.json().path("message").asString()).contains("bad topic");
		assertThat(get(base + "/api/history?range=year").status()).isEqualTo(400);
		Answer badHistoryTopic = get(base + "/api/history?range=hour&topic=bad%20topic");
		assertThat(badHistoryTopic.status()).isEqualTo(400);
		assertThat(badHistoryTopic.json().path("message").asString()).contains("bad topic");
	}

	@Test
	void actsWhenWritableAndSameOrigin() throws Exception {
		String base = start("delayqueue.dashboard.read-only=false");
		DelayQueueOperations queue = bean(DelayQueueOperations.class);
		DelayQueueAdmin admin = bean(DelayQueueAdmin.class);
		String delayed = queue.send("acted", "x", Duration.ofHours(1));

		assertThat(post(base + "/api/topics/acted/jobs/" + delayed + "/run-now", origin(base)).status()).isEqualTo(200);
		assertThat(queue.find("acted", delayed).orElseThrow().state()).isEqualTo(JobState.READY);
		assertThat(send(HttpRequest.newBuilder(URI.create(base + "/api/topics/acted/pause"))
			.header("Sec-Fetch-Site", "same-origin")
			.POST(HttpRequest.BodyPublishers.noBody())).status()).isEqualTo(200);
		assertThat(admin.isPaused("acted")).isTrue();
		assertThat(post(base + "/api/topics/acted/resume", origin(base)).status()).isEqualTo(200);
		assertThat(admin.isPaused("acted")).isFalse();
		assertThat(send(HttpRequest.newBuilder(URI.create(base + "/api/topics/acted/jobs/" + delayed))
			.header("Origin", origin(base))
			.DELETE()).status()).isEqualTo(200);
		assertThat(queue.find("acted", delayed)).isEmpty();

		String dead = queue.send("dashboard.jobs", "fail");
		await().atMost(Duration.ofSeconds(20))
			.until(() -> queue.find("dashboard.jobs", dead).map((job) -> job.state() == JobState.DEAD).orElse(false));
		assertThat(post(base + "/api/topics/dashboard.jobs/jobs/" + dead + "/requeue", origin(base)).status())
			.isEqualTo(200);
		await().atMost(Duration.ofSeconds(20))
			.until(() -> queue.find("dashboard.jobs", dead).map((job) -> job.state() == JobState.DEAD).orElse(false));
		Answer purged = post(base + "/api/topics/dashboard.jobs/purge-dead", origin(base));
		assertThat(purged.json().path("purged").asLong()).isEqualTo(1);
		await().atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> assertThat(get(base + "/api/history?range=hour").json().at("/buckets/59/dead").asLong()
					+ get(base + "/api/history?range=hour").json().at("/buckets/58/dead").asLong())
				.isEqualTo(2));
	}

	@Test
	void refusesChangesWhenReadOnlyOrFromAnotherOrigin() throws Exception {
		String readOnly = start();
		DelayQueueOperations queue = bean(DelayQueueOperations.class);
		DelayQueueAdmin admin = bean(DelayQueueAdmin.class);
		String id = queue.send("guarded", "x", Duration.ofHours(1));
		Answer refused = post(readOnly + "/api/topics/guarded/pause", origin(readOnly));
		assertThat(refused.status()).isEqualTo(403);
		assertThat(refused.json().path("message").asString()).contains("read-only");
		assertThat(delete(readOnly + "/api/topics/guarded/jobs/" + id).status()).isEqualTo(403);
		assertThat(admin.isPaused("guarded")).isFalse();
		assertThat(queue.find("guarded", id)).isPresent();

		String writable = start("delayqueue.dashboard.read-only=false");
		Answer forged = post(writable + "/api/topics/guarded/pause", "http://evil.example");
		assertThat(forged.status()).isEqualTo(403);
		assertThat(forged.json().path("message").asString()).contains("another origin");
		Answer crossSite = send(HttpRequest.newBuilder(URI.create(writable + "/api/topics/guarded/pause"))
			.header("Sec-Fetch-Site", "cross-site")
			.POST(HttpRequest.BodyPublishers.noBody()));
		assertThat(crossSite.status()).isEqualTo(403);
		Answer neitherOriginNorFetchSite = post(writable + "/api/topics/guarded/pause", null);
		assertThat(neitherOriginNorFetchSite.status()).isEqualTo(403);
		assertThat(neitherOriginNorFetchSite.json().path("message").asString())
			.contains("neither Origin nor Sec-Fetch-Site");
		assertThat(delete(writable + "/api/topics/guarded/jobs/" + id).status()).isEqualTo(403);
		assertThat(admin.isPaused("guarded")).isFalse();
		assertThat(queue.find("guarded", id)).isPresent();
	}

	@Test
	void servesThePageAndEveryAnswerWithProtectiveHeaders() throws Exception {
		String base = start();
		HttpResponse<String> page = this.client.send(HttpRequest.newBuilder(URI.create(base)).build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(page.statusCode()).isEqualTo(200);
		assertThat(page.body()).contains("src=\"delayqueue/assets/app.js\"").doesNotContain("<script>");
		HttpResponse<String> script = this.client.send(
				HttpRequest.newBuilder(URI.create(base + "/assets/app.js")).build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(script.statusCode()).isEqualTo(200);
		assertThat(script.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).containsAnyOf("text/javascript", "application/javascript"));
		HttpResponse<String> chart = this.client.send(
				HttpRequest.newBuilder(URI.create(base + "/assets/uplot/uPlot.esm.js")).build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(chart.statusCode()).isEqualTo(200);
		assertThat(chart.body()).contains("export { uPlot as default }");
		HttpResponse<String> slash = this.client.send(HttpRequest.newBuilder(URI.create(base + "/")).build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(slash.statusCode()).isEqualTo(302);
		assertThat(URI.create(base + "/").resolve(slash.headers().firstValue("Location").orElseThrow()))
			.isEqualTo(URI.create(base));
		for (HttpResponse<String> answer : List.of(page, script,
				this.client.send(HttpRequest.newBuilder(URI.create(base + "/api/topics")).build(),
						HttpResponse.BodyHandlers.ofString()))) {
			assertThat(answer.headers().firstValue("Content-Security-Policy"))
				.hasValue(DashboardResponseHeaders.CONTENT_SECURITY_POLICY);
			assertThat(answer.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
			assertThat(answer.headers().firstValue("Cache-Control")).hasValue("no-store");
			assertThat(answer.headers().firstValue("X-Frame-Options")).hasValue("DENY");
		}
	}

	@Test
	void actsBehindAProxyThatForwardsItsHostAndPrefix() throws Exception {
		String base = start("delayqueue.dashboard.read-only=false", "server.forward-headers-strategy=framework",
				"delayqueue.dashboard.allowed-origins=https://ops.example");
		String publicOrigin = "https://ops.example";
		HttpRequest.Builder page = HttpRequest.newBuilder(URI.create(base))
			.header("X-Forwarded-Proto", "https")
			.header("X-Forwarded-Host", "ops.example")
			.header("X-Forwarded-Prefix", "/queues");
		HttpRequest.Builder pause = HttpRequest.newBuilder(URI.create(base + "/api/topics/proxied/pause"))
			.POST(HttpRequest.BodyPublishers.noBody())
			.header("X-Forwarded-Proto", "https")
			.header("X-Forwarded-Host", "ops.example")
			.header("X-Forwarded-Prefix", "/queues")
			.header("Origin", publicOrigin);

		HttpResponse<String> shown = this.client.send(page.build(), HttpResponse.BodyHandlers.ofString());
		Answer paused = send(pause);

		// Links relative to the page hold under the proxy's prefix; the origin check sees
		// the public host the browser saw.
		assertThat(shown.statusCode()).isEqualTo(200);
		assertThat(shown.body()).contains("href=\"delayqueue/assets/dashboard.css\"").doesNotContain("\"/delayqueue");
		assertThat(paused.status()).isEqualTo(200);
		assertThat(bean(DelayQueueAdmin.class).isPaused("proxied")).isTrue();
		// Sent to a name the list leaves out, the page itself is refused.
		assertThat(get(base + "/api/topics").status()).isEqualTo(403);
	}

	@Test
	void answersSettingsOneTopicAndALookupByIdInEveryTopic() throws Exception {
		String base = start("delayqueue.dashboard.show-payloads=never");
		DelayQueueOperations queue = bean(DelayQueueOperations.class);
		DelayQueueAdmin admin = bean(DelayQueueAdmin.class);
		queue.send(JobRequest.builder("lookup.second", new Order(5)).id("needle").delay(Duration.ofHours(1)).build());
		queue.send("lookup.first", new Order(6), Duration.ofHours(1));

		JsonNode settings = get(base + "/api/settings").json();
		Answer topic = get(base + "/api/topics/lookup.second");
		Answer found = get(base + "/api/jobs/needle");
		Answer missing = get(base + "/api/jobs/nowhere");

		assertThat(settings.path("readOnly").asBoolean()).isTrue();
		assertThat(settings.path("showPayloads").asBoolean()).isFalse();
		assertThat(settings.path("history").asBoolean()).isTrue();
		assertThat(settings.path("maxPageSize").asInt()).isEqualTo(DashboardApi.MAX_PAGE_SIZE);
		assertThat(topic.json().path("delayed").asLong()).isEqualTo(1);
		assertThat(topic.json().path("noConsumer").asBoolean()).isTrue();
		assertThat(found.status()).isEqualTo(200);
		assertThat(found.json().path("topic").asString()).isEqualTo("lookup.second");
		assertThat(found.json().path("payloadJson").asString()).isEqualTo(JobInfo.HIDDEN);
		assertThat(missing.status()).isEqualTo(404);
		assertThat(missing.json().path("message").asString()).contains("nowhere").contains("any topic");
	}

	@Test
	void actsOnSeveralJobsAtOnceWithAResultPerId() throws Exception {
		String base = start("delayqueue.dashboard.read-only=false");
		DelayQueueOperations queue = bean(DelayQueueOperations.class);
		DelayQueueAdmin admin = bean(DelayQueueAdmin.class);
		String first = queue.send("dashboard.jobs", "fail");
		String second = queue.send("dashboard.jobs", "fail");
		await().atMost(Duration.ofSeconds(20)).until(() -> admin.stats("dashboard.jobs").dead() == 2);
		admin.pause("dashboard.jobs");
		String pending = queue.send("dashboard.jobs", "fail", Duration.ofHours(1));

		Answer requeued = postJson(base + "/api/topics/dashboard.jobs/jobs/actions", origin(base),
				"{\"action\":\"requeue\",\"ids\":[\"" + first + "\",\"" + second + "\",\"" + pending
						+ "\",\"nowhere\"]}");

		assertThat(requeued.status()).isEqualTo(200);
		assertThat(requeued.json().path("done").asInt()).isEqualTo(2);
		assertThat(requeued.json().at("/results/0/result").asString()).isEqualTo("done");
		assertThat(requeued.json().at("/results/1/result").asString()).isEqualTo("done");
		assertThat(requeued.json().at("/results/2/result").asString()).isEqualTo("wrong-state");
		assertThat(requeued.json().at("/results/2/state").asString()).isEqualTo("delayed");
		assertThat(requeued.json().at("/results/3/result").asString()).isEqualTo("not-found");
		assertThat(queue.find("dashboard.jobs", first).orElseThrow().state()).isEqualTo(JobState.READY);
		assertThat(queue.find("dashboard.jobs", second).orElseThrow().state()).isEqualTo(JobState.READY);

		Answer ranNow = postJson(base + "/api/topics/dashboard.jobs/jobs/actions", origin(base),
				"{\"action\":\"run-now\",\"ids\":[\"" + pending + "\"]}");
		assertThat(ranNow.json().at("/results/0/result").asString()).isEqualTo("done");
		assertThat(queue.find("dashboard.jobs", pending).orElseThrow().state()).isEqualTo(JobState.READY);
		Answer deleted = postJson(base + "/api/topics/dashboard.jobs/jobs/actions", origin(base),
				"{\"action\":\"delete\",\"ids\":[\"" + first + "\",\"" + pending + "\"]}");
		assertThat(deleted.json().path("done").asInt()).isEqualTo(2);
		assertThat(queue.find("dashboard.jobs", first)).isEmpty();
		assertThat(queue.find("dashboard.jobs", pending)).isEmpty();
	}

	@Test
	void refusesABadRequestForSeveralJobsNamingItBeforeAnythingChanges() throws Exception {
		String base = start("delayqueue.dashboard.read-only=false");
		DelayQueueOperations queue = bean(DelayQueueOperations.class);
		String pending = queue.send("bulk", "x", Duration.ofHours(1));
		String url = base + "/api/topics/bulk/jobs/actions";
		String tooMany = IntStream.rangeClosed(0, DashboardBulkActions.MAX_IDS)
			.mapToObj((i) -> "\"id-" + i + "\"")
			.collect(Collectors.joining(","));
		String tooLong = "x".repeat(JobConstraints.MAX_ID_LENGTH + 1);

		Map<String, String> refusals = new LinkedHashMap<>();
		refusals.put("{\"action\":\"delete\",\"ids\":[\"" + pending + "\"," + tooMany + "]}", "at most 1000");
		refusals.put("{\"action\":\"delete\",\"ids\":[]}", "ids");
		refusals.put("{\"action\":\"delete\",\"ids\":[\"" + pending + "\",\"" + tooLong + "\"]}", "at most 256");
		refusals.put("{\"action\":\"delete\",\"ids\":[\"" + pending + "\",\"\"]}", "blank");
		refusals.put("{\"action\":\"delete\",\"ids\":[\"" + pending + "\",\"" + pending + "\"]}", "twice");
		refusals.put("{\"action\":\"delete\",\"ids\":[\"" + pending + "\",7]}", "7");
		refusals.put("{\"action\":\"explode\",\"ids\":[\"" + pending + "\"]}", "'explode'");
		refusals.put("{\"ids\":[\"" + pending + "\"]}", "action");
		refusals.put("{\"action\":\"delete\",\"ids\":[\"" + pending + "\"],\"force\":true}", "'force'");
		refusals.put("{\"action\":\"delete\",\"ids\":[\"" + pending + "\"", "not JSON");
		refusals.put("[\"" + pending + "\"]", "object");
		for (Map.Entry<String, String> refusal : refusals.entrySet()) {
			Answer answer = postJson(url, origin(base), refusal.getKey());
			assertThat(answer.status()).as(refusal.getKey()).isEqualTo(400);
			assertThat(answer.json().path("message").asString()).as(refusal.getKey()).contains(refusal.getValue());
		}
		Answer plainText = send(HttpRequest.newBuilder(URI.create(url))
			.header("Origin", origin(base))
			.header("Content-Type", "text/plain")
			.POST(HttpRequest.BodyPublishers.ofString("{\"action\":\"delete\",\"ids\":[\"" + pending + "\"]}")));
		assertThat(plainText.status()).isEqualTo(400);
		assertThat(plainText.json().path("message").asString()).contains("text/plain");
		Answer huge = postJson(url, origin(base),
				"{\"action\":\"delete\",\"ids\":[\"" + "y".repeat(2_000_000) + "\"]}");
		assertThat(huge.status()).isEqualTo(400);
		assertThat(huge.json().path("message").asString()).contains("larger than");
		assertThat(queue.find("bulk", pending)).isPresent();

		Answer forged = postJson(url, "http://evil.example", "{\"action\":\"delete\",\"ids\":[\"" + pending + "\"]}");
		assertThat(forged.status()).isEqualTo(403);
		String readOnly = start();
		Answer refused = postJson(readOnly + "/api/topics/bulk/jobs/actions", origin(readOnly),
				"{\"action\":\"delete\",\"ids\":[\"" + pending + "\"]}");
		assertThat(refused.status()).isEqualTo(403);
		assertThat(refused.json().path("message").asString()).contains("read-only");
		assertThat(queue.find("bulk", pending)).isPresent();
	}

	@Test
	void searchesTheNewestJobsByIdPrefixAndByErrorOnlyWhereErrorsAreShown() throws Exception {
		String base = start("delayqueue.dashboard.show-payloads=always");
		DelayQueueOperations queue = bean(DelayQueueOperations.class);
		for (String id : List.of("order-1", "order-2", "invoice-1")) {
			queue.send(JobRequest.builder("dashboard.jobs", "fail").id(id).build());
		}
		await().atMost(Duration.ofSeconds(20))
			.until(() -> bean(DelayQueueAdmin.class).stats("dashboard.jobs").dead() == 3);

		JsonNode byId = get(base + "/api/topics/dashboard.jobs/jobs?state=dead&idPrefix=order-").json();
		JsonNode byError = get(base + "/api/topics/dashboard.jobs/jobs?state=dead&error=FAILS%20FOR").json();
		JsonNode none = get(base + "/api/topics/dashboard.jobs/jobs?state=dead&error=timeout").json();

		assertThat(byId.path("jobs").findValuesAsString("id")).containsExactlyInAnyOrder("order-1", "order-2");
		assertThat(byId.path("searched").asInt()).isEqualTo(3);
		assertThat(byId.path("limit").asInt()).isEqualTo(DashboardJobSearch.SEARCHED);
		assertThat(byError.path("matched").asInt()).isEqualTo(3);
		assertThat(none.path("jobs")).isEmpty();
		String hidden = start("delayqueue.dashboard.show-payloads=never");
		assertThat(get(hidden + "/api/topics/dashboard.jobs/jobs?state=dead&idPrefix=invoice").json()
			.path("jobs")
			.findValuesAsString("id")).containsExactly("invoice-1");
		Answer refused = get(hidden + "/api/topics/dashboard.jobs/jobs?state=dead&error=fails");
		assertThat(refused.status()).isEqualTo(403);
		assertThat(refused.json().path("message").asString()).contains("hidden");
		assertThat(get(base + "/api/topics/dashboard.jobs/jobs?state=dead&error=" + "e".repeat(201)).status())
			.isEqualTo(400);
	}

	@Test
	void drawsTheThroughputOfTheLastFiveMinutesOrDay() throws Exception {
		String base = start();
		assertThat(get(base + "/api/history?range=five-minutes").json().path("buckets")).hasSize(5);
		assertThat(get(base + "/api/history?range=day").json().path("buckets")).hasSize(24 * 60);
		assertThat(get(base + "/api/history?range=week").json().path("message").asString()).contains("'week'");
	}

	private String start(String... properties) {
		List<String> all = new ArrayList<>(List.of("server.port=0", "spring.data.redis.host=" + this.server.host(),
				"spring.data.redis.port=" + this.server.port(), "delayqueue.dashboard.enabled=true",
				"delayqueue.history.flush-interval=200ms", "delayqueue.topics.dashboard.jobs.retry.max-attempts=1"));
		all.addAll(List.of(properties));
		ConfigurableApplicationContext context = new SpringApplicationBuilder(DashboardApplication.class)
			.properties(all.toArray(String[]::new))
			.run();
		this.contexts.add(context);
		return "http://localhost:" + context.getEnvironment().getRequiredProperty("local.server.port") + "/delayqueue";
	}

	private <T> T bean(Class<T> type) {
		return this.contexts.get(0).getBean(type);
	}

	private static String origin(String base) {
		URI uri = URI.create(base);
		return uri.getScheme() + "://" + uri.getHost() + ":" + uri.getPort();
	}

	private JsonNode row(JsonNode topics, String topic) {
		for (JsonNode row : topics.path("topics")) {
			if (row.path("topic").asString().equals(topic)) {
				return row;
			}
		}
		throw new AssertionError("No topic '" + topic + "' in " + topics);
	}

	private Answer get(String url) throws Exception {
		return send(HttpRequest.newBuilder(URI.create(url)).GET());
	}

	private Answer post(String url, String origin) throws Exception {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).POST(HttpRequest.BodyPublishers.noBody());
		if (origin != null) {
			request.header("Origin", origin);
		}
		return send(request);
	}

	private Answer postJson(String url, String origin, String body) throws Exception {
		return send(HttpRequest.newBuilder(URI.create(url))
			.header("Origin", origin)
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(body)));
	}

	private Answer delete(String url) throws Exception {
		return send(HttpRequest.newBuilder(URI.create(url)).DELETE());
	}

	private Answer send(HttpRequest.Builder request) throws IOException, InterruptedException {
		HttpResponse<String> response = this.client.send(request.timeout(Duration.ofSeconds(30)).build(),
				HttpResponse.BodyHandlers.ofString());
		String body = response.body();
		return new Answer(response.statusCode(), body,
				body.isEmpty() ? this.json.missingNode() : this.json.readTree(body));
	}

	record Answer(int status, String body, JsonNode json) {
	}

	record Order(int number) {
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class DashboardApplication {

		@DelayedJobListener(id = "dashboardJobs", topics = "dashboard.jobs")
		void fail(String payload) {
			throw new NonRetryableJobException("fails for the dashboard");
		}

	}

}
