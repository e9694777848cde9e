package io.github.delayqueue.internal.dashboard;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.autoconfigure.InvalidDelayQueuePropertiesException;
import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.JobInfo;
import io.github.delayqueue.core.JobRequest;
import io.github.delayqueue.internal.presence.ListenerPresence;
import io.github.delayqueue.test.DelayQueueContextRunner;
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
 * What the dashboard keeps to itself by default (payloads, header values, error messages,
 * host names) and which hosts and origins it serves, in a real web application on a real
 * Redis.
 */
@ExtendWith(RedisExtension.class)
class DashboardSecretsTests {

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
	void hidesPayloadsHeaderValuesErrorMessagesAndHostNamesByDefault() throws Exception {
		String base = start();
		DelayQueueOperations queue = bean(DelayQueueOperations.class);
		DelayQueueAdmin admin = bean(DelayQueueAdmin.class);
		String pending = queue.send(JobRequest.builder("secrets", "{\"card\":\"4111\"}")
			.header("Authorization", "Bearer secret-token")
			.delay(Duration.ofHours(1))
			.build());
		String dead = failedJob(queue, base);
		String host = ListenerPresence.hostName();

		String job = get(base + "/api/topics/secrets/jobs/" + pending).body();
		String lookup = get(base + "/api/jobs/" + pending).body();
		JsonNode deadJob = get(base + "/api/topics/secrets.failing/jobs/" + dead).json();
		JsonNode deadPage = get(base + "/api/topics/secrets.failing/jobs?state=dead").json();
		System.out.println(
				"DEBUG " + queue.find("secrets.failing", dead).get().lastError().substring(0, 80) + " ||| " + deadJob);
		String listeners = get(base + "/api/topics").body();

		assertThat(job).doesNotContain("secret-token").doesNotContain("4111").contains(JobInfo.HIDDEN);
		assertThat(lookup).doesNotContain("secret-token").doesNotContain("4111");
		assertThat(deadJob.path("lastError").asString())
			.isEqualTo("Failed 1 of 1 attempts; last: java.lang.IllegalStateException: " + JobInfo.HIDDEN);
		assertThat(deadPage.at("/jobs/0/lastError").asString())
			.isEqualTo("Failed 1 of 1 attempts; last: java.lang.IllegalStateException: " + JobInfo.HIDDEN);
		assertThat(deadPage.at("/jobs/0/diedAt").asString()).isEqualTo(deadJob.path("diedAt").asString()).isNotEmpty();
		assertThat(listeners).doesNotContain("password=hunter2").doesNotContain("\"" + host + "\"");
		assertThat(get(base + "/api/settings").json().path("showPayloads").asBoolean()).isFalse();
	}

	@Test
	void showsThemWhenSetToAlways() throws Exception {
		String base = start("delayqueue.dashboard.show-payloads=always");
		DelayQueueOperations queue = bean(DelayQueueOperations.class);
		DelayQueueAdmin admin = bean(DelayQueueAdmin.class);
		String pending = queue.send(JobRequest.builder("secrets", "{\"card\":\"4111\"}")
			.header("Authorization", "Bearer secret-token")
			.delay(Duration.ofHours(1))
			.build());
		String dead = failedJob(queue, base);

		assertThat(get(base + "/api/topics/secrets/jobs/" + pending).body()).contains("secret-token").contains("4111");
		assertThat(get(base + "/api/topics/secrets.failing/jobs/" + dead).json().path("lastError").asString())
			.contains("password=hunter2");
		assertThat(get(base + "/api/topics/secrets.failing").json().at("/listeners/0/host").asString())
			.isEqualTo(ListenerPresence.hostName());
		assertThat(get(base + "/api/settings").json().path("showPayloads").asBoolean()).isTrue();
	}

