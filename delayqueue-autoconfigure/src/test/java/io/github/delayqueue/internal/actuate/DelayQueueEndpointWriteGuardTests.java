package io.github.delayqueue.internal.actuate;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.DelayQueueSchedules;
import io.github.delayqueue.internal.dashboard.RawHttp;
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
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * The endpoint's writes, with {@code access=unrestricted}, follow the dashboard's origin
 * rule: a name an attacker points at the server (DNS rebinding) changes nothing, a write
 * with neither {@code Origin} nor {@code Sec-Fetch-Site} needs a login, a same-origin
 * write and a logged-in script's write go through.
 */
@ExtendWith(RedisExtension.class)
class DelayQueueEndpointWriteGuardTests {

	private final List<ConfigurableApplicationContext> contexts = new ArrayList<>();

	private RedisTestServer server;

	@BeforeEach
	void flush(RedisTestServer server) {
		this.server = server;
		server.flushAll();
	}

	@AfterEach
	void stop() {
		this.contexts.forEach(ConfigurableApplicationContext::close);
	}

	@Test
	void aReboundNameChangesNothingByDefault() throws Exception {
		int port = start(WritableApplication.class);
		DelayQueueOperations queue = bean(DelayQueueOperations.class);
		DelayQueueSchedules schedules = bean(DelayQueueSchedules.class);
		String id = queue.send("guarded", "x", Duration.ofHours(1));
		String rebound = "Host: attacker.example:" + port + "\r\nOrigin: http://attacker.example:" + port
				+ "\r\nSec-Fetch-Site: same-origin\r\nContent-Type: application/json";

		List<String> answers = List.of(RawHttp.exchange(port, "DELETE", "/actuator/delayqueue/guarded/" + id, rebound),
				RawHttp.exchange(port, "POST", "/actuator/delayqueue/guarded", rebound, "{\"action\":\"purge-dead\"}"),
				RawHttp.exchange(port, "POST", "/actuator/delayqueue/guarded/" + id, rebound,
						"{\"action\":\"requeue-dead\"}"),
				RawHttp.exchange(port, "POST", "/actuator/delayqueue/schedules/nightly", rebound,
						"{\"action\":\"pause\"}"));

		assertThat(answers).allSatisfy((answer) -> assertThat(answer).startsWith("HTTP/1.1 403")
			.contains("management.endpoint.delayqueue.allowed-origins")
			.contains("DNS rebinding"));
		assertThat(queue.find("guarded", id)).isPresent();
		assertThat(schedules.find("nightly", 1).orElseThrow().paused()).isFalse();
	}

	@Test
	void aWriteWithNeitherOriginNorFetchSiteNeedsALogin() throws Exception {
		int port = start(WritableApplication.class);
		DelayQueueOperations queue = bean(DelayQueueOperations.class);
		String id = queue.send("guarded", "x", Duration.ofHours(1));

		String bare = RawHttp.exchange(port, "DELETE", "/actuator/delayqueue/guarded/" + id, null);
		assertThat(bare).startsWith("HTTP/1.1 403").contains("neither Origin nor Sec-Fetch-Site");
		assertThat(queue.find("guarded", id)).isPresent();

		String sameOrigin = RawHttp.exchange(port, "DELETE", "/actuator/delayqueue/guarded/" + id,
				"Origin: http://localhost:" + port);
		assertThat(sameOrigin).startsWith("HTTP/1.1 200").contains("\"cancelled\":true");
		assertThat(queue.find("guarded", id)).isEmpty();
	}

