package io.github.delayqueue.internal.dashboard;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.JobState;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dashboard's rules hold for every spelling of an action's path that a real Tomcat
 * routes: path parameters on any segment, percent-encoded letters, double and trailing
 * slashes, dot segments, other cases, and other methods. Requests go over a plain socket,
 * so that each reaches the server exactly as written.
 */
@ExtendWith(RedisExtension.class)
class DashboardHostileRequestTests {

	private static final String TOPIC = "orders";

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
	void readOnlyRefusesEverySpellingOfEveryAction() throws Exception {
		int port = start();
		DelayQueueOperations queue = bean(DelayQueueOperations.class);
		DelayQueueAdmin admin = bean(DelayQueueAdmin.class);
		String delayed = queue.send(TOPIC, "x", Duration.ofHours(1));

		List<String> accepted = new ArrayList<>();
		for (String action : actions(delayed)) {
			for (String method : List.of("POST", "PUT", "PATCH", "DELETE", "post")) {
				for (String spelling : spellings(action)) {
					int status = request(port, method, spelling, "Origin: http://localhost:" + port);
					if (status / 100 == 2) {
						accepted.add(method + " " + spelling + " -> " + status);
					}
				}
			}
		}

		assertThat(accepted).as("changes accepted by a read-only dashboard").isEmpty();
		assertThat(admin.isPaused(TOPIC)).isFalse();
		assertThat(queue.find(TOPIC, delayed).orElseThrow().state()).isEqualTo(JobState.DELAYED);
	}

	@Test
	void readOnlyRefusesAPathParameterSpellingThatReachesTheAction() throws Exception {
		int port = start();
		DelayQueueOperations queue = bean(DelayQueueOperations.class);
		DelayQueueAdmin admin = bean(DelayQueueAdmin.class);

		int status = request(port, "POST", "/delayqueue;x=1/api/topics/" + TOPIC + "/pause", null);

		assertThat(status).isEqualTo(403);
		assertThat(admin.isPaused(TOPIC)).isFalse();
	}

	@Test
	void writableRefusesEverySpellingFromAnotherOrigin() throws Exception {
		int port = start("delayqueue.dashboard.read-only=false");
		DelayQueueOperations queue = bean(DelayQueueOperations.class);
		DelayQueueAdmin admin = bean(DelayQueueAdmin.class);
		String delayed = queue.send(TOPIC, "x", Duration.ofHours(1));

		List<String> accepted = new ArrayList<>();
		for (String foreign : List.of("Origin: http://evil.example", "Origin: null",
				"Origin: http://localhost:" + port + ".evil.example", "Sec-Fetch-Site: cross-site",
				"Sec-Fetch-Site: same-site")) {
			for (String action : actions(delayed)) {
				for (String spelling : spellings(action)) {
					int status = request(port, action.startsWith("DELETE ") ? "DELETE" : "POST", spelling, foreign);
					if (status / 100 == 2) {
						accepted.add(foreign + ": " + spelling + " -> " + status);
					}
				}
			}
		}

		assertThat(accepted).as("changes accepted from another origin").isEmpty();
		assertThat(admin.isPaused(TOPIC)).isFalse();
		assertThat(queue.find(TOPIC, delayed).orElseThrow().state()).isEqualTo(JobState.DELAYED);
	}

