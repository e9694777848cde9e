package io.github.delayqueue.samples.ordertimeout;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The packaged sample, started as a user starts it but with Spring AOT on: the bean
 * definitions generated at build time ({@code process-aot}) must start the application
 * and run the demo to its summary, and a {@code SIGTERM} must stop it cleanly.
 */
class OrderTimeoutAotIT {

	@Test
	void runsTheDemoWithSpringAotAndStopsCleanly() throws Exception {
		Path jar = Path.of(System.getProperty("sample.jar", "target/delayqueue-sample-order-timeout.jar"));
		assertThat(jar).as("the packaged sample (run with mvn verify)").isRegularFile();
		Path log = Files.createTempFile("order-timeout-aot-", ".log");
		Path java = Path.of(System.getProperty("java.home"), "bin", "java");
		Process process = new ProcessBuilder(List.of(java.toString(), "-Dspring.aot.enabled=true", "-jar",
				jar.toString(), "--demo.orders=50", "--server.port=0"))
			.redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.start();
		try {
			await().atMost(Duration.ofSeconds(120))
				.pollInterval(Duration.ofMillis(250))
				.failFast("the sample exited", () -> !process.isAlive())
				.until(() -> read(log).contains("delayqueue demo summary (complete"));
			assertDashboardAnswers(read(log));
			process.destroy();
			assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("stopped within 60 s of SIGTERM").isTrue();
			String output = read(log);
			// 143: the JVM's exit status after SIGTERM once its shutdown hooks have run
			assertThat(process.exitValue()).as(output).isIn(0, 143);
			assertThat(output).contains("Starting AOT-processed OrderTimeoutApplication")
				.contains("orders placed        50")
				.contains("Stopped the embedded Redis")
				.doesNotContain(" ERROR ");
		}
		catch (Throwable failure) {
			// The application's log is the only clue to why it did not start or stop.
			System.out.println("Output of the AOT-processed sample:" + System.lineSeparator() + read(log));
			throw failure;
		}
		finally {
			process.destroyForcibly();
			Files.deleteIfExists(log);
		}
	}

	// The dashboard's routes and its static files come through AOT processing too.
	private static void assertDashboardAnswers(String output) throws Exception {
		Matcher port = Pattern.compile("Tomcat started on port (\\d+)").matcher(output);
		assertThat(port.find()).as("the port in the log").isTrue();
		HttpClient client = HttpClient.newHttpClient();
		for (String path : List.of("/delayqueue", "/delayqueue/api/topics", "/delayqueue/assets/app.js",
				"/delayqueue/assets/uplot/uPlot.esm.js")) {
			HttpResponse<Void> answer = client.send(
					HttpRequest.newBuilder(URI.create("http://localhost:" + port.group(1) + path)).build(),
					HttpResponse.BodyHandlers.discarding());
			assertThat(answer.statusCode()).as(path).isEqualTo(200);
		}
	}

	private static String read(Path log) throws IOException {
		return Files.readString(log, StandardCharsets.UTF_8);
	}

}
