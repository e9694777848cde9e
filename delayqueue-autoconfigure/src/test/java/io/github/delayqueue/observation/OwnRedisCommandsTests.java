package io.github.delayqueue.observation;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import io.lettuce.core.tracing.LettuceObservationContext;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * In an application whose observation registry Spring Boot sets up (so Lettuce observes
 * every command), the starter's own commands are left out and the application's are
 * observed as before.
 */
@ExtendWith(RedisExtension.class)
class OwnRedisCommandsTests {

	@Test
	void lettuceObservesTheApplicationsCommandsButNotTheStarters(RedisTestServer server) {
		assertOnlyTheApplicationsCommandsAreObserved(server);
	}

	@Test
	void theStartersCommandsStayUnobservedWhenItsOwnObservationIsOff(RedisTestServer server) {
		assertOnlyTheApplicationsCommandsAreObserved(server, "delayqueue.observation.enabled=false");
	}

	private void assertOnlyTheApplicationsCommandsAreObserved(RedisTestServer server, String... properties) {
		server.flushAll();
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(RecordingApplication.class)
			.web(WebApplicationType.NONE)
			.properties("spring.data.redis.host=" + server.host(), "spring.data.redis.port=" + server.port())
			.properties(properties)
			.run()) {
			CommandRecorder recorder = context.getBean(CommandRecorder.class);
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);

			queue.send("own.commands", "job");
			queue.send("own.commands", "later", Duration.ofHours(1));
			context.getBean(StringRedisTemplate.class).opsForValue().set("application:key", "value");

			await().atMost(Duration.ofSeconds(30)).until(() -> context.getBean(Handled.class).count.size() == 1);
			await().atMost(Duration.ofSeconds(30)).until(() -> recorder.firstKeys.contains("application:key"));
			assertThat(recorder.firstKeys).noneMatch((key) -> key.startsWith("{dq:") || key.startsWith("dq:"));
		}
	}

	static class CommandRecorder implements ObservationHandler<LettuceObservationContext> {

		final List<String> firstKeys = new CopyOnWriteArrayList<>();

		@Override
		public boolean supportsContext(Observation.Context context) {
			return context instanceof LettuceObservationContext;
		}

		@Override
		public void onStart(LettuceObservationContext context) {
			var args = context.getRequiredCommand().getArgs();
			var key = (args != null) ? args.getFirstEncodedKey() : null;
			if (key != null) {
				this.firstKeys.add(StandardCharsets.UTF_8.decode(key.duplicate()).toString());
			}
		}

	}

	static class Handled {

		final List<String> count = new CopyOnWriteArrayList<>();

		@DelayedJobListener(id = "ownCommands", topics = "own.commands")
		void handle(String payload) {
			this.count.add(payload);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class RecordingApplication {

		@Bean
		CommandRecorder commandRecorder() {
			return new CommandRecorder();
		}

		@Bean
		Handled handled() {
			return new Handled();
		}

	}

}
