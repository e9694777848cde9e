package io.github.delayqueue.actuate;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.delayqueue.core.DelayQueueTemplate;
import io.github.delayqueue.test.DelayQueueFixture;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link DelayQueueMetrics} bound to a Micrometer registry, reading a real Redis.
 */
@ExtendWith(RedisExtension.class)
class DelayQueueMetricsTests {

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private RedisTestServer server;

	private DelayQueueFixture fixture;

	private DelayQueueMetrics metrics;

	@BeforeEach
	void setUp(RedisTestServer server) {
		server.flushAll();
		this.server = server;
		this.fixture = new DelayQueueFixture(server);
	}

	@AfterEach
	void tearDown() {
		if (this.metrics != null) {
			this.metrics.close();
		}
		this.fixture.close();
	}

	@Test
	void countsJobEventsPerTopic() {
		this.metrics = bind(Duration.ofSeconds(5));
		DelayQueueTemplate template = template();
		template.send("orders", 1);
		template.send("orders", 2, Duration.ofHours(1));
		template.send("mail", 3);
		this.metrics.jobStarted("orders", Duration.ofMillis(40));
		this.metrics.jobCompleted("orders", Duration.ofMillis(15));
		this.metrics.jobFailed("orders", Duration.ofMillis(30), new IllegalStateException("boom"));
		this.metrics.jobRetried("orders");
		this.metrics.jobsDead("orders", 2);
		this.metrics.jobsExpired("orders", 3);

		assertThat(count("delayqueue.jobs.sent", "orders")).isEqualTo(2);
		assertThat(count("delayqueue.jobs.sent", "mail")).isEqualTo(1);
		assertThat(count("delayqueue.jobs.completed", "orders")).isEqualTo(1);
		assertThat(count("delayqueue.jobs.failed", "orders")).isEqualTo(1);
		assertThat(count("delayqueue.jobs.retried", "orders")).isEqualTo(1);
		assertThat(count("delayqueue.jobs.dead", "orders")).isEqualTo(2);
		assertThat(count("delayqueue.jobs.expired", "orders")).isEqualTo(3);
		Timer success = this.registry.get("delayqueue.job.duration")
			.tags("topic", "orders", "outcome", "success")
			.timer();
		Timer failure = this.registry.get("delayqueue.job.duration")
			.tags("topic", "orders", "outcome", "failure")
			.timer();
		Timer lateness = this.registry.get("delayqueue.job.lateness").tag("topic", "orders").timer();
		assertThat(success.count()).isEqualTo(1);
		assertThat(success.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(15);
		assertThat(failure.count()).isEqualTo(1);
		assertThat(failure.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(30);
		assertThat(lateness.count()).isEqualTo(1);
		assertThat(lateness.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(40);
	}

	@Test
	void recordsANegativeLatenessAsOnTime() {
		this.metrics = bind(Duration.ofSeconds(5));
		this.metrics.jobStarted("orders", Duration.ofMillis(-3));

		Timer lateness = this.registry.get("delayqueue.job.lateness").tag("topic", "orders").timer();
		assertThat(lateness.count()).isEqualTo(1);
		assertThat(lateness.totalTime(TimeUnit.NANOSECONDS)).isZero();
	}

	@Test
	void gaugesShowTheQueueSizeOfEachState() {
		this.metrics = bind(Duration.ofSeconds(5));
		DelayQueueTemplate template = template();
		template.send("orders", 1);
		template.send("orders", 2);
		template.send("orders", 3, Duration.ofHours(1));

		assertThat(size("orders", "ready")).isEqualTo(2);
		assertThat(size("orders", "delayed")).isEqualTo(1);
		assertThat(size("orders", "running")).isZero();
		assertThat(size("orders", "dead")).isZero();
	}

	@Test
	void gaugesOfATopicShareOneRedisReadPerInterval() {
		this.metrics = bind(Duration.ofHours(1));
		template().send("orders", 1);
		this.server.command("CONFIG", "RESETSTAT");

		for (int i = 0; i < 5; i++) {
			for (String state : List.of("delayed", "ready", "running", "dead")) {
				size("orders", state);
			}
		}

		assertThat(scriptCalls()).isEqualTo(1);
	}

	@Test
	void gaugesFollowTheQueueOnceTheirCountsExpire() {
		this.metrics = bind(Duration.ofMillis(200));
		DelayQueueTemplate template = template();
		template.send("orders", 1);
		assertThat(size("orders", "ready")).isEqualTo(1);

		template.send("orders", 2);

		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(size("orders", "ready")).isEqualTo(2));
	}

	@Test
	void registersGaugesForTopicsKnownOnlyToRedis() {
		// Sent by another instance: this binder never heard of the topic.
		this.fixture.template().send("elsewhere", 1, Duration.ofHours(1));

		this.metrics = bind(Duration.ofSeconds(5));

		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(
					this.registry.find("delayqueue.queue.size").tags("topic", "elsewhere", "state", "delayed").gauge())
				.isNotNull());
		assertThat(size("elsewhere", "delayed")).isEqualTo(1);
	}

	@Test
	void registersMetersForTopicsSeenBeforeItWasBound() {
		this.metrics = new DelayQueueMetrics(this.fixture.store());
		this.metrics.jobsSent("early", 1);

		this.metrics.bindTo(this.registry);

		assertThat(this.registry.find("delayqueue.jobs.sent").tag("topic", "early").counter()).isNotNull();
		assertThat(count("delayqueue.jobs.sent", "early")).isZero();
	}

	private DelayQueueMetrics bind(Duration statsTimeToLive) {
		DelayQueueMetrics metrics = new DelayQueueMetrics(this.fixture.store(), statsTimeToLive,
				Duration.ofMinutes(10));
		metrics.bindTo(this.registry);
		return metrics;
	}

	private DelayQueueTemplate template() {
		DelayQueueTemplate template = this.fixture.template();
		template.setEventListener(this.metrics);
		return template;
	}

	private double count(String name, String topic) {
		return this.registry.get(name).tag("topic", topic).counter().count();
	}

	private double size(String topic, String state) {
		Gauge gauge = this.registry.get("delayqueue.queue.size").tags("topic", topic, "state", state).gauge();
		return gauge.value();
	}

	private long scriptCalls() {
		String info = this.server.command("INFO", "commandstats");
		long calls = 0;
		Matcher matcher = Pattern.compile("cmdstat_(?:evalsha|eval):calls=(\\d+)").matcher(info);
		while (matcher.find()) {
			calls += Long.parseLong(matcher.group(1));
		}
		return calls;
	}

}
