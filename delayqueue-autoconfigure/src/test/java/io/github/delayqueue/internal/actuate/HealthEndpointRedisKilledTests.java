package io.github.delayqueue.internal.actuate;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The whole {@code /actuator/health} of a real web application in the default setup
 * (Spring Boot's own {@code redis} component included, {@code spring.data.redis.timeout}
 * unset) once its Redis process is killed: DOWN within two seconds.
 */
class HealthEndpointRedisKilledTests {

	private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	@Test
	void theWholeHealthEndpointAnswersDownWithinTwoSecondsOnceRedisIsKilled() throws Exception {
		try (RedisTestServer server = RedisTestServer.startDedicated();
				ConfigurableApplicationContext context = new SpringApplicationBuilder(HealthApplication.class)
					.properties("server.port=0", "spring.data.redis.host=" + server.host(),
							"spring.data.redis.port=" + server.port(),
							"management.endpoint.health.show-components=always")
					.run()) {
			int port = context.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
			HttpResponse<String> up = health(port);
			assertThat(up.statusCode()).as(up.body()).isEqualTo(200);
			assertThat(up.body()).contains("\"redis\"", "\"delayQueue\"");

			// Subscribed before the kill: a kill while the scheduler's wake-up
			// subscription is
			// being made is another matter, which this test does not look at.
			RedisMessageListenerContainer wakeUps = context.getBean("delayQueueWakeUpContainer",
					RedisMessageListenerContainer.class);
			await().atMost(Duration.ofSeconds(30)).until(wakeUps::isListening);

			server.kill();

			long start = System.nanoTime();
			HttpResponse<String> down = health(port);
			Duration took = Duration.ofNanos(System.nanoTime() - start);
			assertThat(down.statusCode()).as(down.body()).isEqualTo(503);
			assertThat(down.body()).contains("\"redis\":{\"status\":\"DOWN\"", "\"delayQueue\":{\"status\":\"DOWN\"");
			assertThat(took).as("time to answer").isLessThan(Duration.ofSeconds(2));
		}
	}

	private HttpResponse<String> health(int port) throws IOException, InterruptedException {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/actuator/health"))
			.timeout(Duration.ofSeconds(90))
			.build();
		return this.client.send(request, HttpResponse.BodyHandlers.ofString());
	}

	static class Listener {

		@DelayedJobListener(id = "healthListener", topics = "health")
		void handle(String payload) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class HealthApplication {

		@Bean
		Listener listener() {
			return new Listener();
		}

	}

}