	@Test
	void writableRefusesEveryActionSentToAReboundNameByDefault() throws Exception {
		int port = start("delayqueue.dashboard.read-only=false");
		DelayQueueOperations queue = bean(DelayQueueOperations.class);
		DelayQueueAdmin admin = bean(DelayQueueAdmin.class);
		String delayed = queue.send(TOPIC, "x", Duration.ofHours(1));

		// A page on attacker.example whose name now resolves to this server: to the
		// browser it is same-origin, so Host, Origin and Sec-Fetch-Site all agree.
		String rebound = "Host: attacker.example:" + port + "\r\nOrigin: http://attacker.example:" + port;
		List<String> accepted = new ArrayList<>();
		for (String headers : List.of(rebound, rebound + "\r\nSec-Fetch-Site: same-origin",
				"Host: attacker.example:" + port + "\r\nSec-Fetch-Site: same-origin")) {
			for (String action : actions(delayed)) {
				String method = action.startsWith("DELETE ") ? "DELETE" : "POST";
				String path = action.startsWith("DELETE ") ? action.substring("DELETE ".length()) : action;
				String answer = exchange(port, method, path, headers);
				if (RawHttp.status(answer) != 403 || !answer.contains("delayqueue.dashboard.allowed-origins")) {
					accepted.add(headers + ": " + action + " -> " + answer.split("\r\n", 2)[0]);
				}
			}
		}

		assertThat(accepted).as("changes not refused naming the property").isEmpty();
		assertThat(admin.isPaused(TOPIC)).isFalse();
		assertThat(queue.find(TOPIC, delayed).orElseThrow().state()).isEqualTo(JobState.DELAYED);
		assertThat(request(port, "POST", "/delayqueue/api/topics/" + TOPIC + "/pause",
				"Host: 127.0.0.1:" + port + "\r\nOrigin: http://127.0.0.1:" + port))
			.as("same-origin, sent to an address no DNS answer can move")
			.isEqualTo(200);
		assertThat(admin.isPaused(TOPIC)).isTrue();
	}

	@Test
	void writableRefusesAChangeWithNeitherOriginNorFetchSite() throws Exception {
		int port = start("delayqueue.dashboard.read-only=false");
		DelayQueueAdmin admin = bean(DelayQueueAdmin.class);

		String answer = exchange(port, "POST", "/delayqueue/api/topics/" + TOPIC + "/pause", null);
		int sameSite = request(port, "POST", "/delayqueue/api/topics/" + TOPIC + "/pause",
				"Sec-Fetch-Site: same-origin");

		assertThat(answer).startsWith("HTTP/1.1 403").contains("neither Origin nor Sec-Fetch-Site");
		assertThat(sameSite).isEqualTo(200);
		assertThat(admin.isPaused(TOPIC)).isTrue();
	}

	@Test
	void optionsListsOnlyTheMethodsOfThePath() throws Exception {
		int port = start("delayqueue.dashboard.read-only=false");

		String postOnly = exchange(port, "OPTIONS", "/delayqueue/api/topics/" + TOPIC + "/pause", null);
		String job = exchange(port, "OPTIONS", "/delayqueue/api/topics/" + TOPIC + "/jobs/some-id", null);
		String page = exchange(port, "OPTIONS", "/delayqueue", null);
		String nothing = exchange(port, "OPTIONS", "/delayqueue/api/nothing-here", null);

		assertThat(postOnly).startsWith("HTTP/1.1 200").containsIgnoringCase("\r\nAllow: POST, OPTIONS\r\n");
		assertThat(job).startsWith("HTTP/1.1 200").containsIgnoringCase("\r\nAllow: GET, HEAD, DELETE, OPTIONS\r\n");
		assertThat(page).startsWith("HTTP/1.1 200").containsIgnoringCase("\r\nAllow: GET, HEAD, OPTIONS\r\n");
		assertThat(nothing).startsWith("HTTP/1.1 404");
	}

	@Test
	void writableActsOnASpellingItRoutesWhenTheRequestIsSameOrigin() throws Exception {
		int port = start("delayqueue.dashboard.read-only=false");
		DelayQueueOperations queue = bean(DelayQueueOperations.class);
		DelayQueueAdmin admin = bean(DelayQueueAdmin.class);

		int status = request(port, "POST", "/delayqueue;x=1/api/topics/" + TOPIC + "/pause",
				"Origin: http://localhost:" + port);

		assertThat(status).isEqualTo(200);
		assertThat(admin.isPaused(TOPIC)).isTrue();
	}

