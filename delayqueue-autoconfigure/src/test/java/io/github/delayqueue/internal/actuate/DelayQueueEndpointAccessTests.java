package io.github.delayqueue.internal.actuate;

import java.security.Principal;
import java.time.Duration;
import java.util.Set;

import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.JobInfo;
import io.github.delayqueue.core.JobRequest;
import io.github.delayqueue.internal.presence.ListenerPresence;
import io.github.delayqueue.internal.store.ScriptRunner;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code delayqueue} endpoint of a web application that only exposes it: read-only,
 * as Boot's own endpoints that change state are, here with payloads shown on request.
 */
@ExtendWith(RedisExtension.class)
class DelayQueueEndpointAccessTests {

	private static ConfigurableApplicationContext context;

	private static ActuatorHttp http;

	private static DelayQueueOperations delayQueue;

	@BeforeAll
	static void startApplication(RedisTestServer server) {
		context = new SpringApplicationBuilder(ExposedApplication.class)
			.properties("server.port=0", "spring.data.redis.host=" + server.host(),
					"spring.data.redis.port=" + server.port(), "spring.data.redis.client-type=lettuce",
					"delayqueue.listener.enabled=false", "management.endpoints.web.exposure.include=delayqueue",
					"management.endpoint.delayqueue.show-values=always")
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
	void refusesWritesByDefault() {
		String id = delayQueue.send("access.writes", "x", Duration.ofHours(1));

		ActuatorHttp.Response cancel = http.delete("/delayqueue/access.writes/" + id);
		ActuatorHttp.Response requeue = http.post("/delayqueue/access.writes", "{\"action\":\"requeue-dead\"}");

		// Boot maps no handler for an operation the access level leaves out; the path
		// still matches a read operation, so the method is not allowed.
		assertThat(cancel.status()).isEqualTo(405);
		assertThat(requeue.status()).isEqualTo(405);
		assertThat(delayQueue.find("access.writes", id)).isPresent();
		assertThat(http.get("/delayqueue/access.writes").status()).isEqualTo(200);
	}

	@Test
	void refusesScheduleActionsByDefault() {
		ActuatorHttp.Response pause = http.post("/delayqueue/schedules/nightly", "{\"action\":\"pause\"}");

		assertThat(pause.status()).isEqualTo(405);
		assertThat(http.get("/delayqueue/schedules").status()).isEqualTo(200);
	}

	@Test
	void showsPayloadAndHeaderValuesWhenShowValuesIsAlways() {
		String id = delayQueue.send(JobRequest.builder("access.shown", "{\"order\":42}")
			.header("Authorization", "Bearer shown-token")
			.delay(Duration.ofHours(1))
			.build());

		ActuatorHttp.Response response = http.get("/delayqueue/access.shown/" + id);

		assertThat(response.status()).isEqualTo(200);
		assertThat(response.json().at("/headers/Authorization").asString()).isEqualTo("Bearer shown-token");
		assertThat(response.json().path("payloadJson").asString()).contains("order");
	}

	@Test
	void showsValuesWhenAuthorizedOnlyToAUserInOneOfTheRoles() {
		String id = delayQueue.send(JobRequest.builder("access.roles", "{\"order\":42}")
			.header("Authorization", "Bearer role-token")
			.delay(Duration.ofHours(1))
			.build());
		DelayQueueEndpoint endpoint = new DelayQueueEndpoint(delayQueue, context.getBean(DelayQueueAdmin.class),
				new ListenerPresence(context.getBean(ScriptRunner.class).redis(), "dq"), Show.WHEN_AUTHORIZED,
				Set.of("OPS"));

		JobInfo anonymous = endpoint.job(SecurityContext.NONE, "access.roles", id);
		JobInfo otherRole = endpoint.job(user("SALES"), "access.roles", id);
		JobInfo operator = endpoint.job(user("OPS"), "access.roles", id);

		assertThat(anonymous.payloadJson()).isEqualTo("******");
		assertThat(anonymous.headers()).containsEntry("Authorization", "******");
		assertThat(otherRole.payloadJson()).isEqualTo("******");
		assertThat(operator.payloadJson()).contains("42");
		assertThat(operator.headers()).containsEntry("Authorization", "Bearer role-token");
	}

	private static SecurityContext user(String role) {
		return new SecurityContext() {

			@Override
			public Principal getPrincipal() {
				return () -> "someone";
			}

			@Override
			public boolean isUserInRole(String name) {
				return role.equals(name);
			}

		};
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class ExposedApplication {

	}

}
