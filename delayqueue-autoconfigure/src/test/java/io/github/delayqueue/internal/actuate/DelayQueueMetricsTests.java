package io.github.delayqueue.internal.actuate;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.delayqueue.core.DelayQueueTemplate;
import io.github.delayqueue.test.DelayQueueFixture;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.cumulative.CumulativeTimer;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.core.instrument.distribution.pause.PauseDetector;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsProperties;
import org.springframework.boot.micrometer.metrics.autoconfigure.PropertiesMeterFilter;
import org.springframework.boot.micrometer.metrics.autoconfigure.ServiceLevelObjectiveBoundary;

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

		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
			assertThat(size("orders", "ready")).isEqualTo(2);
			assertThat(size("orders", "delayed")).isEqualTo(1);
			assertThat(size("orders", "running")).isZero();
			assertThat(size("orders", "dead")).isZero();
		});
	}

	@Test
	void gaugesAnswerFromTheLastRefreshWithoutWaitingForAPausedRedis() {
		try (RedisTestServer dedicated = RedisTestServer.startDedicated();
				DelayQueueFixture fixture = new DelayQueueFixture(dedicated)) {
			this.metrics = new DelayQueueMetrics(fixture.store(), Duration.ofMillis(100), Duration.ofMinutes(10));
			this.metrics.bindTo(this.registry);
			DelayQueueTemplate template = fixture.template();
			template.setEventListener(this.metrics);
			template.send("orders", 1);
			await().atMost(Duration.ofSeconds(10)).until(() -> size("orders", "ready") == 1);

			// Every command waits now; a read of Redis would wait its command timeout.
			dedicated.command("CLIENT", "PAUSE", "30000");
			// Read for ten refresh intervals: counts that old would be read again.
			long longestRead = 0;
			long until = System.nanoTime() + Duration.ofSeconds(1).toNanos();
			while (System.nanoTime() < until) {
				long start = System.nanoTime();
				assertThat(size("orders", "ready")).isEqualTo(1);
				longestRead = Math.max(longestRead, System.nanoTime() - start);
			}
			assertThat(Duration.ofNanos(longestRead)).isLessThan(Duration.ofSeconds(1));
		}
	}

	@Test
	void readingTheGaugesSendsNoCommandToRedis() {
		DelayQueueTemplate other = this.fixture.template();
		other.send("orders", 1);
		other.send("mail", 2);
		other.send("audit", 3);
		this.metrics = bind(Duration.ofHours(1));
		await().atMost(Duration.ofSeconds(10))
			.until(() -> this.registry.find("delayqueue.queue.size").gauges().size() == 12);
		size("orders", "ready"); // the first read asks for the first refresh
		await().atMost(Duration.ofSeconds(10)).until(() -> size("audit", "ready") == 1);
		this.server.command("CONFIG", "RESETSTAT");

		for (int i = 0; i < 5; i++) {
			for (String topic : List.of("orders", "mail", "audit")) {
				for (String state : List.of("delayed", "ready", "running", "dead")) {
					assertThat(size(topic, state)).isEqualTo(state.equals("ready") ? 1 : 0);
				}
			}
		}

		assertThat(scriptCalls()).isZero();
	}

	@Test
	void gaugesLeaveRedisAloneWhileNobodyReadsThem() {
		this.fixture.template().send("orders", 1);
		this.server.command("CONFIG", "RESETSTAT");
		this.metrics = bind(Duration.ofMillis(50));

		await().atMost(Duration.ofSeconds(10))
			.until(() -> this.registry.find("delayqueue.queue.size").tag("topic", "orders").gauges().size() == 4);
		await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5)).until(() -> scriptCalls() == 0);
		await().atMost(Duration.ofSeconds(10)).until(() -> size("orders", "ready") == 1);
	}

	@Test
	void gaugesFollowTheQueueWhileTheyAreRead() {
		this.metrics = bind(Duration.ofMillis(200));
		DelayQueueTemplate template = template();
		template.send("orders", 1);
		await().atMost(Duration.ofSeconds(10)).until(() -> size("orders", "ready") == 1);

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
		await().atMost(Duration.ofSeconds(10)).until(() -> size("elsewhere", "delayed") == 1);
		// Only gauges: this instance neither sends to nor handles it.
		assertThat(this.registry.find("delayqueue.jobs.sent").tag("topic", "elsewhere").counter()).isNull();
		assertThat(this.registry.find("delayqueue.job.lateness").tag("topic", "elsewhere").timer()).isNull();
	}

	@Test
	void removesTheGaugesOfATopicRedisForgot() {
		this.fixture.template().send("forgotten", 1, Duration.ofHours(1));
		this.metrics = bind(Duration.ofSeconds(5));
		await().atMost(Duration.ofSeconds(10))
			.until(() -> this.registry.find("delayqueue.queue.size").tag("topic", "forgotten").gauges().size() == 4);

		this.server.flushAll();
		this.metrics.refreshTopics();

		assertThat(this.registry.find("delayqueue.queue.size").tag("topic", "forgotten").gauges()).isEmpty();
		assertThat(this.registry.find("delayqueue.topic.paused").tag("topic", "forgotten").gauges()).isEmpty();
	}

	@Test
	void keepsTheGaugesOfATopicThisInstanceSendsTo() {
		this.metrics = bind(Duration.ofSeconds(5));
		template().send("mine", 1, Duration.ofHours(1));

		this.server.flushAll();
		this.metrics.refreshTopics();

		assertThat(this.registry.find("delayqueue.queue.size").tag("topic", "mine").gauges()).hasSize(4);
	}

	@Test
	void registersTheMetersOfARoleOnItsFirstEvent() {
		this.metrics = bind(Duration.ofSeconds(5));
		this.metrics.jobsSent("sent", 1);
		this.metrics.jobStarted("handled", Duration.ofMillis(3));
		this.metrics.jobsExpired("swept", 1);

		assertThat(meterNames("sent")).containsExactlyInAnyOrder("delayqueue.jobs.sent", "delayqueue.queue.size",
				"delayqueue.topic.paused");
		assertThat(meterNames("handled")).containsExactlyInAnyOrder("delayqueue.jobs.completed",
				"delayqueue.jobs.failed", "delayqueue.jobs.retried", "delayqueue.jobs.dead", "delayqueue.jobs.expired",
				"delayqueue.job.duration", "delayqueue.job.lateness", "delayqueue.queue.size",
				"delayqueue.topic.paused");
		assertThat(this.registry.find("delayqueue.job.duration").tag("topic", "handled").timers()).hasSize(2);
		// Its gauges last only while Redis knows the topic, which this one it does not.
		assertThat(meterNames("swept")).contains("delayqueue.jobs.expired")
			.doesNotContain("delayqueue.jobs.sent", "delayqueue.jobs.completed", "delayqueue.job.lateness");
		assertThat(count("delayqueue.jobs.expired", "swept")).isEqualTo(1);
	}

	@Test
	void registersMetersForTopicsSeenBeforeItWasBound() {
		this.metrics = new DelayQueueMetrics(this.fixture.store());
		this.metrics.jobsSent("early", 1);
		this.metrics.jobCompleted("early.handled", Duration.ofMillis(1));

		this.metrics.bindTo(this.registry);

		assertThat(this.registry.find("delayqueue.jobs.sent").tag("topic", "early").counter()).isNotNull();
		assertThat(count("delayqueue.jobs.sent", "early")).isZero();
		assertThat(this.registry.find("delayqueue.jobs.completed").tag("topic", "early.handled").counter()).isNotNull();
	}

	@Test
	void timersPublishADozenBucketsFromFiveMillisecondsToAnHour() {
		MeterRegistry registry = new HistogramRegistry();
		this.metrics = bind(registry);
		// After an outage jobs start minutes late; a default histogram ends at 30 s.
		this.metrics.jobStarted("orders", Duration.ofMinutes(2));
		this.metrics.jobCompleted("orders", Duration.ofSeconds(45));
		this.metrics.jobFailed("orders", Duration.ofMillis(20), new IllegalStateException("boom"));

		CountAtBucket[] lateness = buckets(registry, "delayqueue.job.lateness", "topic", "orders");
		assertThat(lateness).hasSize(12);
		assertThat(lateness[0].bucket(TimeUnit.MILLISECONDS)).isEqualTo(5);
		assertThat(lateness[lateness.length - 1].bucket(TimeUnit.SECONDS)).isEqualTo(3600);
		assertThat(firstBucketCounting(lateness, 1)).isEqualTo(300);
		CountAtBucket[] success = buckets(registry, "delayqueue.job.duration", "outcome", "success");
		assertThat(success).hasSize(12);
		assertThat(firstBucketCounting(success, 1)).isEqualTo(300);
		assertThat(firstBucketCounting(buckets(registry, "delayqueue.job.duration", "outcome", "failure"), 1))
			.isEqualTo(0.025);
	}

	@Test
	void distributionPropertiesStillOverrideTheBuckets() {
		MetricsProperties properties = new MetricsProperties();
		properties.getDistribution().getPercentilesHistogram().put("delayqueue.job.lateness", true);
		properties.getDistribution()
			.getSlo()
			.put("delayqueue.job.duration", new ServiceLevelObjectiveBoundary[] {
					ServiceLevelObjectiveBoundary.valueOf("100ms"), ServiceLevelObjectiveBoundary.valueOf("1s") });
		MeterRegistry registry = new HistogramRegistry();
		registry.config().meterFilter(new PropertiesMeterFilter(properties));
		this.metrics = bind(registry);
		this.metrics.jobStarted("orders", Duration.ofSeconds(1));
		this.metrics.jobCompleted("orders", Duration.ofSeconds(1));

		CountAtBucket[] lateness = buckets(registry, "delayqueue.job.lateness", "topic", "orders");
		// A full histogram, still reaching an hour, past Micrometer's usual 30 seconds.
		assertThat(lateness.length).isGreaterThan(40);
		assertThat(lateness[lateness.length - 1].bucket(TimeUnit.SECONDS)).isGreaterThanOrEqualTo(3600);
		assertThat(buckets(registry, "delayqueue.job.duration", "outcome", "success")).hasSize(2);
	}

	// The simple registry shows each timer's buckets as gauges of its own
	// ("...histogram").
	private List<String> meterNames(String topic) {
		return this.registry.getMeters()
			.stream()
			.filter((meter) -> topic.equals(meter.getId().getTag("topic")))
			.map((meter) -> meter.getId().getName())
			.filter((name) -> !name.endsWith(".histogram"))
			.distinct()
			.toList();
	}

	private DelayQueueMetrics bind(MeterRegistry registry) {
		DelayQueueMetrics metrics = new DelayQueueMetrics(this.fixture.store(), Duration.ofSeconds(5),
				Duration.ofMinutes(10));
		metrics.bindTo(registry);
		return metrics;
	}

	private static CountAtBucket[] buckets(MeterRegistry registry, String name, String tag, String value) {
		Timer timer = registry.find(name).tag(tag, value).timer();
		assertThat(timer).isNotNull();
		return timer.takeSnapshot().histogramCounts();
	}

	// Buckets count cumulatively ("less or equal"), as Prometheus exposes them.
	private static double firstBucketCounting(CountAtBucket[] buckets, double count) {
		return Arrays.stream(buckets)
			.filter((bucket) -> bucket.count() >= count)
			.mapToDouble((bucket) -> bucket.bucket(TimeUnit.SECONDS))
			.findFirst()
			.orElseThrow();
	}

	private DelayQueueMetrics bind(Duration statsRefreshInterval) {
		DelayQueueMetrics metrics = new DelayQueueMetrics(this.fixture.store(), statsRefreshInterval,
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

	/**
	 * A {@link SimpleMeterRegistry} whose timers, like those of Prometheus's registry,
	 * publish percentile histograms as buckets (the simple registry alone keeps them for
	 * service-level objectives only).
	 */
	static final class HistogramRegistry extends SimpleMeterRegistry {

		@Override
		protected Timer newTimer(Meter.Id id, DistributionStatisticConfig config, PauseDetector pauseDetector) {
			return new CumulativeTimer(id, this.clock, config, pauseDetector, getBaseTimeUnit(), true);
		}

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
