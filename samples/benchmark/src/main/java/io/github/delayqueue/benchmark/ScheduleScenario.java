package io.github.delayqueue.benchmark;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * Scenario "schedules": recurring schedules on three instances of the application, as a
 * deployment runs them. A thousand schedules ticking every second: the Redis commands per
 * tick while the ticks' jobs only go into the topic, then the lateness of each tick's
 * handler start after its tick; and a thousand schedules that do not tick during the
 * window: the idle cost they add to three instances without schedules.
 */
final class ScheduleScenario {

	static final String NAME = "schedules";

	/**
	 * The scenario name of the tick lateness on a local Redis Cluster; not part of
	 * {@link #NAME}, since it starts six more Redis servers.
	 */
	static final String CLUSTER_NAME = "schedules-cluster";

	// -Dbenchmark.schedules=N declares N schedules instead: few of them make the light
	// load
	// under which a tick should start as soon as a delayed job does.
	static final int SCHEDULES = Integer.getInteger("benchmark.schedules", 1_000);

	private static final int INSTANCES = 3;

	private static final Duration PRODUCTION_WINDOW = Duration.ofSeconds(10);

	private static final Duration LATENESS_WINDOW = Duration.ofSeconds(15);

	private static final int WARM_UP_JOBS = 20_000;

	private static final Duration WARM_UP_LIMIT = Duration.ofMinutes(2);

	// Never within a window: the first second of the year.
	private static final String YEARLY = "0 0 0 1 1 *";

	private final BenchmarkRedis redis;

	private final BenchmarkOptions options;

	private final Report report;

	ScheduleScenario(BenchmarkRedis redis, BenchmarkOptions options, Report report) {
		this.redis = redis;
		this.options = options;
		this.report = report;
	}

	void run() {
		ticking();
		idle();
	}

	private void ticking() {
		this.redis.flushAll();
		List<OurQueueClient> instances = start(schedules("every", "1s"));
		try (RespConnection connection = this.redis.connect()) {
			String ready = instances.get(0).readyListKey(OurQueueClient.TICKS);
			// Every instance has declared and loaded the schedules once ticks arrive.
			pause(Duration.ofSeconds(3));
			long scriptsBefore = scriptCalls(connection);
			long commandsBefore = connection.infoLong("stats", "total_commands_processed");
			long readyBefore = (Long) connection.call("LLEN", ready);
			pause(PRODUCTION_WINDOW);
			long readyAfter = (Long) connection.call("LLEN", ready);
			long commandsAfter = connection.infoLong("stats", "total_commands_processed");
			long scriptsAfter = scriptCalls(connection);
			long ticks = readyAfter - readyBefore;
			// The LLENs and the first INFO are counted.
			double perTick = (commandsAfter - commandsBefore - 3) / (double) ticks;
			this.report.add(new Report.Row(
					"10a. schedules: " + SCHEDULES + " every second on " + INSTANCES
							+ " instances, ticks produced, consumers stopped",
					"ticks/s", perSecond(ticks), null, null));
			this.report.add(new Report.Row("10b. schedules: Redis commands per tick (all commands of " + INSTANCES
					+ " instances, those run inside scripts included)", "commands", perTick, null, null));
			this.report.add(new Report.Row("10c. schedules: script calls per tick (all of " + INSTANCES + " instances)",
					"calls", (scriptsAfter - scriptsBefore) / (double) ticks, null, null));
			JitWarmUp.Result warmUp = JitWarmUp.run(this.options.warmUpRounds(), () -> warmUp(instances));
			this.report.note("Schedules: "
					+ warmUp
						.describe(WARM_UP_JOBS + " tick-shaped jobs on the " + INSTANCES + " instances' tick consumers")
					+ ", before the tick lateness was measured.");
			// The backlog of the production window would make the first ticks below late.
			connection.call("DEL", ready, ready.replace(":ready", ":jobs"));
			Histogram produced = new ConcurrentHistogram(TimeUnit.MINUTES.toMillis(10), 3);
			instances.forEach((instance) -> instance.onTickProduced(produced::recordValue));
			Histogram lateness = lateness(instances);
			instances.forEach((instance) -> instance.onTickProduced((millis) -> {
			}));
			this.report.add(new Report.Row(
					"10d. schedules: tick to handler start, p50 (" + lateness.getTotalCount() + " ticks)", "ms",
					millis(lateness.getValueAtPercentile(50)), null, null));
			this.report.add(new Report.Row("10e. schedules: tick to handler start, p99", "ms",
					millis(lateness.getValueAtPercentile(99)), null, null));
			this.report.add(new Report.Row("10f. schedules: tick to handler start, max", "ms",
					millis(lateness.getMaxValue()), null, null));
			this.report.add(new Report.Row("10g. schedules: tick to its job in the topic (by the Redis clock), p50",
					"ms", (double) produced.getValueAtPercentile(50), null, null));
			this.report.add(new Report.Row("10h. schedules: tick to its job in the topic, p99", "ms",
					(double) produced.getValueAtPercentile(99), null, null));
		}
		finally {
			instances.forEach(OurQueueClient::close);
		}
	}

