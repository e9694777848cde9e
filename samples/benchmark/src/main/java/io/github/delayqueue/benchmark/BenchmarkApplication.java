package io.github.delayqueue.benchmark;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.Set;

/**
 * Runs every scenario against our starter and Redisson on one Redis, prints the results
 * as a Markdown table and writes it, with a JSON copy, to the output directory.
 */
public final class BenchmarkApplication {

	private static final int IDLE_TOPICS = 10;

	// Sums up runs made earlier (see repeat.sh) instead of running.
	private static final String SUMMARIZE = "--summarize";

	// Sums up a slow log of every command, script by script (see ScriptCosts).
	private static final String SCRIPT_COSTS = "--script-costs";

	private BenchmarkApplication() {
	}

	public static void main(String[] args) throws IOException {
		if (args.length > 0 && args[0].equals(SUMMARIZE)) {
			summarize(Arrays.asList(args).subList(1, args.length));
			return;
		}
		if (args.length > 0 && args[0].equals(SCRIPT_COSTS)) {
			if (args.length != 3) {
				System.err.println("--script-costs needs a slow log (redis-cli --json SLOWLOG GET) and a topic");
				System.exit(2);
			}
			System.out.print(ScriptCosts.read(Path.of(args[1]), args[2]));
			return;
		}
		BenchmarkOptions options;
		try {
			options = BenchmarkOptions.parse(args);
		}
		catch (IllegalArgumentException ex) {
			System.err.println(ex.getMessage());
			System.exit(2);
			return;
		}
		Report report = run(options);
		System.out.println();
		System.out.println(report.markdown());
		System.out.println("Written to " + options.output().toAbsolutePath());
		System.exit(0);
	}

	private static void summarize(List<String> runDirectories) throws IOException {
		try {
			System.out.print(RunSummary.read(runDirectories.stream().map(Path::of).toList()).markdown());
		}
		catch (IllegalArgumentException ex) {
			System.err.println(ex.getMessage());
			System.exit(2);
		}
	}

	/**
	 * Run every scenario and write the report.
	 * @param options the sizes
	 * @return the report
	 * @throws IOException if the report cannot be written
	 */
	static Report run(BenchmarkOptions options) throws IOException {
		Report report = new Report();
		Instant started = Instant.now();
		try (BenchmarkRedis redis = BenchmarkRedis.connectOrStart(options.redisUrl())) {
			report.environment("Started", started);
			report.environment("CPU cores", Runtime.getRuntime().availableProcessors());
			report.environment("Load average at start (1, 5, 15 min)", loadAverage());
			report.environment("Java", System.getProperty("java.vm.name") + " " + Runtime.version());
			report.environment("Redis", redis.version() + " (" + redis.origin() + ")");
			report.environment("Redisson", version("org.redisson", "redisson"));
			report.environment("Options", options);
			report.environment("Our application",
					(options.application() == ApplicationSetup.ACTUATOR)
							? "with Actuator and a web server (meters, Lettuce command observations, the starter's "
									+ (Boolean.getBoolean("delayqueue.observation.enabled") ? "observations on)"
											: "observations off: nothing traces)")
							: "plain: no Actuator, no meters, no observation registry");
			Scenarios scenarios = new Scenarios(redis, options, report);
			RawRedisLimits raw = new RawRedisLimits(redis);
			System.out.println("delayqueue benchmark on Redis " + redis.version() + " at " + redis.url());
			if (options.scenarios().contains(BenchmarkOptions.CLUSTER)) {
				step("cluster: one Redis against a local cluster of three masters");
				if (options.scenarios().size() == 1) {
					report.columns("cluster", "one Redis");
				}
				try (BenchmarkCluster cluster = BenchmarkCluster.start()) {
					report.environment("Redis Cluster",
							"3 masters, 3 replicas, Redis " + cluster.version() + ", on this machine's loopback");
					new ClusterScenarios(options, report).run(redis, cluster);
				}
			}
			if (!Collections.disjoint(options.scenarios(), Set.of("1", "2", "3", "4", "5"))) {
				compared(redis, scenarios, raw, options);
			}
			if (options.scenarios().contains("6")) {
				idle(redis, scenarios, report, options);
			}
			if (options.scenarios().contains("7")) {
				step("7. raw Redis");
				report.add(new Report.Row("7a. raw: enqueue script, 1 job per call, pipelined (no client library)",
						"jobs/s", null, null, raw.pipelinedEnqueue(options.rawJobs())));
				report.add(new Report.Row("7b. raw: plain ZADD, pipelined (no client library)", "commands/s", null,
						null, raw.pipelinedZadd(options.rawJobs())));
				report.add(new Report.Row("7c. raw memory: a 100-byte record in a hash by its id, no due-time index",
						"bytes", null, null, raw.memoryOfRecordByIdAlone(options.memoryJobs())));
				report.add(new Report.Row("7d. raw memory: an id in a sorted set by due time, no record", "bytes", null,
						null, raw.memoryOfDueIndexAlone(options.memoryJobs())));
				report.add(new Report.Row("7e. raw memory: id and record packed in a list, no way to find either",
						"bytes", null, null, raw.memoryPackedInList(options.memoryJobs())));
			}
			if (options.scenarios().contains("8")) {
				step("8. cancel latency");
				CancelLatency cancel = new CancelLatency(redis);
				for (int ready : options.cancelSizes()) {
					CancelLatency.rows(ready, cancel.measure(ready, options.cancelSamples())).forEach(report::add);
				}
			}
			if (options.scenarios().contains("9")) {
				step("9. dashboard");
				new DashboardTimings(redis).measure(options.dashboardJobs()).forEach(report::add);
			}
			if (options.scenarios().contains(ScheduleScenario.NAME)) {
				step("schedules: " + ScheduleScenario.SCHEDULES + " recurring schedules on three instances");
				new ScheduleScenario(redis, options, report).run();
			}
			if (options.scenarios().contains(ScheduleScenario.CLUSTER_NAME)) {
				step("schedules on a Redis Cluster: " + ScheduleScenario.SCHEDULES
						+ " recurring schedules on three instances");
				try (BenchmarkCluster cluster = BenchmarkCluster.start()) {
					report.environment("Redis Cluster",
							"3 masters, 3 replicas, Redis " + cluster.version() + ", on this machine's loopback");
					new ScheduleScenario(redis, options, report).runOnCluster(cluster);
				}
			}
			if (options.scenarios().contains(RateLimitScenario.NAME)) {
				step("limits: " + options.limitJobs() + " jobs due at once in a rate-limited topic, on two instances");
				new RateLimitScenario(redis, options, report).run();
			}
			redis.flushAll();
			report.environment("Load average at end (1, 5, 15 min)", loadAverage());
			report.environment("Duration", Duration.between(started, Instant.now()).withNanos(0));
		}
		report.write(options.output());
		return report;
	}

