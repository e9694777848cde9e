package io.github.delayqueue.observation;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.internal.history.ThroughputHistory;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.RedisCommand;
import io.lettuce.core.tracing.LettuceObservationContext;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.data.SpanData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An application that traces, with Lettuce observing every Redis command as Spring Boot
 * sets it up: from start-up on, and over several blocking waits, sweeps and chores while
 * idle, the starter's commands, those on its keys and the keyless ones ({@code CLIENT},
 * {@code TIME}, {@code SCRIPT}, {@code SUBSCRIBE}), make no span and no Lettuce command
 * meter, while the application's own commands, keyless ones included, are observed as
 * before.
 */
@ExtendWith(RedisExtension.class)
class IdleTelemetryTests {

	private static final String APPLICATION_KEY = "application:key";

	@Test
	void anIdleApplicationObservesNoneOfTheStartersCommands(RedisTestServer server) {
		server.flushAll();
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(IdleApplication.class)
			.web(WebApplicationType.NONE)
			.properties("spring.data.redis.host=" + server.host(), "spring.data.redis.port=" + server.port(),
					"delayqueue.listener.poll-timeout=500ms", "delayqueue.scheduler.max-sleep=300ms",
					"delayqueue.scheduler.idle-max-sleep=300ms", "delayqueue.scheduler.orphan-check-interval=1s",
					"delayqueue.history.flush-interval=500ms")
			.run()) {
			ObservedCommands observed = context.getBean(ObservedCommands.class);
			EndedSpans spans = context.getBean(EndedSpans.class);
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			context.getBean(DelayQueueOperations.class).send("idle.topic", "job");
			await().atMost(Duration.ofSeconds(30)).until(() -> context.getBean(Handled.class).payloads.size() == 1);
			RedisMessageListenerContainer wakeUps = context.getBean("delayQueueWakeUpContainer",
					RedisMessageListenerContainer.class);
			await().atMost(Duration.ofSeconds(30)).until(wakeUps::isListening);
			// The first flush of the throughput history pipelines on a connection of its
			// own, whose handshake would fall into the idle window.
			ThroughputHistory history = context.getBean(ThroughputHistory.class);
			await().atMost(Duration.ofSeconds(30))
				.until(() -> history.lastHour(null).stream().mapToLong(ThroughputHistory.Bucket::completed).sum() == 1);
			// From start-up to here: scripts loaded, channels subscribed, waits begun.
			assertThat(observed.commands).allMatch(IdleTelemetryTests::isConnectionHandshake);
			observed.commands.clear();
			long idleSince = spans.clear();
			Map<String, Long> countsBefore = commandCounts(meters);

			// Idle: blocking waits end by their timeout, sweeps and chores run.
			long waitsBefore = blockingWaits(server);
			await().atMost(Duration.ofSeconds(30)).until(() -> blockingWaits(server) >= waitsBefore + 6);
			StringRedisTemplate redis = context.getBean(StringRedisTemplate.class);
			redis.opsForValue().set(APPLICATION_KEY, "value");
			redis.execute((RedisCallback<Object>) (connection) -> connection.serverCommands().time());
			await().atMost(Duration.ofSeconds(30))
				.until(() -> spans.namesSince(idleSince).containsAll(List.of("set", "time")));

			assertThat(observed.commands).containsExactlyInAnyOrder("SET " + APPLICATION_KEY, "TIME");
			assertThat(spans.namesSince(idleSince)).containsExactlyInAnyOrder("set", "time");
			Map<String, Long> counted = commandCounts(meters);
			counted.replaceAll((command, count) -> count - countsBefore.getOrDefault(command, 0L));
			counted.values().removeIf((count) -> count == 0);
			assertThat(counted).containsOnlyKeys("set", "time");
		}
	}

	// Lettuce's own commands on a new connection, before any of the starter's.
	private static boolean isConnectionHandshake(String command) {
		return command.startsWith("HELLO") || command.equals("CLIENT SETINFO")
				|| command.equals("CLIENT MAINT_NOTIFICATIONS");
	}

	// Commands timed by Spring Boot's meter handler, by Lettuce's command tag.
	private static Map<String, Long> commandCounts(MeterRegistry meters) {
		Map<String, Long> counts = new TreeMap<>();
		for (Meter meter : meters.getMeters()) {
			String command = meter.getId().getTag("db.operation");
			if (meter.getId().getName().startsWith("lettuce") && meter instanceof Timer timer && command != null) {
				counts.merge(command.toLowerCase(Locale.ROOT), timer.count(), Long::sum);
			}
		}
		return counts;
	}

	private static long blockingWaits(RedisTestServer server) {
		Matcher calls = Pattern.compile("cmdstat_blmove:calls=(\\d+)").matcher(server.command("INFO", "commandstats"));
		return calls.find() ? Long.parseLong(calls.group(1)) : 0;
	}

	/**
	 * Every command Lettuce observed: its type and its first key, or for a keyless one
	 * its first argument.
	 */
	static class ObservedCommands implements ObservationHandler<LettuceObservationContext> {

		final List<String> commands = new CopyOnWriteArrayList<>();

		@Override
		public boolean supportsContext(Observation.Context context) {
			return context instanceof LettuceObservationContext;
		}

		@Override
		public void onStart(LettuceObservationContext context) {
			RedisCommand<?, ?, ?> command = context.getRequiredCommand();
			CommandArgs<?, ?> args = command.getArgs();
			ByteBuffer key = (args != null) ? args.getFirstEncodedKey() : null;
			String first = (key != null) ? StandardCharsets.UTF_8.decode(key.duplicate()).toString()
					: (args != null) ? args.toCommandString().split(" ")[0] : "";
			this.commands.add((command.getType() + " " + first).trim());
		}

	}

	/**
	 * The spans the tracer ended.
	 */
	static class EndedSpans implements SpanProcessor {

		private final List<SpanData> spans = new CopyOnWriteArrayList<>();

		// Forget the spans ended so far; returns the time from which on spans count.
		long clear() {
			this.spans.clear();
			return TimeUnit.MILLISECONDS.toNanos(System.currentTimeMillis());
		}

		// A span started before the clear may end after it.
		List<String> namesSince(long epochNanos) {
			return this.spans.stream()
				.filter((span) -> span.getStartEpochNanos() >= epochNanos)
				.map(SpanData::getName)
				.toList();
		}

		@Override
		public void onStart(Context parentContext, ReadWriteSpan span) {
		}

		@Override
		public boolean isStartRequired() {
			return false;
		}

		@Override
		public void onEnd(ReadableSpan span) {
			this.spans.add(span.toSpanData());
		}

		@Override
		public boolean isEndRequired() {
			return true;
		}

	}

	static class Handled {

		final List<String> payloads = new CopyOnWriteArrayList<>();

		@DelayedJobListener(id = "idleListener", topics = "idle.topic")
		void handle(String payload) {
			this.payloads.add(payload);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	@Import(TestTracing.class)
	static class IdleApplication {

		@Bean
		ObservedCommands observedCommands() {
			return new ObservedCommands();
		}

		@Bean
		Handled handled() {
			return new Handled();
		}

		@Bean
		EndedSpans endedSpans() {
			return new EndedSpans();
		}

	}

}
