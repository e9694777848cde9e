package io.github.delayqueue.internal.schedule;

import java.time.Duration;
import java.util.List;

import io.github.delayqueue.autoconfigure.DelayQueueSchedulesAutoConfiguration;
import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueSchedules;
import io.github.delayqueue.core.JobEvent;
import io.github.delayqueue.core.JobEvent.Type;
import io.github.delayqueue.test.DelayQueueContextRunner;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The jobs that schedules write into a topic whose timeline is on start their timeline
 * with {@code SENT}, by the instance that wrote them and naming the schedule, like every
 * sent job: a tick's job and a job triggered by hand. With the timeline off, nothing is
 * recorded.
 */
@ExtendWith(RedisExtension.class)
class ScheduleTimelineTests {

	private static final String TOPIC = "timed";

	private RedisTestServer server;

	private ApplicationContextRunner runner;

	@BeforeEach
	void setUp(RedisTestServer server) {
		this.server = server;
		server.flushAll();
		TickLedger.clear();
		this.runner = DelayQueueContextRunner.create(server)
			.withConfiguration(AutoConfigurations.of(DelayQueueSchedulesAutoConfiguration.class))
			.withUserConfiguration(TickLedger.Recorder.class)
			.withPropertyValues("ticks.topic=" + TOPIC, "ticks.instance=a",
					"delayqueue.schedules.every-second.topic=" + TOPIC, "delayqueue.schedules.every-second.every=1s",
					"delayqueue.schedules.yearly.topic=" + TOPIC, "delayqueue.schedules.yearly.cron=0 0 0 1 1 *");
	}

	@Test
	void aTickJobStartsItsTimelineWithSentByTheInstanceThatWroteIt() {
		this.runner.withPropertyValues("delayqueue.topics[" + TOPIC + "].timeline=true").run((context) -> {
			assertThat(context).hasNotFailed();
			await().atMost(Duration.ofSeconds(20)).until(() -> !TickLedger.runs(TOPIC).isEmpty());
			TickLedger.Run run = TickLedger.runs(TOPIC).get(0);
			List<JobEvent> events = completedTimeline(context.getBean(DelayQueueAdmin.class), run.jobId());
			assertThat(events).extracting(JobEvent::type).containsExactly(Type.SENT, Type.CLAIMED, Type.COMPLETED);
			JobEvent sent = events.get(0);
			assertThat(sent.instance()).isNotEmpty().isEqualTo(events.get(1).instance());
			assertThat(sent.dueAt()).isEqualTo(run.dueAt());
			assertThat(sent.detail()).isEqualTo("schedule every-second");
		});
	}

	@Test
	void aJobTriggeredByHandStartsItsTimelineWithSent() {
		this.runner.withPropertyValues("delayqueue.topics[" + TOPIC + "].timeline=true").run((context) -> {
			assertThat(context).hasNotFailed();
			DelayQueueSchedules schedules = context.getBean(DelayQueueSchedules.class);
			await().atMost(Duration.ofSeconds(10)).until(() -> schedules.find("yearly", 1).isPresent());
			String jobId = schedules.trigger("yearly");
			List<JobEvent> events = completedTimeline(context.getBean(DelayQueueAdmin.class), jobId);
			assertThat(events).extracting(JobEvent::type).containsExactly(Type.SENT, Type.CLAIMED, Type.COMPLETED);
			assertThat(events.get(0).instance()).isNotEmpty();
			assertThat(events.get(0).detail()).isEqualTo("schedule yearly, by hand");
		});
	}

	@Test
	void withTheTimelineOffNothingIsRecorded() {
		this.runner.run((context) -> {
			assertThat(context).hasNotFailed();
			DelayQueueSchedules schedules = context.getBean(DelayQueueSchedules.class);
			await().atMost(Duration.ofSeconds(10)).until(() -> schedules.find("yearly", 1).isPresent());
			String triggered = schedules.trigger("yearly");
			await().atMost(Duration.ofSeconds(20))
				.until(() -> TickLedger.runs(TOPIC).stream().anyMatch((run) -> run.jobId().equals(triggered))
						&& TickLedger.runs(TOPIC).size() >= 2);
			assertThat(this.server.command("KEYS", "*timeline*")).isEqualTo("*0\r\n");
		});
	}

	private static List<JobEvent> completedTimeline(DelayQueueAdmin admin, String jobId) {
		await().atMost(Duration.ofSeconds(10))
			.until(() -> admin.timeline(TOPIC, jobId).stream().anyMatch((e) -> e.type() == Type.COMPLETED));
		return admin.timeline(TOPIC, jobId);
	}

}