	@Test
	void allowedOriginsLetAnUnauthenticatedBrowserWriteFromThemOnly() throws Exception {
		int port = freePort();
		start(WritableApplication.class, "server.port=" + port,
				"management.endpoint.delayqueue.allowed-origins=http://ops.example:" + port);
		DelayQueueOperations queue = bean(DelayQueueOperations.class);
		String id = queue.send("guarded", "x", Duration.ofHours(1));

		String toLocalhost = RawHttp.exchange(port, "DELETE", "/actuator/delayqueue/guarded/" + id,
				"Origin: http://localhost:" + port);
		assertThat(toLocalhost).startsWith("HTTP/1.1 403").contains("which management.endpoint.delayqueue");
		String listed = RawHttp.exchange(port, "DELETE", "/actuator/delayqueue/guarded/" + id,
				"Host: ops.example:" + port + "\r\nOrigin: http://ops.example:" + port);
		assertThat(listed).startsWith("HTTP/1.1 200");
		assertThat(queue.find("guarded", id)).isEmpty();
	}

	@Test
	void failsStartUpOnAnAllowedOriginThatIsNoneNamingTheProperty() {
		assertThatException().isThrownBy(
				() -> start(WritableApplication.class, "management.endpoint.delayqueue.allowed-origins=ops.example"))
			.havingRootCause()
			.withMessage("management.endpoint.delayqueue.allowed-origins holds 'ops.example', which is not an http or "
					+ "https origin");
	}

	@Test
	void aLoggedInScriptWritesWithoutOriginToAnyName() throws Exception {
		int port = start(SecuredApplication.class, "--spring.autoconfigure.exclude=");
		DelayQueueOperations queue = bean(DelayQueueOperations.class);
		DelayQueueAdmin admin = bean(DelayQueueAdmin.class);
		String id = queue.send("guarded", "x", Duration.ofHours(1));
		String login = "Authorization: Basic "
				+ Base64.getEncoder().encodeToString("operator:secret".getBytes(StandardCharsets.UTF_8));

		String anonymous = RawHttp.exchange(port, "DELETE", "/actuator/delayqueue/guarded/" + id,
				"Host: ops.internal:" + port);
		String script = RawHttp.exchange(port, "DELETE", "/actuator/delayqueue/guarded/" + id,
				"Host: ops.internal:" + port + "\r\n" + login);

		assertThat(anonymous).startsWith("HTTP/1.1 401");
		assertThat(script).startsWith("HTTP/1.1 200").contains("\"cancelled\":true");
		assertThat(queue.find("guarded", id)).isEmpty();
		assertThat(admin.topics()).contains("guarded");
	}

	private int start(Class<?> application, String... more) {
		List<String> properties = new ArrayList<>(List.of("server.port=0",
				"spring.data.redis.host=" + this.server.host(), "spring.data.redis.port=" + this.server.port(),
				"delayqueue.listener.enabled=false", "management.endpoints.web.exposure.include=delayqueue",
				"management.endpoint.delayqueue.access=unrestricted", "delayqueue.schedules.nightly.topic=reports",
				"delayqueue.schedules.nightly.cron=0 0 2 * * *"));
		List<String> args = new ArrayList<>();
		for (String property : more) {
			(property.startsWith("--") ? args : properties).add(property);
		}
		ConfigurableApplicationContext context = new SpringApplicationBuilder(application)
			.properties(properties.toArray(String[]::new))
			.run(args.toArray(String[]::new));
		this.contexts.add(context);
		return context.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
	}

	private <T> T bean(Class<T> type) {
		return this.contexts.get(0).getBean(type);
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class WritableApplication {

	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class SecuredApplication {

		// As docs/observability.md shows for operations scripts: HTTP Basic on the
		// Actuator's paths,
		// without CSRF tokens, which a script does not carry.
		@Bean
		SecurityFilterChain actuator(HttpSecurity http) {
			return http.securityMatcher("/actuator/**")
				.authorizeHttpRequests((requests) -> requests.anyRequest().hasRole("OPS"))
				.httpBasic(Customizer.withDefaults())
				.csrf((csrf) -> csrf.disable())
				.build();
		}

		@Bean
		InMemoryUserDetailsManager users() {
			return new InMemoryUserDetailsManager(
					User.withUsername("operator").password("{noop}secret").roles("OPS").build());
		}

	}

}
