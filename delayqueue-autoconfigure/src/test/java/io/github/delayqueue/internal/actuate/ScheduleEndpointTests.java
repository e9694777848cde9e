package io.github.delayqueue.internal.actuate;

import java.time.Duration;

import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.DelayQueueSchedules;
import io.github.delayqueue.core.InvalidJobException;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Recurring schedules in the {@code delayqueue} endpoint of a web application whose
 * endpoint allows writes: {@code /actuator/delayqueue/schedules} lists them, names one,
 * pauses, resumes and triggers it; no topic may be named {@code schedules}, the segment
 * they take.
 */
@ExtendWith(RedisExtension.class)
class ScheduleEndpointTests {

	private static ConfigurableApplicationContext context;

	private static ActuatorHttp http;

	@BeforeAll
	static void startApplication(RedisTestServer server) {
		server.flushAll();
		context = new SpringApplicationBuilder(ScheduledApplication.class)
			.properties("server.port=0", "spring.data.redis.host=" + server.host(),
					"spring.data.redis.port=" + server.port(), "spring.data.redis.client-type=lettuce",
					"management.endpoints.web.exposure.include=delayqueue",
					"management.endpoint.delayqueue.access=unrestricted", "delayqueue.schedules.nightly.topic=reports",
					"delayqueue.schedules.nightly.cron=0 0 2 * * *", "delayqueue.schedules.nightly.zone=Europe/Berlin",
					"delayqueue.schedules.nightly.payload.token=secret-token")
			.run();
		http = new ActuatorHttp(context.getEnvironment().getRequiredProperty("local.server.port", Integer.class));
		DelayQueueSchedules schedules = context.getBean(DelayQueueSchedules.class);
		await().atMost(Duration.ofSeconds(20)).until(() -> schedules.find("nightly").isPresent());
	}

	@AfterAll
	static void stopApplication() {
		if (context != null) {
			context.close();
		}
	}

	@Test
	void listsSchedulesWithTheirNextFireTimesAndHidesPayloads() {
		ActuatorHttp.Response response = http.get("/delayqueue/schedules");

		assertThat(response.status()).isEqualTo(200);
		assertThat(response.json().at("/schedules/0/id").asString()).isEqualTo("nightly");
		assertThat(response.json().at("/schedules/0/cron").asString()).isEqualTo("0 0 2 * * *");
		assertThat(response.json().at("/schedules/0/zone").asString()).isEqualTo("Europe/Berlin");
		assertThat(response.json().at("/schedules/0/nextFireTimes")).hasSize(5);
		assertThat(response.json().at("/schedules/0/declared").asBoolean()).isTrue();
		assertThat(response.body()).doesNotContain("secret-token");
	}

	@Test
	void showsOneScheduleAndAnswers404ForAnUnknownOne() {
		assertThat(http.get("/delayqueue/schedules/nightly").json().path("topic").asString()).isEqualTo("reports");
		ActuatorHttp.Response unknown = http.get("/delayqueue/schedules/weekly");
		assertThat(unknown.status()).isEqualTo(404);
		assertThat(unknown.json().path("message").asString()).isEqualTo("No schedule 'weekly'");
	}

	@Test
	void pausesResumesAndTriggersASchedule() {
		ActuatorHttp.Response paused = http.post("/delayqueue/schedules/nightly", "{\"action\":\"pause\"}");
		assertThat(paused.status()).isEqualTo(200);
		assertThat(http.get("/delayqueue/schedules/nightly").json().path("paused").asBoolean()).isTrue();

		ActuatorHttp.Response resumed = http.post("/delayqueue/schedules/nightly", "{\"action\":\"resume\"}");
		assertThat(resumed.status()).isEqualTo(200);
		assertThat(http.get("/delayqueue/schedules/nightly").json().path("paused").asBoolean()).isFalse();

		ActuatorHttp.Response triggered = http.post("/delayqueue/schedules/nightly", "{\"action\":\"trigger\"}");
		assertThat(triggered.status()).isEqualTo(200);
		String jobId = triggered.json().path("jobId").asString();
		assertThat(jobId).startsWith("nightly@");
		assertThat(context.getBean(DelayQueueOperations.class).find("reports", jobId)).isPresent();
	}

	@Test
	void refusesAnUnknownActionOrScheduleSayingWhy() {
		ActuatorHttp.Response unknownAction = http.post("/delayqueue/schedules/nightly", "{\"action\":\"snooze\"}");
		assertThat(unknownAction.status()).isEqualTo(400);
		assertThat(unknownAction.json().path("message").asString()).startsWith("Unknown action 'snooze'");
		assertThat(http.post("/delayqueue/schedules/weekly", "{\"action\":\"pause\"}").status()).isEqualTo(404);
	}

	@Test
	void actsOnOneDeadJobOfATopicByItsPathToo() {
		String id = context.getBean(DelayQueueOperations.class).send("reports", "x", Duration.ofHours(1));

		ActuatorHttp.Response requeue = http.post("/delayqueue/reports/" + id, "{\"action\":\"requeue-dead\"}");

		assertThat(requeue.status()).isEqualTo(404);
		assertThat(requeue.json().path("message").asString()).isEqualTo("No dead job '" + id + "' in topic 'reports'");
	}

	@Test
	void refusesATopicNamedSchedulesWhosePathTheSchedulesTake() {
		DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);

		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(() -> queue.send("schedules", "x", Duration.ofHours(1)))
			.withMessageContaining("Topic name 'schedules' is reserved")
			.withMessageContaining("/actuator/delayqueue/schedules");
		assertThat(http.get("/delayqueue/schedules").json().has("schedules")).isTrue();
		ActuatorHttp.Response jobsOfSchedules = http.get("/delayqueue/schedules?state=dead");
		assertThat(jobsOfSchedules.status()).isEqualTo(400);
		assertThat(jobsOfSchedules.json().path("message").asString()).contains("'schedules' is reserved");
		assertThat(http.get("/delayqueue/schedules/nightly").status()).isEqualTo(200);
		assertThat(http.get("/delayqueue/reports").status()).isEqualTo(200);
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class ScheduledApplication {

	}

}
