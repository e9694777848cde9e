package io.github.delayqueue.internal.dashboard;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.JobInfo;
import io.github.delayqueue.core.JobRequest;
import io.github.delayqueue.core.JobState;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a page of jobs costs Redis when a reader asks for it over HTTP, from the
 * dashboard's API and from the Actuator endpoint: pages of large jobs send only what
 * their rows show, and no page of a large ready list holds Redis for long, however deep
 * it goes and whatever cancelled jobs left in the list.
 */
@ExtendWith(RedisExtension.class)
class JobPageCostTests {

	private static final int SLOW_MICROS = 20_000;

	private static final String SLOW_LOG_THRESHOLD = "slowlog-log-slower-than";

	private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final JsonMapper json = JsonMapper.builder().build();

	private static RedisTestServer server;

	private static ConfigurableApplicationContext context;

	private static String base;

	@BeforeAll
	static void start(RedisTestServer redis) {
		server = redis;
		server.flushAll();
		context = new SpringApplicationBuilder(PagedApplication.class)
			.properties("server.port=0", "spring.data.redis.host=" + server.host(),
					"spring.data.redis.port=" + server.port(), "delayqueue.dashboard.enabled=true",
					"management.endpoints.web.exposure.include=delayqueue",
					"management.endpoint.delayqueue.access=unrestricted")
			.run();
		base = "http://localhost:" + context.getEnvironment().getRequiredProperty("local.server.port");
	}

	@AfterAll
	static void stop() {
		context.close();
	}

	@Test
	void hiddenPagesOfLargeJobsMakeRedisSendOnlyTheirRows() throws Exception {
		DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
		String payload = "x".repeat(64 * 1024);
		List<JobRequest> requests = new ArrayList<>();
		for (int i = 0; i < 400; i++) {
			requests.add(JobRequest.builder("large.jobs", payload)
				.header("note", "n" + i)
				.delay(Duration.ofHours(1))
				.build());
		}
		queue.sendAll(requests);

		long before = sentByRedis();
		JsonNode dashboardPage = getJson(
				base + "/delayqueue/api/topics/large.jobs/jobs?state=delayed&offset=200&count=200");
		JsonNode endpointPage = getJson(base + "/actuator/delayqueue/large.jobs?state=delayed&offset=0&count=200");
		long sent = sentByRedis() - before;

		assertThat(dashboardPage.path("jobs")).hasSize(200);
		assertThat(endpointPage.path("jobs")).hasSize(200);
		assertThat(endpointPage.at("/jobs/0/dueAt").asString()).isNotEmpty();
		assertThat(sent).as("bytes Redis sent for two pages of 200 jobs of 64 KiB").isLessThan(2 * 1024 * 1024);
	}

	@Test
	void aReaderPagingAnywhereIntoALargeReadyListWithGapsNeverHoldsRedisLong() throws Exception {
		DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
		DelayQueueAdmin admin = context.getBean(DelayQueueAdmin.class);
		String topic = "deep.ready";
		admin.pause(topic);
		List<String> ids = new ArrayList<>();
		List<JobRequest> batch = new ArrayList<>();
		for (int i = 0; i < 300_000; i++) {
			batch.add(JobRequest.builder(topic, i).build());
			if (batch.size() == 1000) {
				ids.addAll(queue.sendAll(batch));
				batch.clear();
			}
		}
		// Gaps: a cancelled job near the consuming end, and one sent again after its
		// cancel,
		// which is listed at its first entry, the ghost's place, and not again at its
		// last.
		assertThat(queue.cancel(topic, ids.get(10))).isTrue();
		assertThat(queue.cancel(topic, ids.get(20))).isTrue();
		queue.send(JobRequest.builder(topic, "again").id(ids.get(20)).build());
		List<String> order = new ArrayList<>(ids);
		order.remove(10);

		String threshold = configValue(SLOW_LOG_THRESHOLD);
		server.command("CONFIG", "SET", SLOW_LOG_THRESHOLD, String.valueOf(SLOW_MICROS));
		try {
			// The slow log counts wall time: a Redis that the machine preempts
			// mid-command (another test JVM runs beside this one) logs a short command
			// as slow now and then. A read that walks the list in one command is slow in
			// every round; up to six rounds tell the two apart.
			List<String> slowRounds = new ArrayList<>();
			for (int round = 0; round < 6; round++) {
				server.command("SLOWLOG", "RESET");
				JsonNode endpoint = getJson(
						base + "/actuator/delayqueue/" + topic + "?state=ready&offset=299000&count=1000");
				JsonNode dashboard = getJson(
						base + "/delayqueue/api/topics/" + topic + "/jobs?state=ready&offset=299499&count=500");
				JsonNode beyond = getJson(
						base + "/actuator/delayqueue/" + topic + "?state=ready&offset=2000000000&count=1000");
				JsonNode search = getJson(base + "/delayqueue/api/topics/" + topic + "/jobs?state=ready&idPrefix="
						+ ids.get(20).substring(0, 3) + "&count=50");
				assertThat(ids(endpoint)).containsExactlyElementsOf(order.subList(299_000, 299_999));
				assertThat(ids(dashboard)).containsExactlyElementsOf(order.subList(299_499, 299_999));
				assertThat(beyond.path("jobs")).isEmpty();
				assertThat(search.path("searched").asInt()).isEqualTo(1000);
				if (server.command("SLOWLOG", "LEN").startsWith(":0")) {
					break;
				}
				slowRounds.add(server.command("SLOWLOG", "GET", "10").replaceAll("\\s+", " "));
			}
			assertThat(slowRounds).as("rounds with commands that ran over 20 ms").hasSizeLessThan(6);
		}
		finally {
			server.command("CONFIG", "SET", SLOW_LOG_THRESHOLD, threshold);
		}
		assertThat(admin.jobSummaries(topic, JobState.READY, 0, 1000)).extracting(JobInfo::id)
			.containsExactlyElementsOf(order.subList(0, 1000));
		JobInfo again = admin.jobSummaries(topic, JobState.READY, 19, 1).get(0);
		assertThat(again.id()).isEqualTo(ids.get(20));
		assertThat(again.payloadJson()).isEmpty();
		assertThat(admin.jobs(topic, JobState.READY, 19, 1).get(0).payloadJson()).isEqualTo("\"again\"");
	}

	private List<String> ids(JsonNode page) {
		List<String> ids = new ArrayList<>();
		page.path("jobs").forEach((job) -> ids.add(job.path("id").asString()));
		return ids;
	}

	private String configValue(String name) {
		Matcher value = Pattern.compile("\\$\\d+\\r\\n" + name + "\\r\\n\\$\\d+\\r\\n([^\\r]*)")
			.matcher(server.command("CONFIG", "GET", name));
		assertThat(value.find()).isTrue();
		return value.group(1);
	}

	private long sentByRedis() {
		Matcher sent = Pattern.compile("total_net_output_bytes:(\\d+)").matcher(server.command("INFO", "stats"));
		assertThat(sent.find()).isTrue();
		return Long.parseLong(sent.group(1));
	}

	private JsonNode getJson(String url) throws Exception {
		HttpResponse<String> response = this.client.send(
				HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).GET().build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).as(url + ": " + response.body()).isEqualTo(200);
		return this.json.readTree(response.body());
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class PagedApplication {

	}

}
