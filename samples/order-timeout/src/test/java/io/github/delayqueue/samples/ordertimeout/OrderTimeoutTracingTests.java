package io.github.delayqueue.samples.ordertimeout;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sample with a tracer on the classpath and its {@code tracing} profile, as
 * {@code -Ptracing} runs it: the log line of the request that places an order and the
 * line of the handler that closes it, a second later, carry the same trace id.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "demo.enabled=false", "orders.close-after=1s" })
@ActiveProfiles("tracing")
@ExtendWith(OutputCaptureExtension.class)
class OrderTimeoutTracingTests {

	// Spring Boot's correlation pattern: [<trace id>-<span id>]
	private static final Pattern TRACE_ID = Pattern.compile("\\[([0-9a-f]{32})-[0-9a-f]{16}\\]");

	@LocalServerPort
	private int port;

	@Test
	void theHandlerLogsInTheTraceOfTheRequestThatPlacedTheOrder(CapturedOutput output) {
		Order order = RestClient.create("http://localhost:" + this.port)
			.post()
			.uri("/orders")
			.retrieve()
			.body(Order.class);
		assertThat(order).isNotNull();
		String placed = "Placed order " + order.id() + ";";
		String closed = "Closed unpaid order " + order.id();

		await().atMost(Duration.ofSeconds(30)).until(() -> output.getOut().contains(closed));

		String requestTrace = traceIdOfLineWith(output.getOut(), placed);
		String handlerTrace = traceIdOfLineWith(output.getOut(), closed);
		assertThat(handlerTrace).isEqualTo(requestTrace);
	}

	private static String traceIdOfLineWith(String log, String text) {
		String line = log.lines()
			.filter((candidate) -> candidate.contains(text))
			.findFirst()
			.orElseThrow(() -> new AssertionError("No log line with '" + text + "' in:\n" + log));
		Matcher matcher = TRACE_ID.matcher(line);
		assertThat(matcher.find()).as("a trace id in: %s", line).isTrue();
		return matcher.group(1);
	}

}
