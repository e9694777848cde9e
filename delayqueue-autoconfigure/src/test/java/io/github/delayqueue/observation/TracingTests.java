package io.github.delayqueue.observation;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.DelayedJob;
import io.github.delayqueue.core.JobRequest;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.otel.bridge.ArrayListSpanProcessor;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.trace.data.SpanData;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * One trace from send to handle, with a real tracer (Micrometer Tracing's OpenTelemetry
 * bridge, the W3C {@code traceparent} propagator) wired by Spring Boot's own tracing
 * auto-configuration, as an application that traces has it.
 */
@ExtendWith(RedisExtension.class)
class TracingTests {

	private static final Duration PATIENCE = Duration.ofSeconds(30);

	private static final String STALE_TRACEPARENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

	private final List<ConfigurableApplicationContext> contexts = new ArrayList<>();

	private RedisTestServer server;

	@BeforeEach
	void setUp(RedisTestServer server) {
		server.flushAll();
		this.server = server;
	}

	@AfterEach
	void tearDown() {
		this.contexts.forEach(ConfigurableApplicationContext::close);
	}

	@Test
	void aJobSentInsideASpanIsHandledInTheSameTrace() {
		ConfigurableApplicationContext context = start();
		Tracer tracer = context.getBean(Tracer.class);
		DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
		Span checkout = tracer.nextSpan().name("checkout").start();
		try (Tracer.SpanInScope scope = tracer.withSpan(checkout)) {
			// Headers of a job sent again from a handler still hold the trace it came in.
			queue.send(JobRequest.builder("traced.orders", "order-1").header("traceparent", STALE_TRACEPARENT).build());
		}
		finally {
			checkout.end();
		}

		Handled handled = awaitHandled(context);
		String traceId = checkout.context().traceId();
		assertThat(handled.traceId()).isEqualTo(traceId);
		assertThat(handled.headers()).containsOnlyKeys("traceparent");
		assertThat(handled.headers().get("traceparent")).contains(traceId).isNotEqualTo(STALE_TRACEPARENT);
		SpanData send = awaitSpan(context, "traced.orders send");
		SpanData process = awaitSpan(context, "traced.orders process");
		assertThat(send.getKind()).isEqualTo(SpanKind.PRODUCER);
		assertThat(send.getTraceId()).isEqualTo(traceId);
		assertThat(send.getParentSpanId()).isEqualTo(checkout.context().spanId());
		assertThat(process.getKind()).isEqualTo(SpanKind.CONSUMER);
		assertThat(process.getTraceId()).isEqualTo(traceId);
		assertThat(process.getParentSpanId()).isEqualTo(send.getSpanId());
		assertThat(process.getAttributes().asMap().toString()).contains("messaging.destination.name=traced.orders",
				"delayqueue.outcome=success");
	}

	@Test
	void aJobDueLongAfterItsSendStartsATraceOfItsOwnLinkedToTheSend() {
		ConfigurableApplicationContext context = start("delayqueue.observation.link-long-delays=500ms");
		Tracer tracer = context.getBean(Tracer.class);
		DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
		Span checkout = tracer.nextSpan().name("checkout").start();
		try (Tracer.SpanInScope scope = tracer.withSpan(checkout)) {
			queue.send("traced.orders", "order-2", Duration.ofSeconds(1));
			queue.send("traced.orders", "order-3");
		}
		finally {
			checkout.end();
		}

		await().atMost(PATIENCE).until(() -> context.getBean(Handlers.class).handled.size() == 2);
		String traceId = checkout.context().traceId();
		List<SpanData> sends = awaitSpans(context, "traced.orders send", 2);
		List<SpanData> runs = awaitSpans(context, "traced.orders process", 2);
		SpanData delayedSend = sends.get(0);
		SpanData linkedRun = runs.stream()
			.filter((run) -> !run.getTraceId().equals(traceId))
			.findFirst()
			.orElseThrow(() -> new AssertionError("No run in a trace of its own: " + runs));
		assertThat(linkedRun.getParentSpanId()).isEqualTo(io.opentelemetry.api.trace.SpanId.getInvalid());
		assertThat(linkedRun.getLinks()).singleElement().satisfies((link) -> {
			assertThat(link.getSpanContext().getTraceId()).isEqualTo(traceId);
			assertThat(link.getSpanContext().getSpanId()).isEqualTo(delayedSend.getSpanId());
		});
		// The job due at once stays in its send's trace.
		assertThat(runs).filteredOn((run) -> run.getTraceId().equals(traceId))
			.singleElement()
			.satisfies((run) -> assertThat(run.getParentSpanId()).isEqualTo(sends.get(1).getSpanId()));
	}

	private Handled awaitHandled(ConfigurableApplicationContext context) {
		Handlers handlers = context.getBean(Handlers.class);
		await().atMost(PATIENCE).until(() -> !handlers.handled.isEmpty());
		return handlers.handled.get(0);
	}

	private static SpanData awaitSpan(ConfigurableApplicationContext context, String name) {
		return awaitSpans(context, name, 1).get(0);
	}

	private static List<SpanData> awaitSpans(ConfigurableApplicationContext context, String name, int count) {
		ArrayListSpanProcessor spans = context.getBean(ArrayListSpanProcessor.class);
		await().atMost(PATIENCE)
			.until(() -> spans.spans().stream().filter((span) -> span.getName().equals(name)).count() == count);
		return spans.spans().stream().filter((span) -> span.getName().equals(name)).toList();
	}

	private ConfigurableApplicationContext start(String... properties) {
		List<String> all = new ArrayList<>(List.of("spring.data.redis.host=" + this.server.host(),
				"spring.data.redis.port=" + this.server.port(), "delayqueue.history.enabled=false"));
		all.addAll(List.of(properties));
		ConfigurableApplicationContext context = new SpringApplicationBuilder(TracedApplication.class)
			.web(WebApplicationType.NONE)
			.properties(all.toArray(String[]::new))
			.run();
		this.contexts.add(context);
		return context;
	}

	record Handled(String traceId, Map<String, String> headers) {

	}

	static class Handlers {

		final List<Handled> handled = new CopyOnWriteArrayList<>();

		private final Tracer tracer;

		Handlers(Tracer tracer) {
			this.tracer = tracer;
		}

		@DelayedJobListener(id = "tracedListener", topics = "traced.orders")
		void order(DelayedJob<String> job) {
			Span current = this.tracer.currentSpan();
			this.handled.add(new Handled((current != null) ? current.context().traceId() : "none", job.headers()));
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	@Import(TestTracing.class)
	static class TracedApplication {

		@Bean
		ArrayListSpanProcessor spans() {
			return new ArrayListSpanProcessor();
		}

		@Bean
		Handlers handlers(Tracer tracer) {
			return new Handlers(tracer);
		}

	}

}
