package io.github.delayqueue.benchmark;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.JobRequest;
import io.github.delayqueue.core.NonRetryableJobException;
import io.github.delayqueue.core.TopicStats;
import jakarta.servlet.Filter;

import org.springframework.boot.Banner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;

/**
 * Scenario 9: how long the dashboard's server takes to answer with a large topic: one
 * topic holding the given number of delayed jobs, a tenth as many ready ones (the topic
 * is paused; at most 100,000), a few running and a 500th as many dead (at most 2,000).
 * Each answer the page asks for is timed on the server, from the first filter to the last
 * byte written, after a warm-up.
 */
final class DashboardTimings {

	static final String TOPIC = "bench.dashboard";

	private static final int RUNNING = 4;

	private static final int PAGE = 50;

	private static final int WARM_UP = 30;

	private static final int SAMPLES = 100;

	private final BenchmarkRedis redis;

	DashboardTimings(BenchmarkRedis redis) {
		this.redis = redis;
	}

	/**
	 * Fill the topic, then time every answer.
	 * @param delayed delayed jobs in the topic
	 * @return the rows of the report
	 */
	List<Report.Row> measure(int delayed) {
		Sizes sizes = new Sizes(delayed, Math.min(100_000, Math.max(PAGE, delayed / 10)),
				Math.min(2_000, Math.max(PAGE, delayed / 500)));
		this.redis.flushAll();
		SpringApplication application = new SpringApplication(DashboardContext.class);
		application.setWebApplicationType(WebApplicationType.SERVLET);
		application.setBannerMode(Banner.Mode.OFF);
		application.setLogStartupInfo(false);
		application.setDefaultProperties(Map.of("spring.data.redis.host", this.redis.host(), "spring.data.redis.port",
				String.valueOf(this.redis.port()), "logging.level.root", "WARN", "server.port", "0",
				// The 2,000 failures are deliberate; their warnings would bury the
				// report.
				"logging.level.io.github.delayqueue", "ERROR", "delayqueue.dashboard.enabled", "true",
				"delayqueue.topics." + TOPIC + ".retry.max-attempts", "1"));
		try (ConfigurableApplicationContext context = application.run()) {
			String base = "http://127.0.0.1:" + context.getEnvironment().getRequiredProperty("local.server.port")
					+ "/delayqueue/api/";
			DelayQueueOperations operations = context.getBean(DelayQueueOperations.class);
			Holds holds = context.getBean(Holds.class);
			try {
				String someId = fill(operations, context.getBean(DelayQueueAdmin.class), sizes);
				return time(base, context.getBean(ServerTime.class), endpoints(sizes, someId));
			}
			finally {
				holds.release.countDown();
			}
		}
	}

	private String fill(DelayQueueOperations operations, DelayQueueAdmin admin, Sizes sizes) {
		int delayed = sizes.delayed();
		System.out.println("  filling " + TOPIC + ": " + sizes.dead() + " dead, " + RUNNING + " running, "
				+ sizes.ready() + " ready, " + delayed + " delayed");
		sendNow(operations, "fail", sizes.dead());
		sendNow(operations, "hold", RUNNING);
		waitFor(() -> admin.stats(TOPIC).dead() == sizes.dead() && admin.stats(TOPIC).running() == RUNNING);
		admin.pause(TOPIC);
		sendNow(operations, "ready", sizes.ready());
		Instant start = Instant.now().plus(Duration.ofHours(1));
		List<JobRequest> batch = new ArrayList<>(10_000);
		for (int i = 0; i < delayed; i++) {
			// Spread over 30 days, as timeouts of orders or subscriptions would be.
			Instant due = start.plusMillis((long) i * Duration.ofDays(30).toMillis() / delayed);
			batch.add(JobRequest.builder(TOPIC, "{\"order\":" + i + "}").id("order-" + i).dueAt(due).build());
			if (batch.size() == 10_000) {
				operations.sendAll(batch);
				batch.clear();
			}
		}
		if (!batch.isEmpty()) {
			operations.sendAll(batch);
		}
		TopicStats stats = admin.stats(TOPIC);
		if (stats.delayed() != delayed || stats.ready() != sizes.ready() || stats.dead() != sizes.dead()) {
			throw new IllegalStateException("The dashboard topic holds " + stats + ", not what was sent");
		}
		System.out.println("  " + stats);
		return "order-" + (delayed / 2);
	}

