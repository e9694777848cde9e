package io.github.delayqueue.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What an operator reads in the log: when an application starts while its Redis is down,
 * one line per component of the starter, with the cause and that it retries, and no stack
 * trace at the default level (Lettuce's own reconnect warnings are Lettuce's and not
 * counted); when a graceful shutdown waits for running handlers, one line saying so.
 */
@ExtendWith(OutputCaptureExtension.class)
class OperatorLogTests {

	// Boot's console pattern: time, level, pid, "---", [application name] [thread]
	// [correlation], the logger name shortened to 40 characters, ":", the message.
	private static final Pattern RECORD = Pattern
		.compile("^\\d{4}-\\d\\d-\\d\\dT\\S+\\s+(?:TRACE|DEBUG|INFO|WARN|ERROR)\\s+\\d+ --- .*?\\s(\\S+)\\s+: ");

	@Test
	void startingWhileRedisIsDownLogsOneLinePerComponentWithoutStackTraces(CapturedOutput output) {
		try (RedisTestServer server = RedisTestServer.startDedicated()) {
			server.stop();
			int before = output.getAll().length();
			try (ConfigurableApplicationContext context = new SpringApplicationBuilder(TwoListenersApplication.class)
				.web(WebApplicationType.NONE)
				.properties("spring.data.redis.host=" + server.host(), "spring.data.redis.port=" + server.port())
				.run()) {
				// Ten seconds: every loop's backoff reaches its longest pause, and tries
				// several times at it.
				await().atMost(Duration.ofSeconds(15))
					.during(Duration.ofSeconds(10))
					.untilAsserted(
							() -> assertThat(ours(output.getAll().substring(before))).hasSizeLessThanOrEqualTo(6));
				List<String> ours = ours(output.getAll().substring(before));
				assertThat(ours).allMatch((line) -> RECORD.matcher(line).find());
				assertThat(ours)
					.filteredOn((line) -> line.contains("Listener 'orders' cannot reach Redis to claim jobs"))
					.singleElement()
					.satisfies((line) -> assertThat(line).contains("Connection refused", "retrying in the background"));
				assertThat(ours).filteredOn((line) -> line.contains("Listener 'mail' cannot reach Redis")).hasSize(1);
				assertThat(ours).filteredOn((line) -> line.contains("scheduler cannot reach Redis")).hasSize(1);
				assertThat(ours).filteredOn((line) -> line.contains("Recurring schedules cannot reach Redis"))
					.hasSize(1);
				assertThat(ours).noneMatch((line) -> line.contains("reachable again"));
			}
		}
	}

	@Test
	void aShutdownThatWaitsForRunningHandlersSaysSoOnce(CapturedOutput output) throws Exception {
		RedisTestServer server = RedisExtension.server();
		server.flushAll();
		ConfigurableApplicationContext context = new SpringApplicationBuilder(SlowListenerApplication.class)
			.web(WebApplicationType.NONE)
			.properties("spring.data.redis.host=" + server.host(), "spring.data.redis.port=" + server.port(),
					"delayqueue.topics.slow.concurrency=2")
			.run();
		SlowListener listener = context.getBean(SlowListener.class);
		try {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			queue.send("slow", "one");
			queue.send("slow", "two");
			assertThat(listener.started.await(30, TimeUnit.SECONDS)).isTrue();
			Thread closing = new Thread(context::close);
			closing.start();
			await().atMost(Duration.ofSeconds(30)).until(() -> output.getOut().contains(WAITING));
			listener.finish.countDown();
			closing.join(TimeUnit.SECONDS.toMillis(30));
			assertThat(closing.isAlive()).isFalse();
		}
		finally {
			listener.finish.countDown();
			context.close();
		}
		assertThat(output.getOut().split(Pattern.quote(WAITING), -1)).hasSize(2);
	}

	// Lines of the starter's records, stack traces included; a line that starts no
	// record continues the one before it.
	private static List<String> ours(String output) {
		List<String> ours = new ArrayList<>();
		boolean owned = false;
		for (String line : output.split("\\R")) {
			Matcher record = RECORD.matcher(line);
			if (record.find()) {
				String logger = record.group(1);
				owned = logger.startsWith("io.github.delayqueue") || logger.startsWith("i.g.d")
						|| logger.startsWith("i.g.delayqueue");
			}
			if (owned) {
				ours.add(line);
			}
		}
		return ours;
	}

	private static final String WAITING = "Listener 'slowListener' is stopping: waiting up to 30s for 2 running job(s)";

	static class SlowListener {

		final CountDownLatch started = new CountDownLatch(2);

		final CountDownLatch finish = new CountDownLatch(1);

		@DelayedJobListener(id = "slowListener", topics = "slow")
		void handle(String payload) throws InterruptedException {
			this.started.countDown();
			this.finish.await(60, TimeUnit.SECONDS);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class SlowListenerApplication {

		@Bean
		SlowListener slowListener() {
			return new SlowListener();
		}

	}

	static class Listeners {

		@DelayedJobListener(id = "orders", topics = "orders")
		void orders(String payload) {
		}

		@DelayedJobListener(id = "mail", topics = { "mail.vip", "mail" })
		void mail(String payload) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class TwoListenersApplication {

		@Bean
		Listeners listeners() {
			return new Listeners();
		}

	}

}