	// The scenarios that compare our starter with Redisson, both clients up at once.
	private static void compared(BenchmarkRedis redis, Scenarios scenarios, RawRedisLimits raw,
			BenchmarkOptions options) {
		try (QueueClient ours = new OurQueueClient(redis, options.application());
				QueueClient redisson = new RedissonQueueClient(redis)) {
			if (options.scenarios().contains("1")) {
				step("1. enqueue");
				scenarios.enqueue(ours, redisson, raw);
			}
			if (options.scenarios().contains("2")) {
				step("2. burst");
				scenarios.burst(ours, redisson, raw);
			}
			if (options.scenarios().contains("3")) {
				step("3. light load");
				scenarios.lightLoad(ours, redisson);
			}
			if (options.scenarios().contains("4")) {
				step("4. memory");
				scenarios.memory(ours, redisson, raw);
			}
			if (options.scenarios().contains("5")) {
				step("5. growth");
				scenarios.growth(ours, redisson);
			}
		}
	}

	// Each client runs alone in the JVM while its idle cost is measured.
	private static void idle(BenchmarkRedis redis, Scenarios scenarios, Report report, BenchmarkOptions options) {
		step("6. idle");
		double[] oursIdle;
		try (QueueClient ours = new OurQueueClient(redis, options.application())) {
			oursIdle = scenarios.idle(ours, IDLE_TOPICS);
		}
		double[] redissonIdle;
		try (QueueClient redisson = new RedissonQueueClient(redis)) {
			redissonIdle = scenarios.idle(redisson, IDLE_TOPICS);
		}
		report.add(new Report.Row("6a. idle, " + IDLE_TOPICS + " topics with consumers, no jobs: Redis commands",
				"commands/s", oursIdle[0], redissonIdle[0], null));
		report.add(new Report.Row("6b. idle: JVM process CPU", "% of a core", oursIdle[1], redissonIdle[1], null));
	}

	private static void step(String name) {
		System.out.println(name);
	}

	private static String loadAverage() {
		try {
			String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
			return fields[0] + ", " + fields[1] + ", " + fields[2];
		}
		catch (IOException | RuntimeException ex) {
			return "unknown";
		}
	}

	private static String version(String group, String artifact) {
		String resource = "META-INF/maven/" + group + "/" + artifact + "/pom.properties";
		try (InputStream in = BenchmarkApplication.class.getClassLoader().getResourceAsStream(resource)) {
			if (in == null) {
				return "unknown";
			}
			Properties properties = new Properties();
			properties.load(in);
			return properties.getProperty("version", "unknown");
		}
		catch (IOException ex) {
			return "unknown";
		}
	}

}
