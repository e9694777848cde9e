package io.github.delayqueue.internal.dashboard;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With Spring Security, the application's own rules decide who sees the dashboard and who
 * may act from it, as docs/dashboard.md shows: the dashboard path restricted to a role,
 * and the CSRF token kept in a cookie that the page sends back.
 */
@ExtendWith(RedisExtension.class)
class DashboardSecurityTests {

	private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private ConfigurableApplicationContext context;

	private String base;

	@BeforeEach
	void start(RedisTestServer server) {
		server.flushAll();
		this.context = new SpringApplicationBuilder(SecuredApplication.class)
			.properties("server.port=0", "spring.data.redis.host=" + server.host(),
					"spring.data.redis.port=" + server.port(), "delayqueue.dashboard.enabled=true",
					"delayqueue.dashboard.read-only=false")
			// Higher precedence than the test classpath's application.properties, which
			// leaves security out of every other test.
			.run("--spring.autoconfigure.exclude=");
		this.base = "http://localhost:" + this.context.getEnvironment().getRequiredProperty("local.server.port")
				+ "/delayqueue";
	}

	@AfterEach
	void stop() {
		this.context.close();
	}

	@Test
	void onlyTheRoleSeesTheDashboard() throws Exception {
		assertThat(get("", null).statusCode()).isEqualTo(401);
		assertThat(get("/api/topics", null).statusCode()).isEqualTo(401);
		assertThat(get("/assets/app.js", null).statusCode()).isEqualTo(401);
		assertThat(get("/api/topics", "developer").statusCode()).isEqualTo(403);
		assertThat(get("/api/topics", "operator").statusCode()).isEqualTo(200);
		assertThat(get("", "operator").body()).contains("delayqueue/assets/app.js");
	}

	@Test
	void actionsNeedTheCsrfTokenThePageSendsFromItsCookie() throws Exception {
		DelayQueueOperations queue = this.context.getBean(DelayQueueOperations.class);
		DelayQueueAdmin admin = this.context.getBean(DelayQueueAdmin.class);
		HttpResponse<String> page = get("/api/topics", "operator");
		Optional<String> token = page.headers()
			.allValues("Set-Cookie")
			.stream()
			.filter((cookie) -> cookie.startsWith("XSRF-TOKEN="))
			.map((cookie) -> cookie.substring("XSRF-TOKEN=".length(), cookie.indexOf(';')))
			.findFirst();
		assertThat(token).as("the XSRF-TOKEN cookie").isPresent();

		HttpResponse<String> withoutToken = post("/api/topics/secured.topic/pause", "operator", null);
		assertThat(withoutToken.statusCode()).isEqualTo(403);
		assertThat(admin.isPaused("secured.topic")).isFalse();

		HttpResponse<String> withToken = post("/api/topics/secured.topic/pause", "operator", token.get());
		assertThat(withToken.statusCode()).isEqualTo(200);
		assertThat(admin.isPaused("secured.topic")).isTrue();
	}

	@Test
	void actionsOnSeveralJobsFollowTheSameRoleAndCsrfRules() throws Exception {
		DelayQueueOperations queue = this.context.getBean(DelayQueueOperations.class);
		String pending = queue.send("secured.topic", "x", Duration.ofHours(1));
		String token = get("/api/topics", "operator").headers()
			.allValues("Set-Cookie")
			.stream()
			.filter((cookie) -> cookie.startsWith("XSRF-TOKEN="))
			.map((cookie) -> cookie.substring("XSRF-TOKEN=".length(), cookie.indexOf(';')))
			.findFirst()
			.orElseThrow();
		String body = "{\"action\":\"delete\",\"ids\":[\"" + pending + "\"]}";
		String path = "/api/topics/secured.topic/jobs/actions";

		assertThat(send(json(path, body).header("X-XSRF-TOKEN", token).header("Cookie", "XSRF-TOKEN=" + token),
				"developer")
			.statusCode()).isEqualTo(403);
		assertThat(send(json(path, body), "operator").statusCode()).isEqualTo(403);
		assertThat(queue.find("secured.topic", pending)).isPresent();
		assertThat(
				send(json(path, body).header("X-XSRF-TOKEN", token).header("Cookie", "XSRF-TOKEN=" + token), "operator")
					.statusCode())
			.isEqualTo(200);
		assertThat(queue.find("secured.topic", pending)).isEmpty();
	}

	private HttpRequest.Builder json(String path, String body) {
		return HttpRequest.newBuilder(URI.create(this.base + path))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(body));
	}

	private HttpResponse<String> get(String path, String user) throws Exception {
		return send(HttpRequest.newBuilder(URI.create(this.base + path)).GET(), user);
	}

	private HttpResponse<String> post(String path, String user, String token) throws Exception {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(this.base + path))
			.POST(HttpRequest.BodyPublishers.noBody());
		if (token != null) {
			request.header("X-XSRF-TOKEN", token).header("Cookie", "XSRF-TOKEN=" + token);
		}
		return send(request, user);
	}

	private HttpResponse<String> send(HttpRequest.Builder request, String user) throws Exception {
		if (user != null) {
			String credentials = user + ":secret";
			request.header("Authorization",
					"Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)));
		}
		return this.client.send(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class SecuredApplication {

		// The lines of docs/dashboard.md, with the path of this test.
		@Bean
		SecurityFilterChain security(HttpSecurity http) {
			return http
				.authorizeHttpRequests((requests) -> requests.requestMatchers("/delayqueue", "/delayqueue/**")
					.hasRole("OPS")
					.anyRequest()
					.permitAll())
				.httpBasic(Customizer.withDefaults())
				.csrf((csrf) -> csrf.spa())
				.build();
		}

		@Bean
		InMemoryUserDetailsManager users() {
			return new InMemoryUserDetailsManager(
					List.of(User.withUsername("operator").password("{noop}secret").roles("OPS").build(),
							User.withUsername("developer").password("{noop}secret").roles("USER").build()));
		}

	}

}
