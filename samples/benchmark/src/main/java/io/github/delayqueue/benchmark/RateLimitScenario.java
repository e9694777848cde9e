package io.github.delayqueue.benchmark;

import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Scenario "limits": how accurately a topic's rate limit holds across two instances of
 * the application, as a deployment runs them. A batch of jobs falls due at once in a
 * topic limited to {@link #LIMIT} starts per {@link #PERIOD}, after a warm-up batch; each
 * handler's first act reads the Redis clock, the one the limit is decided on. The report
 * gives the most starts in any window of one period, and how long the starts took and
 * each one waited against a perfect limiter (see {@link LimitAccuracy}); the same for the
 * limiter's own admissions (see {@link StartLogReader}), which the handler starts follow.
 */
final class RateLimitScenario {

	static final String NAME = "limits";

	static final int LIMIT = 100;

	static final Duration PERIOD = Duration.ofSeconds(1);

	private static final int INSTANCES = 2;

	// The jobs fall due once both instances wait for them and the batch is written.
	private static final Duration DUE_IN = Duration.ofSeconds(2);

	// After the warm-up's last start: the log forgets it a period later.
	private static final Duration WARM_UP_REST = Duration.ofMillis(500);

	// How much later than a perfect limiter's last start the run waits before it fails.
	private static final Duration DRAIN_MARGIN = Duration.ofSeconds(60);

	private final BenchmarkRedis redis;

	private final BenchmarkOptions options;

	private final Report report;

	RateLimitScenario(BenchmarkRedis redis, BenchmarkOptions options, Report report) {
		this.redis = redis;
		this.options = options;
		this.report = report;
	}

	void run() {
		this.redis.flushAll();
		int jobs = this.options.limitJobs();
		List<OurQueueClient> instances = start();
		LimitAccuracy starts;
		LimitAccuracy admissions;
		try {
			// Two windows' worth, so that claims, admissions and refusals have run (and
			// the JIT has compiled them) before the measured batch.
			drain(instances, 2 * LIMIT);
			Scenarios.pause(PERIOD.plus(WARM_UP_REST));
			try (StartLogReader log = new StartLogReader(this.redis, OurQueueClient.LIMITED, PERIOD)) {
				starts = new LimitAccuracy(drain(instances, jobs), LIMIT, PERIOD);
				admissions = new LimitAccuracy(log.admissionMicros(), LIMIT, PERIOD);
			}
		}
		finally {
			instances.forEach(OurQueueClient::close);
		}
		String setting = LIMIT + " per " + PERIOD.toSeconds() + " s";
		add("11a. limits: " + jobs + " jobs due at once, limit " + setting + ", " + INSTANCES + " instances of "
				+ OurQueueClient.LIMITED_CONSUMERS + " consumers: most handler starts in any window of one period",
				"starts", starts.mostInAWindow());
		add("11b. limits: first to last handler start", "s", seconds(starts.firstToLastMicros()));
		add("11c. limits: first to last start, a perfect limiter", "s", seconds(starts.idealFirstToLastMicros()));
		add("11d. limits: handler start after a perfect limiter's start, p50", "ms", millis(starts.waitMicros(50)));
		add("11e. limits: handler start after a perfect limiter's start, p99", "ms", millis(starts.waitMicros(99)));
		add("11f. limits: handler start after a perfect limiter's start, max", "ms", millis(starts.waitMicros(100)));
		add("11g. limits: admissions in the limiter's start log, most in any window of one period", "admissions",
				admissions.mostInAWindow());
		add("11h. limits: admission after a perfect limiter's start, p99", "ms", millis(admissions.waitMicros(99)));
		if (starts.starts() != jobs || admissions.starts() != jobs) {
			// A job handed back or delivered again starts again; each start counts.
			this.report.note("11: " + jobs + " jobs, " + starts.starts() + " handler starts, " + admissions.starts()
					+ " admissions");
		}
	}

	private void add(String scenario, String unit, double figure) {
		this.report.add(new Report.Row(scenario, unit, figure, null, null));
	}

	/**
	 * Start the consumers on every instance, send the jobs and wait until each has
	 * started.
	 * @return every start on the Redis clock, in microseconds
	 */
	private long[] drain(List<OurQueueClient> instances, int jobs) {
		ConcurrentLinkedQueue<Long> starts = new ConcurrentLinkedQueue<>();
		CountDownLatch started = new CountDownLatch(jobs);
		for (OurQueueClient instance : instances) {
			instance.startConsumers(OurQueueClient.LIMITED, OurQueueClient.LIMITED_CONSUMERS,
					new QueueClient.JobSink() {

						@Override
						public void started(String payload) {
							starts.add(instance.redisMicros());
							started.countDown();
						}

						@Override
						public void acknowledged() {
						}

					});
		}
		long due = System.currentTimeMillis() + DUE_IN.toMillis();
		instances.get(0).sendMany(OurQueueClient.LIMITED, Collections.nCopies(jobs, Payloads.of(due)), due);
		Duration allowed = PERIOD.multipliedBy(jobs / LIMIT).plus(DUE_IN).plus(DRAIN_MARGIN);
		try {
			if (!started.await(allowed.toMillis(), TimeUnit.MILLISECONDS)) {
				throw new IllegalStateException("The rate-limited jobs did not all start within " + allowed + "; "
						+ started.getCount() + " of " + jobs + " left");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted", ex);
		}
		finally {
			instances.forEach(OurQueueClient::stopConsumers);
		}
		return starts.stream().mapToLong(Long::longValue).toArray();
	}

	private List<OurQueueClient> start() {
		String topic = "delayqueue.topics." + OurQueueClient.LIMITED + ".rate-limit.";
		return OurQueueClient.instances(INSTANCES, this.redis, this.options.application(),
				Map.of(topic + "limit", String.valueOf(LIMIT), topic + "period", PERIOD.toMillis() + "ms"));
	}

	private static double seconds(long micros) {
		return micros / 1e6;
	}

	private static double millis(long micros) {
		return micros / 1000.0;
	}

}
