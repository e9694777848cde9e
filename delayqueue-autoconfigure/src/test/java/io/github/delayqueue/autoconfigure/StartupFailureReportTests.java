package io.github.delayqueue.autoconfigure;

import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * A web application with the dashboard whose delay queue properties are wrong fails to
 * start with the report of its bad properties alone: no error of the web server, with a
 * stack, before it.
 */
@ExtendWith({ RedisExtension.class, OutputCaptureExtension.class })
class StartupFailureReportTests {

	@Test
	void aWebApplicationWithBadPropertiesReportsThemWithoutAWebServerError(RedisTestServer server,
			CapturedOutput output) {
		assertThatException()
			.isThrownBy(() -> new SpringApplicationBuilder(WebApplication.class)
				.properties("server.port=0", "spring.data.redis.host=" + server.host(),
						"spring.data.redis.port=" + server.port(), "delayqueue.dashboard.enabled=true",
						"delayqueue.schedules.nightly.topic=reports", "delayqueue.schedules.nightly.every=1h",
						"delayqueue.schedules.nightly.misfire=sometimes")
				.run()
				.close())
			.havingRootCause()
			.isInstanceOf(InvalidDelayQueuePropertiesException.class);
		assertThat(output).contains("delayqueue.schedules.nightly.misfire with value 'sometimes' is invalid")
			.doesNotContain("Error starting Tomcat context")
			.doesNotContain("UnsatisfiedDependencyException");
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class WebApplication {

	}

}