	/**
	 * The tick lateness on a Redis Cluster: the same schedules on three instances whose
	 * Redis is the cluster, tick consumers warmed up as on one Redis.
	 * @param cluster the cluster, started
	 */
	void runOnCluster(BenchmarkCluster cluster) {
		cluster.flushAll();
		List<OurQueueClient> instances = OurQueueClient.instances(INSTANCES,
				Map.of("spring.data.redis.cluster.nodes", cluster.nodesProperty()), this.options.application(),
				schedules("every", "1s"));
		try {
			// Every instance has declared and loaded the schedules; the backlog of ticks
			// since then goes with the warm-up's first round.
			pause(Duration.ofSeconds(3));
			JitWarmUp.Result warmUp = JitWarmUp.run(this.options.warmUpRounds(), () -> warmUp(instances));
			this.report.note("Schedules on the Redis Cluster: "
					+ warmUp
						.describe(WARM_UP_JOBS + " tick-shaped jobs on the " + INSTANCES + " instances' tick consumers")
					+ ", before the tick lateness was measured.");
			Histogram produced = new ConcurrentHistogram(TimeUnit.MINUTES.toMillis(10), 3);
			instances.forEach((instance) -> instance.onTickProduced(produced::recordValue));
			Histogram lateness = lateness(instances);
			String on = SCHEDULES + " schedules every second, " + INSTANCES + " instances, Redis Cluster of 3 masters";
			this.report.add(new Report.Row(
					"10o. " + on + ": tick to handler start, p50 (" + lateness.getTotalCount() + " ticks)", "ms",
					millis(lateness.getValueAtPercentile(50)), null, null));
			this.report.add(new Report.Row("10p. " + on + ": tick to handler start, p99", "ms",
					millis(lateness.getValueAtPercentile(99)), null, null));
			this.report.add(new Report.Row("10q. " + on + ": tick to handler start, max", "ms",
					millis(lateness.getMaxValue()), null, null));
			this.report.add(new Report.Row("10r. " + on + ": tick to its job in the topic (by the Redis clock), p99",
					"ms", (double) produced.getValueAtPercentile(99), null, null));
		}
		finally {
			instances.forEach(OurQueueClient::close);
		}
	}

	// Calls of EVALSHA and EVAL so far, the scripts' own commands not counted.
	private static long scriptCalls(RespConnection connection) {
		return calls(connection, "cmdstat_evalsha") + calls(connection, "cmdstat_eval");
	}

	// "calls=12,usec=..." to 12; a command never called has no line.
	private static long calls(RespConnection connection, String command) {
		String stats;
		try {
			stats = connection.info("commandstats", command);
		}
		catch (IllegalStateException ex) {
			return 0;
		}
		int end = stats.indexOf(',');
		return Long.parseLong(stats.substring("calls=".length(), (end < 0) ? stats.length() : end));
	}

