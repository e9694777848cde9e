package io.github.delayqueue.internal.actuate;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.test.DelayQueueFixture;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The series a Prometheus scrape of a real web application holds per topic: the full set
 * for a topic the instance handles, the sent counter for one it only sends to, the queue
 * gauges alone for one that only Redis knows, none for a topic name that only a request
 * path mentioned; small bucket sets unless the application asks for histograms.
 */
@ExtendWith(RedisExtension.class)
class MeterCardinalityTests {

	private static final Pattern TOPIC = Pattern.compile("topic=\"([^\"]+)\"");

	private final HttpClient client = HttpClient.newHttpClient();

	private ConfigurableApplicationContext context;

	@AfterEach
	void stop() {
		if (this.context != null) {
			this.context.close();
		}
	}

	@Test
	void registersSeriesOnlyForTopicsThisInstanceSendsToHandlesOrFindsInRedis(RedisTestServer server) {
		int port = start(server);
		DelayQueueOperations queue = this.context.getBean(DelayQueueOperations.class);
		queue.send("sent.only", "x", Duration.ofHours(1));
		queue.send("handled", "x");
		await().atMost(Duration.ofSeconds(30)).until(() -> this.context.getBean(Handler.class).payloads.size() == 1);
		// Reads of a topic nobody ever sent to, through the endpoint and the dashboard.
		get(port, "/actuator/delayqueue/never.sent");
		get(port, "/actuator/delayqueue/never.sent?state=dead");
		get(port, "/actuator/delayqueue/never.sent/job-1");
		get(port, "/delayqueue/api/topics/never.sent/jobs?state=ready");
		get(port, "/delayqueue/api/topics/never.sent/jobs/job-1");

		Map<String, Integer> series = await().atMost(Duration.ofSeconds(30))
			.until(() -> seriesPerTopic(port),
					(counts) -> counts.containsKey("elsewhere") && counts.containsKey("handled"));

		// Six counters, four queue sizes and the pause, three timers of a dozen buckets.
		assertThat(series.get("handled")).as("series of a handled topic in %s", series).isBetween(50, 64);
		assertThat(series.get("sent.only")).as("series of a topic only sent to in %s", series).isEqualTo(6);
		assertThat(series.get("elsewhere")).as("series of a topic only Redis knows in %s", series).isEqualTo(5);
		assertThat(series).doesNotContainKey("never.sent");
	}

	@Test
	void publishesFullHistogramsWhenTheApplicationAsksForThem(RedisTestServer server) {
		int port = start(server, "management.metrics.distribution.percentiles-histogram.delayqueue.job=true");
		this.context.getBean(DelayQueueOperations.class).send("handled", "x");
		await().atMost(Duration.ofSeconds(30)).until(() -> this.context.getBean(Handler.class).payloads.size() == 1);

		String lateness = Arrays.stream(get(port, "/actuator/prometheus").split("\n"))
			.filter((line) -> line.startsWith("delayqueue_job_lateness_seconds_bucket{")
					&& line.contains("\"handled\""))
			.reduce("", (all, line) -> all + line + "\n");
		assertThat(lateness.lines().count()).as(lateness).isGreaterThan(40);
		// The histogram still reaches an hour, past Micrometer's usual 30 seconds.
		assertThat(lateness).contains("le=\"3600.0\"");
	}

	private int start(RedisTestServer server, String... properties) {
		server.flushAll();
		// Another instance's topic: this one only finds it in Redis.
		try (DelayQueueFixture other = new DelayQueueFixture(server)) {
			other.template().send("elsewhere", "x", Duration.ofHours(1));
		}
		this.context = new SpringApplicationBuilder(PrometheusApplication.class).properties("server.port=0",
				"spring.data.redis.host=" + server.host(), "spring.data.redis.port=" + server.port(),
				"management.endpoints.web.exposure.include=prometheus,delayqueue", "delayqueue.dashboard.enabled=true")
			.properties(properties)
			.run();
		return this.context.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
	}

	private Map<String, Integer> seriesPerTopic(int port) {
		Map<String, Integer> counts = new TreeMap<>();
		for (String line : get(port, "/actuator/prometheus").split("\n")) {
			Matcher topic = TOPIC.matcher(line);
			if (!line.startsWith("#") && line.startsWith("delayqueue_") && topic.find()) {
				counts.merge(topic.group(1), 1, Integer::sum);
			}
		}
		return counts;
	}

	private String get(int port, String path) {
		try {
			HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
				.timeout(Duration.ofSeconds(30))
				.build();
			return this.client.send(request, HttpResponse.BodyHandlers.ofString()).body();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	static class Handler {

		final List<String> payloads = new CopyOnWriteArrayList<>();

		@DelayedJobListener(id = "handledListener", topics = "handled")
		void handle(String payload) {
			this.payloads.add(payload);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class PrometheusApplication {

		@Bean
		Handler handler() {
			return new Handler();
		}

	}

}