	@Test
	void everySpellingOfAReadCarriesTheProtectiveHeaders() throws Exception {
		int port = start();
		for (String spelling : List.of("/delayqueue/api/topics", "/delayqueue;x=1/api/topics",
				"/%64elayqueue/api/topics", "/delayqueue/./api/topics", "/delayqueue/api/nothing")) {
			assertThat(exchange(port, "GET", spelling, null)).as(spelling)
				.containsIgnoringCase("Content-Security-Policy: default-src 'self'")
				.containsIgnoringCase("X-Frame-Options: DENY");
		}
		assertThat(request(port, "GET", "/delayqueue/api/topics", null)).isEqualTo(200);
		assertThat(exchange(port, "HEAD", "/delayqueue/api/topics", null))
			.containsIgnoringCase("X-Frame-Options: DENY");
	}

	// Every action of the dashboard, as "METHOD path" for DELETE and as a path for POST.
	private static List<String> actions(String jobId) {
		String topic = "/delayqueue/api/topics/" + TOPIC;
		return List.of(topic + "/pause", topic + "/resume", topic + "/requeue-dead", topic + "/purge-dead",
				topic + "/jobs/" + jobId + "/run-now", topic + "/jobs/" + jobId + "/requeue",
				"DELETE " + topic + "/jobs/" + jobId, topic + "/jobs/actions");
	}

	static List<String> spellings(String action) {
		String path = action.startsWith("DELETE ") ? action.substring("DELETE ".length()) : action;
		String[] segments = path.substring(1).split("/");
		Set<String> spellings = new LinkedHashSet<>();
		spellings.add(path);
		for (int i = 0; i < segments.length; i++) {
			spellings.add(join(segments, i, segments[i] + ";x=1"));
			spellings.add(join(segments, i, segments[i] + ";"));
			spellings.add(join(segments, i, encodeFirst(segments[i], false)));
			spellings.add(join(segments, i, encodeFirst(segments[i], true)));
			spellings.add(join(segments, i, "/" + segments[i]));
			spellings.add(join(segments, i, "." + "/" + segments[i]));
			spellings.add(join(segments, i, "x/../" + segments[i]));
			spellings.add(join(segments, i, "x/%2e%2e/" + segments[i]));
			spellings.add(join(segments, i, segments[i].toUpperCase(Locale.ROOT)));
		}
		spellings.add(path + "/");
		spellings.add(path + "//");
		spellings.add(path + "/.");
		spellings.add(path + "?x=1");
		spellings.add(path + "#x");
		spellings.add(path.replace("/", "/%2F").replaceFirst("/%2F", "/"));
		return new ArrayList<>(spellings);
	}

	private static String join(String[] segments, int index, String replacement) {
		StringBuilder path = new StringBuilder();
		for (int i = 0; i < segments.length; i++) {
			path.append('/').append((i == index) ? replacement : segments[i]);
		}
		return path.toString();
	}

	private static String encodeFirst(String segment, boolean upperCase) {
		String hex = Integer.toHexString(segment.charAt(0));
		return "%" + (upperCase ? hex.toUpperCase(Locale.ROOT) : hex) + segment.substring(1);
	}

	private int start(String... properties) {
		List<String> all = new ArrayList<>(List.of("server.port=0", "spring.data.redis.host=" + this.server.host(),
				"spring.data.redis.port=" + this.server.port(), "delayqueue.dashboard.enabled=true"));
		all.addAll(List.of(properties));
		ConfigurableApplicationContext context = new SpringApplicationBuilder(HostileRequestApplication.class)
			.properties(all.toArray(String[]::new))
			.run();
		this.contexts.add(context);
		return Integer.parseInt(context.getEnvironment().getRequiredProperty("local.server.port"));
	}

	private <T> T bean(Class<T> type) {
		return this.contexts.get(0).getBean(type);
	}

	private static int request(int port, String method, String path, String header) throws IOException {
		return RawHttp.status(exchange(port, method, path, header));
	}

	private static String exchange(int port, String method, String path, String header) throws IOException {
		return RawHttp.exchange(port, method, path, header);
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class HostileRequestApplication {

	}

}