	private static void sendNow(DelayQueueOperations operations, String kind, int count) {
		List<JobRequest> batch = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			batch.add(JobRequest.builder(TOPIC, kind).id(kind + "-" + i).build());
			if (batch.size() == 10_000) {
				operations.sendAll(batch);
				batch.clear();
			}
		}
		if (!batch.isEmpty()) {
			operations.sendAll(batch);
		}
	}

	private static Map<String, String> endpoints(Sizes sizes, String someId) {
		int delayed = sizes.delayed();
		Map<String, String> endpoints = new LinkedHashMap<>();
		endpoints.put("overview: every topic with counts, due-lag, listeners", "topics");
		endpoints.put("one topic", "topics/" + TOPIC);
		endpoints.put("delayed tab, first page", page("delayed", 0));
		endpoints.put("delayed tab, middle page", page("delayed", delayed / 2));
		endpoints.put("delayed tab, last page", page("delayed", delayed - PAGE));
		endpoints.put("ready tab, first page", page("ready", 0));
		endpoints.put("ready tab, last page", page("ready", sizes.ready() - PAGE));
		endpoints.put("running tab", page("running", 0));
		endpoints.put("dead tab, last page", page("dead", sizes.dead() - PAGE));
		endpoints.put("a job's detail", "topics/" + TOPIC + "/jobs/" + someId);
		endpoints.put("lookup by id in every topic", "jobs/" + someId);
		endpoints.put("throughput, last hour", "history?range=hour");
		endpoints.put("throughput, last 30 days", "history?range=month");
		return endpoints;
	}

	private static String page(String state, int offset) {
		return "topics/" + TOPIC + "/jobs?state=" + state + "&offset=" + offset + "&count=" + PAGE;
	}

	private static List<Report.Row> time(String base, ServerTime serverTime, Map<String, String> endpoints) {
		HttpClient client = HttpClient.newHttpClient();
		List<Report.Row> rows = new ArrayList<>();
		char letter = 'a';
		for (Map.Entry<String, String> endpoint : endpoints.entrySet()) {
			URI uri = URI.create(base + endpoint.getValue());
			double[] millis = new double[SAMPLES];
			for (int i = -WARM_UP; i < SAMPLES; i++) {
				HttpResponse<String> response = get(client, uri);
				if (response.statusCode() != 200) {
					throw new IllegalStateException(
							uri + " answered " + response.statusCode() + ": " + response.body());
				}
				if (i >= 0) {
					millis[i] = serverTime.lastNanos.get() / 1e6;
				}
			}
			Arrays.sort(millis);
			double median = millis[SAMPLES / 2];
			double p99 = millis[(int) Math.ceil(SAMPLES * 0.99) - 1];
			rows.add(new Report.Row(
					String.format(Locale.ROOT, "9%c. dashboard, %s (p99 %.1f ms)", letter++, endpoint.getKey(), p99),
					"ms, median", median, null, null));
		}
		return rows;
	}

	private static HttpResponse<String> get(HttpClient client, URI uri) {
		try {
			return client.send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString());
		}
		catch (IOException ex) {
			throw new IllegalStateException("Calling " + uri + " failed", ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while calling " + uri, ex);
		}
	}

	private static void waitFor(BooleanSupplier condition) {
		long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
		while (!condition.getAsBoolean()) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("The dashboard topic did not reach its dead and running jobs in 2 min");
			}
			LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
		}
	}

	private record Sizes(int delayed, int ready, int dead) {

	}

	/** The server time of the last request, measured by the outermost filter. */
	static final class ServerTime {

		final AtomicLong lastNanos = new AtomicLong();

	}

	/** Holds the running jobs until the measurement ends. */
	static final class Holds {

		final CountDownLatch release = new CountDownLatch(1);

		@DelayedJobListener(id = "benchDashboard", topics = TOPIC, concurrency = "8")
		void handle(String kind) throws InterruptedException {
			switch (kind) {
				case "fail" -> throw new NonRetryableJobException("fails so that the dead tab has jobs");
				case "hold" -> this.release.await();
				default -> {
				}
			}
		}

	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class DashboardContext {

		@Bean
		Holds benchmarkHolds() {
			return new Holds();
		}

		@Bean
		ServerTime benchmarkServerTime() {
			return new ServerTime();
		}

		@Bean
		FilterRegistrationBean<Filter> benchmarkServerTiming(ServerTime serverTime) {
			FilterRegistrationBean<Filter> registration = new FilterRegistrationBean<>((request, response, chain) -> {
				long start = System.nanoTime();
				chain.doFilter(request, response);
				response.flushBuffer();
				serverTime.lastNanos.set(System.nanoTime() - start);
			});
			registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
			registration.addUrlPatterns("/*");
			return registration;
		}

	}

}
