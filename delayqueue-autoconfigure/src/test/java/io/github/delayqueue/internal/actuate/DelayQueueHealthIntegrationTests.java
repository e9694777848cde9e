package io.github.delayqueue.internal.actuate;

import java.time.Duration;

import io.github.delayqueue.autoconfigure.DelayQueueMetricsAutoConfiguration;
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
 * server goes away and comes back, with Boot's default 60-second client timeout.
 */
class DelayQueueHealthIntegrationTests {

	private static RedisTestServer server;

	private static ConfigurableApplicationContext context;

	private static ActuatorHttp http;

	@BeforeAll
	static void startApplication() {
		server = RedisTestServer.startDedicated();
		// No scheduler, listeners or metrics: nothing else talks to this Redis, so its
		// command counts are the probes' alone.
		context = new SpringApplicationBuilder(HealthApplication.class)
			.properties("server.port=0", "spring.data.redis.host=" + server.host(),
					"spring.data.redis.port=" + server.port(), "spring.data.redis.client-type=lettuce",
					"spring.data.redis.timeout=60s", "delayqueue.scheduler.enabled=false",
					"delayqueue.listener.enabled=false", "management.endpoints.web.exposure.include=health",
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
	void isUpWithTheNumberOfTopicsForOneRedisCallPerProbe() {
		DelayQueueOperations delayQueue = context.getBean(DelayQueueOperations.class);
		delayQueue.send("orders", "x", Duration.ofHours(1));
		delayQueue.send("mail", "x", Duration.ofHours(1));
		assertThat(http.get("/health/delayQueue").status()).isEqualTo(200);

		long before = redisCalls();
		ActuatorHttp.Response up = http.get("/health/delayQueue");
		long after = redisCalls();

		assertThat(up.status()).isEqualTo(200);
		assertThat(up.json().path("status").asString()).isEqualTo("UP");
		assertThat(up.json().at("/details/topics").asInt()).isEqualTo(2);
		assertThat(after - before).isEqualTo(1);
	}

	@Test
	void isDownWithinSecondsWhileRedisIsStoppedAndUpWhenItReturns() {
		assertThat(http.get("/health/delayQueue").json().path("status").asString()).isEqualTo("UP");

		server.stop();
		try {
			long start = System.nanoTime();
			ActuatorHttp.Response down = http.get("/health/delayQueue");
			Duration took = Duration.ofNanos(System.nanoTime() - start);
			assertThat(down.status()).isEqualTo(503);
			assertThat(down.json().path("status").asString()).isEqualTo("DOWN");
			// Either the probe waited its second in a client that had not yet seen the
			// connection close, or the client had seen it and refused at once.
			assertThat(down.json().at("/details/error").asString()).satisfiesAnyOf(
					(error) -> assertThat(error).isEqualTo("Redis did not answer within 1s"),
					(error) -> assertThat(error).contains("Redis is not reachable"));
			assertThat(took).isLessThan(Duration.ofSeconds(8));
			// A first check still stuck in the client does not make the next probe wait
			// for Redis again.
			start = System.nanoTime();
			assertThat(http.get("/health").json().at("/components/delayQueue/status").asString()).isEqualTo("DOWN");
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(8));
		}
		finally {
			// Also when an assertion failed: the other test of this class needs the
			// server.
			server.restart();
		}

		await().atMost(Duration.ofSeconds(90)).untilAsserted(() -> {
			ActuatorHttp.Response back = http.get("/health/delayQueue");
			assertThat(back.status()).isEqualTo(200);
			assertThat(back.json().path("status").asString()).isEqualTo("UP");
		});
	}

	// Every command the server ran so far, except the INFO calls that count them.
	private static long redisCalls() {
		long calls = 0;
		for (String line : server.command("INFO", "commandstats").split("\r\n")) {
			if (line.startsWith("cmdstat_") && !line.startsWith("cmdstat_info:")) {
				String stats = line.substring(line.indexOf(':') + 1);
				calls += Long.parseLong(stats.substring("calls=".length(), stats.indexOf(',')));
			}
		}
		return calls;
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration(exclude = DelayQueueMetricsAutoConfiguration.class)
	static class HealthApplication {

	}

}