	// The tick consumers' code runs compiled, as in an application that has run for a
	// while, not interpreted as in one that just started: a tick a second would leave it
	// interpreted for minutes.
	private void warmUp(List<OurQueueClient> instances) {
		CountDownLatch acked = new CountDownLatch(WARM_UP_JOBS);
		QueueClient.JobSink counting = new QueueClient.JobSink() {

			@Override
			public void started(String payload) {
			}

			@Override
			public void acknowledged() {
				acked.countDown();
			}

		};
		instances.forEach(
				(instance) -> instance.startConsumers(OurQueueClient.TICKS, OurQueueClient.TICK_CONSUMERS, counting));
		try {
			instances.get(0).sendTickShapedJobs(WARM_UP_JOBS);
			if (!acked.await(WARM_UP_LIMIT.toSeconds(), TimeUnit.SECONDS)) {
				throw new IllegalStateException("Warm-up of the tick consumers: " + acked.getCount() + " of "
						+ WARM_UP_JOBS + " jobs not acknowledged within " + WARM_UP_LIMIT);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted", ex);
		}
		finally {
			instances.forEach(OurQueueClient::stopConsumers);
		}
	}

	private Histogram lateness(List<OurQueueClient> instances) {
		Histogram lateness = new ConcurrentHistogram(TimeUnit.MINUTES.toMicros(10), 3);
		long from = System.currentTimeMillis() + 1000;
		for (OurQueueClient instance : instances) {
			instance.startConsumers(OurQueueClient.TICKS, OurQueueClient.TICK_CONSUMERS, new QueueClient.JobSink() {

				@Override
				public void started(String payload) {
					long tick = Payloads.dueAt(payload);
					if (tick >= from) {
						Instant now = Instant.now();
						long micros = now.getEpochSecond() * 1_000_000 + now.getNano() / 1000;
						lateness.recordValue(Math.max(0, micros - tick * 1000));
					}
				}

				@Override
				public void acknowledged() {
				}

			});
		}
		pause(LATENESS_WINDOW);
		instances.forEach(OurQueueClient::stopConsumers);
		return lateness;
	}

	private void idle() {
		double[] without = idleCost(Map.of());
		double[] with = idleCost(schedules("cron", YEARLY));
		String window = this.options.idleSeconds() + " s";
		this.report.add(new Report.Row(
				"10i. idle, " + INSTANCES + " instances without schedules: Redis commands (" + window + ")",
				"commands/s", without[0], null, null));
		this.report.add(new Report.Row(
				"10j. idle, " + INSTANCES + " instances with " + SCHEDULES + " schedules not due: Redis commands",
				"commands/s", with[0], null, null));
		this.report.add(new Report.Row("10m. idle, " + INSTANCES + " instances without schedules: Redis CPU", "µs/s",
				without[2], null, null));
		this.report.add(new Report.Row(
				"10n. idle, " + INSTANCES + " instances with " + SCHEDULES + " schedules not due: Redis CPU", "µs/s",
				with[2], null, null));
		this.report.add(new Report.Row("10k. idle, " + INSTANCES + " instances without schedules: JVM process CPU",
				"% of a core", without[1], null, null));
		this.report.add(new Report.Row(
				"10l. idle, " + INSTANCES + " instances with " + SCHEDULES + " schedules not due: JVM process CPU",
				"% of a core", with[1], null, null));
	}

	private double[] idleCost(Map<String, String> schedules) {
		this.redis.flushAll();
		List<OurQueueClient> instances = start(schedules);
		try (RespConnection connection = this.redis.connect()) {
			pause(Duration.ofSeconds(3));
			return Scenarios.idleCost(connection, Duration.ofSeconds(this.options.idleSeconds()));
		}
		finally {
			instances.forEach(OurQueueClient::close);
		}
	}

	private List<OurQueueClient> start(Map<String, String> schedules) {
		return OurQueueClient.instances(INSTANCES, this.redis, this.options.application(), schedules);
	}

	// SCHEDULES schedules of the ticks' topic, each ticking by the setting given.
	private static Map<String, String> schedules(String setting, String value) {
		Map<String, String> properties = new HashMap<>();
		for (int i = 0; i < SCHEDULES; i++) {
			String key = "delayqueue.schedules.bench.tick-" + i + ".";
			properties.put(key + "topic", OurQueueClient.TICKS);
			properties.put(key + setting, value);
		}
		return properties;
	}

	private static double perSecond(long count) {
		return count / (double) PRODUCTION_WINDOW.toSeconds();
	}

	private static double millis(long micros) {
		return micros / 1000.0;
	}

	private static void pause(Duration duration) {
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted", ex);
		}
	}

}
