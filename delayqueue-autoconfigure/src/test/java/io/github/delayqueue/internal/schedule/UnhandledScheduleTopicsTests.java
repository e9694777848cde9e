package io.github.delayqueue.internal.schedule;

import java.util.ArrayList;
import java.util.List;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayedJob;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Once the application is ready, each schedule it declares whose topic no listener of the
 * application handles is warned about, naming the schedule, the topic and how to silence
 * the warning, unless {@code delayqueue.listener.handled-elsewhere} lists the topic.
 * Every application here also declares a schedule to a topic nobody handles, so that a
 * test that expects no warning for one schedule sees the check run.
 */
@ExtendWith({ RedisExtension.class, OutputCaptureExtension.class })
class UnhandledScheduleTopicsTests {

	private RedisTestServer server;

	@BeforeEach
	void setUp(RedisTestServer server) {
		this.server = server;
		server.flushAll();
	}

	@Test
	void warnsOfEachScheduleWhoseTopicNoListenerOfTheApplicationHandles(CapturedOutput output) {
		run(output, Application.class);
		assertThat(warnings(output)).hasSize(2)
			.anySatisfy((line) -> assertThat(line).contains("WARN")
				.contains("Schedule 'reports' (delayqueue.schedules.reports) puts its jobs into topic 'reports', "
						+ "which no listener of this application handles")
				.contains("@DelayedJobListener(\"reports\")")
				.contains("list it in delayqueue.listener.handled-elsewhere to silence this warning"))
			.anySatisfy((line) -> assertThat(line).contains("Schedule 'stray' (delayqueue.schedules.stray) puts "
					+ "its jobs into topic 'stray', which no listener of this application handles"));
	}

	@Test
	void staysSilentOnATopicListedAsHandledElsewhere(CapturedOutput output) {
		run(output, Application.class, "delayqueue.listener.handled-elsewhere=billing,reports");
		assertThat(warnings(output)).singleElement().satisfies((line) -> assertThat(line).contains("'stray'"));
	}

	@Test
	void staysSilentOnATopicThatAListenerOfTheApplicationHandles(CapturedOutput output) {
		run(output, ApplicationWithReportsListener.class);
		assertThat(warnings(output)).singleElement().satisfies((line) -> assertThat(line).contains("'stray'"));
	}

	private void run(CapturedOutput output, Class<?> application, String... properties) {
		List<String> all = new ArrayList<>(
				List.of("spring.data.redis.host=" + this.server.host(), "spring.data.redis.port=" + this.server.port(),
						"delayqueue.schedules.reports.topic=reports", "delayqueue.schedules.reports.cron=0 0 2 * * *",
						"delayqueue.schedules.stray.topic=stray", "delayqueue.schedules.stray.every=1h"));
		all.addAll(List.of(properties));
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(application)
			.web(WebApplicationType.NONE)
			.properties(all.toArray(String[]::new))
			.run()) {
			assertThat(context.isActive()).isTrue();
		}
	}

	private static List<String> warnings(CapturedOutput output) {
		return output.getOut()
			.lines()
			.filter((line) -> line.contains("which no listener of this application"))
			.toList();
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class Application {

	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class ApplicationWithReportsListener {

		@DelayedJobListener("reports")
		void build(DelayedJob<String> job) {
			// Only its topic counts here.
		}

	}

}