	@Test
	void allowedOriginsRefuseRequestsSentToAnotherHostAndChangesFromAnotherOrigin() throws Exception {
		int port = freePort();
		start("delayqueue.dashboard.read-only=false", "server.port=" + port,
				"delayqueue.dashboard.allowed-origins=http://ops.example:8443, HTTP://LOCALHOST:" + port);
		DelayQueueOperations queue = bean(DelayQueueOperations.class);
		DelayQueueAdmin admin = bean(DelayQueueAdmin.class);

		// A name an attacker points at this server (DNS rebinding): Host and Origin
		// agree,
		// but neither is listed.
		String rebound = raw(port, "GET", "/delayqueue/api/topics", "Host: evil.example:" + port);
		String reboundChange = raw(port, "POST", "/delayqueue/api/topics/guarded/pause",
				"Host: evil.example:" + port + "\r\nOrigin: http://evil.example:" + port);
		String listedRead = raw(port, "GET", "/delayqueue/api/topics", "Host: localhost:" + port);
		String fromOtherListedOrigin = raw(port, "POST", "/delayqueue/api/topics/guarded/pause",
				"Host: localhost:" + port + "\r\nOrigin: http://ops.example:8443");

		assertThat(rebound).startsWith("HTTP/1.1 403").contains("allowed-origins");
		assertThat(reboundChange).startsWith("HTTP/1.1 403");
		assertThat(listedRead).startsWith("HTTP/1.1 200");
		assertThat(fromOtherListedOrigin).startsWith("HTTP/1.1 200");
		assertThat(admin.isPaused("guarded")).isTrue();
	}

	@Test
	void failsStartUpOnAnOriginThatIsNoneAndAShowSettingItDoesNotKnow() {
		DelayQueueContextRunner.withoutRedis()
			.withPropertyValues("delayqueue.dashboard.allowed-origins=https://ops.example/dashboard,ops.example",
					"delayqueue.dashboard.show-payloads=sometimes")
			.run((context) -> {
				assertThat(context).hasFailed();
				Throwable cause = context.getStartupFailure();
				while (cause != null && !(cause instanceof InvalidDelayQueuePropertiesException)) {
					cause = cause.getCause();
				}
				assertThat(cause).isInstanceOf(InvalidDelayQueuePropertiesException.class);
				assertThat(cause.getMessage()).contains("delayqueue.dashboard.allowed-origins[0]")
					.contains("delayqueue.dashboard.allowed-origins[1]")
					.contains("delayqueue.dashboard.show-payloads");
			});
	}

	// A job whose handler failed, once the listener that failed it shows on the
	// dashboard.
	private String failedJob(DelayQueueOperations queue, String base) {
		String dead = queue.send("secrets.failing", "x");
		await().atMost(Duration.ofSeconds(30))
			.until(() -> queue.find("secrets.failing", dead).map((job) -> job.lastError() != null).orElse(false));
		await().atMost(Duration.ofSeconds(30))
			.until(() -> get(base + "/api/topics/secrets.failing").json().path("listeners").size() > 0);
		return dead;
	}

	private String start(String... properties) {
		List<String> all = new ArrayList<>(List.of("server.port=0", "spring.data.redis.host=" + this.server.host(),
				"spring.data.redis.port=" + this.server.port(), "delayqueue.dashboard.enabled=true",
				"delayqueue.topics.secrets.failing.retry.max-attempts=1"));
		all.addAll(List.of(properties));
		ConfigurableApplicationContext context = new SpringApplicationBuilder(SecretsApplication.class)
			.properties(all.toArray(String[]::new))
			.run();
		this.contexts.add(context);
		return "http://localhost:" + context.getEnvironment().getRequiredProperty("local.server.port") + "/delayqueue";
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

	private <T> T bean(Class<T> type) {
		return this.contexts.get(0).getBean(type);
	}

	private Answer get(String url) throws Exception {
		HttpResponse<String> response = this.client.send(
				HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).GET().build(),
				HttpResponse.BodyHandlers.ofString());
		return new Answer(response.statusCode(), response.body(), this.json.readTree(response.body()));
	}

	private static String raw(int port, String method, String path, String headers) throws IOException {
		return RawHttp.exchange(port, method, path, headers);
	}

	record Answer(int status, String body, JsonNode json) {
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class SecretsApplication {

		@DelayedJobListener(id = "failingSecrets", topics = "secrets.failing")
		void fail(String payload) {
			throw new IllegalStateException("login refused for password=hunter2");
		}

	}

}
