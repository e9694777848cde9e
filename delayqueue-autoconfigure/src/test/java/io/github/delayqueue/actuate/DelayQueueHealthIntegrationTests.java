package io.github.delayqueue.actuate;

import java.time.Duration;

import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The {@code delayQueue} health component of a real web application while its own Redis
 * server goes away and comes back.
 */
class DelayQueueHealthIntegrationTests {

	private static RedisTestServer server;

	private static ConfigurableApplicationContext context;

	private static ActuatorHttp http;

	@BeforeAll
	static void startApplication() {
		server = RedisTestServer.startDedicated();
		// Short Redis timeouts so that a health check against a stopped server fails
		// fast.
		context = new SpringApplicationBuilder(HealthApplication.class)
			.properties("server.port=0", "spring.data.redis.host=" + server.host(),
					"spring.data.redis.port=" + server.port(), "spring.data.redis.client-type=lettuce",
					"spring.data.redis.timeout=1s", "spring.data.redis.connect-timeout=1s",
					"management.endpoints.web.exposure.include=health",
					"management.endpoint.health.show-details=always")
			.run();
		http = new ActuatorHttp(context.getEnvironment().getRequiredProperty("local.server.port", Integer.class));
	}

	@AfterAll
	static void stopApplication() {
		if (context != null) {
			context.close();
		}
		if (server != null) {
			server.close();
		}
	}

	@Test
	void isDownWhileRedisIsStoppedAndUpWhenItReturns() {
		context.getBean(DelayQueueOperations.class).send("orders", "x", Duration.ofHours(1));
		ActuatorHttp.Response up = http.get("/health/delayQueue");
		assertThat(up.status()).isEqualTo(200);
		assertThat(up.json().path("status").asString()).isEqualTo("UP");
		assertThat(up.json().at("/details/orders/delayed").asLong()).isEqualTo(1);

		server.stop();

		await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
			ActuatorHttp.Response down = http.get("/health/delayQueue");
			assertThat(down.status()).isEqualTo(503);
			assertThat(down.json().path("status").asString()).isEqualTo("DOWN");
		});
		assertThat(http.get("/health").json().at("/components/delayQueue/status").asString()).isEqualTo("DOWN");

		server.restart();

		await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
			ActuatorHttp.Response back = http.get("/health/delayQueue");
			assertThat(back.status()).isEqualTo(200);
			assertThat(back.json().path("status").asString()).isEqualTo("UP");
		});
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class HealthApplication {

	}

}
