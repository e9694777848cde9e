package io.github.delayqueue.benchmark;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * The sizes of a run, from command-line flags. {@code --quick} picks sizes for a run of
 * under two minutes; any size flag after it overrides it.
 *
 * @param redisUrl an existing Redis to use, or {@code null} to start one
 * @param output the directory the report files go to
 * @param enqueueJobs jobs sent one by one per client
 * @param batchJobs jobs sent in batches per client
 * @param burstJobs jobs due at the same instant
 * @param consumers consumer threads in the burst and light-load scenarios
 * @param lightJobs jobs of the light load
 * @param lightWindowMillis how long the light load is spread over
 * @param memoryJobs pending jobs whose memory is measured
 * @param growthSizes the pending backlogs the growth scenario measures at
 * @param growthProbeJobs jobs sent and moved at each backlog
 * @param idleSeconds how long idle cost is measured
 * @param rawJobs jobs the raw limits are measured with
 * @param scenarios the numbers of the scenarios to run
 * @param cancelSizes the ready-list lengths the cancel latency is measured at
 * @param cancelSamples cancels measured per case, script and length
 * @param dashboardJobs delayed jobs in the topic the dashboard's answers are timed with
 * @param application how our client's application is set up: plain, or with Actuator
 * @param profile whether our client's burst drain is recorded with JDK Flight Recorder
 * and summarised
 * @param warmUpRounds the most warm-up rounds before the enqueue and burst scenarios,
 * which stop earlier once the JIT has settled (see {@code JitWarmUp})
 * @param limitJobs jobs due at once in the rate-limited topic of the {@code limits}
 * scenario
 */
record BenchmarkOptions(@Nullable String redisUrl, Path output, int enqueueJobs, int batchJobs, int burstJobs,
		int consumers, int lightJobs, long lightWindowMillis, int memoryJobs, List<Integer> growthSizes,
		int growthProbeJobs, int idleSeconds, int rawJobs, Set<String> scenarios, List<Integer> cancelSizes,
		int cancelSamples, int dashboardJobs, ApplicationSetup application, boolean profile, int warmUpRounds,
		int limitJobs) {

	static final Set<String> ALL = Set.of("1", "2", "3", "4", "5", "6", "7", "8", "9");

	/**
	 * The scenario name of the cluster comparison, which {@code --cluster} selects; not
	 * in {@link #ALL}, since it starts six more Redis servers.
	 */
	static final String CLUSTER = "cluster";

	static final String USAGE = """
			Usage: java -jar delayqueue-benchmark.jar [--quick] [--redis-url redis://host:port] [--out DIR]
			       [--enqueue N] [--batch N] [--burst N] [--light N] [--light-window-ms MS] [--memory N]
			       [--growth N,N,N] [--growth-probe N] [--idle-seconds S] [--raw N]
			       [--cancel-sizes N,N] [--cancel-samples N] [--dashboard-jobs N] [--app plain|actuator]
			       [--warm-up-rounds N] [--limit-jobs N] [--profile] [--cluster]
			       [--scenarios 1,2,...]  (default: all of 1 to 9; --cluster: one Redis against a local
			                               Redis Cluster of three masters instead, or add 'cluster';
			                               'schedules': recurring schedules on three instances;
			                               'schedules-cluster': their tick lateness on a local
			                               Redis Cluster;
			                               'limits': a rate-limited topic on two instances)
			""";

	static BenchmarkOptions full() {
		return new BenchmarkOptions(null, Path.of("target", "benchmark-results"), 20_000, 200_000, 100_000, 8, 2_000,
				5_000, 100_000, List.of(1_000, 100_000, 1_000_000), 20_000, 120, 200_000, ALL,
				List.of(1_000, 1_000_000), 500, 1_000_000, ApplicationSetup.PLAIN, false, 30, 1_000);
	}

	static BenchmarkOptions quick() {
		return new BenchmarkOptions(null, Path.of("target", "benchmark-results"), 5_000, 50_000, 20_000, 8, 2_000,
				5_000, 20_000, List.of(1_000, 10_000, 100_000), 5_000, 5, 50_000, ALL, List.of(1_000, 100_000), 200,
				100_000, ApplicationSetup.PLAIN, false, 2, 500);
	}

	static BenchmarkOptions parse(String... args) {
		BenchmarkOptions options = Arrays.asList(args).contains("--quick") ? quick() : full();
		for (int i = 0; i < args.length; i++) {
			String flag = args[i];
			if (flag.equals("--quick")) {
				continue;
			}
			if (flag.equals("--profile")) {
				options = options.profiled();
				continue;
			}
			if (flag.equals("--cluster")) {
				options = options.with("--scenarios", CLUSTER);
				continue;
			}
			if (flag.equals("--help")) {
				throw new IllegalArgumentException(USAGE);
			}
			if (i + 1 >= args.length) {
				throw new IllegalArgumentException("Flag " + flag + " needs a value\n" + USAGE);
			}
			String value = args[++i];
			options = options.with(flag, value);
		}
		return options;
	}

	private BenchmarkOptions profiled() {
		return new BenchmarkOptions(this.redisUrl, this.output, this.enqueueJobs, this.batchJobs, this.burstJobs,
				this.consumers, this.lightJobs, this.lightWindowMillis, this.memoryJobs, this.growthSizes,
				this.growthProbeJobs, this.idleSeconds, this.rawJobs, this.scenarios, this.cancelSizes,
				this.cancelSamples, this.dashboardJobs, this.application, true, this.warmUpRounds, this.limitJobs);
	}

	private BenchmarkOptions with(String flag, String value) {
		BenchmarkOptions o = this;
		return switch (flag) {
			case "--redis-url" -> new BenchmarkOptions(value, o.output, o.enqueueJobs, o.batchJobs, o.burstJobs,
					o.consumers, o.lightJobs, o.lightWindowMillis, o.memoryJobs, o.growthSizes, o.growthProbeJobs,
					o.idleSeconds, o.rawJobs, o.scenarios, o.cancelSizes, o.cancelSamples, o.dashboardJobs,
					o.application, o.profile, o.warmUpRounds, o.limitJobs);
			case "--out" -> new BenchmarkOptions(o.redisUrl, Path.of(value), o.enqueueJobs, o.batchJobs, o.burstJobs,
					o.consumers, o.lightJobs, o.lightWindowMillis, o.memoryJobs, o.growthSizes, o.growthProbeJobs,
					o.idleSeconds, o.rawJobs, o.scenarios, o.cancelSizes, o.cancelSamples, o.dashboardJobs,
					o.application, o.profile, o.warmUpRounds, o.limitJobs);
			case "--enqueue" -> new BenchmarkOptions(o.redisUrl, o.output, positive(flag, value), o.batchJobs,
					o.burstJobs, o.consumers, o.lightJobs, o.lightWindowMillis, o.memoryJobs, o.growthSizes,
					o.growthProbeJobs, o.idleSeconds, o.rawJobs, o.scenarios, o.cancelSizes, o.cancelSamples,
					o.dashboardJobs, o.application, o.profile, o.warmUpRounds, o.limitJobs);
			case "--batch" -> new BenchmarkOptions(o.redisUrl, o.output, o.enqueueJobs, positive(flag, value),
					o.burstJobs, o.consumers, o.lightJobs, o.lightWindowMillis, o.memoryJobs, o.growthSizes,
					o.growthProbeJobs, o.idleSeconds, o.rawJobs, o.scenarios, o.cancelSizes, o.cancelSamples,
					o.dashboardJobs, o.application, o.profile, o.warmUpRounds, o.limitJobs);
			case "--burst" -> new BenchmarkOptions(o.redisUrl, o.output, o.enqueueJobs, o.batchJobs,
					positive(flag, value), o.consumers, o.lightJobs, o.lightWindowMillis, o.memoryJobs, o.growthSizes,
					o.growthProbeJobs, o.idleSeconds, o.rawJobs, o.scenarios, o.cancelSizes, o.cancelSamples,
					o.dashboardJobs, o.application, o.profile, o.warmUpRounds, o.limitJobs);
			case "--light" -> new BenchmarkOptions(o.redisUrl, o.output, o.enqueueJobs, o.batchJobs, o.burstJobs,
					o.consumers, positive(flag, value), o.lightWindowMillis, o.memoryJobs, o.growthSizes,
					o.growthProbeJobs, o.idleSeconds, o.rawJobs, o.scenarios, o.cancelSizes, o.cancelSamples,
					o.dashboardJobs, o.application, o.profile, o.warmUpRounds, o.limitJobs);
			case "--light-window-ms" -> new BenchmarkOptions(o.redisUrl, o.output, o.enqueueJobs, o.batchJobs,
					o.burstJobs, o.consumers, o.lightJobs, positive(flag, value), o.memoryJobs, o.growthSizes,
					o.growthProbeJobs, o.idleSeconds, o.rawJobs, o.scenarios, o.cancelSizes, o.cancelSamples,
					o.dashboardJobs, o.application, o.profile, o.warmUpRounds, o.limitJobs);
			case "--memory" -> new BenchmarkOptions(o.redisUrl, o.output, o.enqueueJobs, o.batchJobs, o.burstJobs,
					o.consumers, o.lightJobs, o.lightWindowMillis, positive(flag, value), o.growthSizes,
					o.growthProbeJobs, o.idleSeconds, o.rawJobs, o.scenarios, o.cancelSizes, o.cancelSamples,
					o.dashboardJobs, o.application, o.profile, o.warmUpRounds, o.limitJobs);
			case "--growth" -> new BenchmarkOptions(o.redisUrl, o.output, o.enqueueJobs, o.batchJobs, o.burstJobs,
					o.consumers, o.lightJobs, o.lightWindowMillis, o.memoryJobs,
					Arrays.stream(value.split(",")).map((size) -> positive(flag, size.trim())).toList(),
					o.growthProbeJobs, o.idleSeconds, o.rawJobs, o.scenarios, o.cancelSizes, o.cancelSamples,
					o.dashboardJobs, o.application, o.profile, o.warmUpRounds, o.limitJobs);
			case "--growth-probe" -> new BenchmarkOptions(o.redisUrl, o.output, o.enqueueJobs, o.batchJobs, o.burstJobs,
					o.consumers, o.lightJobs, o.lightWindowMillis, o.memoryJobs, o.growthSizes, positive(flag, value),
					o.idleSeconds, o.rawJobs, o.scenarios, o.cancelSizes, o.cancelSamples, o.dashboardJobs,
					o.application, o.profile, o.warmUpRounds, o.limitJobs);
			case "--idle-seconds" -> new BenchmarkOptions(o.redisUrl, o.output, o.enqueueJobs, o.batchJobs, o.burstJobs,
					o.consumers, o.lightJobs, o.lightWindowMillis, o.memoryJobs, o.growthSizes, o.growthProbeJobs,
					positive(flag, value), o.rawJobs, o.scenarios, o.cancelSizes, o.cancelSamples, o.dashboardJobs,
					o.application, o.profile, o.warmUpRounds, o.limitJobs);
			case "--raw" -> new BenchmarkOptions(o.redisUrl, o.output, o.enqueueJobs, o.batchJobs, o.burstJobs,
					o.consumers, o.lightJobs, o.lightWindowMillis, o.memoryJobs, o.growthSizes, o.growthProbeJobs,
					o.idleSeconds, positive(flag, value), o.scenarios, o.cancelSizes, o.cancelSamples, o.dashboardJobs,
					o.application, o.profile, o.warmUpRounds, o.limitJobs);
			case "--scenarios" -> new BenchmarkOptions(o.redisUrl, o.output, o.enqueueJobs, o.batchJobs, o.burstJobs,
					o.consumers, o.lightJobs, o.lightWindowMillis, o.memoryJobs, o.growthSizes, o.growthProbeJobs,
					o.idleSeconds, o.rawJobs, Set.of(value.split(",")), o.cancelSizes, o.cancelSamples, o.dashboardJobs,
					o.application, o.profile, o.warmUpRounds, o.limitJobs);
			case "--cancel-sizes" -> new BenchmarkOptions(o.redisUrl, o.output, o.enqueueJobs, o.batchJobs, o.burstJobs,
					o.consumers, o.lightJobs, o.lightWindowMillis, o.memoryJobs, o.growthSizes, o.growthProbeJobs,
					o.idleSeconds, o.rawJobs, o.scenarios,
					Arrays.stream(value.split(",")).map((size) -> positive(flag, size.trim())).toList(),
					o.cancelSamples, o.dashboardJobs, o.application, o.profile, o.warmUpRounds, o.limitJobs);
			case "--cancel-samples" -> new BenchmarkOptions(o.redisUrl, o.output, o.enqueueJobs, o.batchJobs,
					o.burstJobs, o.consumers, o.lightJobs, o.lightWindowMillis, o.memoryJobs, o.growthSizes,
					o.growthProbeJobs, o.idleSeconds, o.rawJobs, o.scenarios, o.cancelSizes, positive(flag, value),
					o.dashboardJobs, o.application, o.profile, o.warmUpRounds, o.limitJobs);
			case "--dashboard-jobs" -> new BenchmarkOptions(o.redisUrl, o.output, o.enqueueJobs, o.batchJobs,
					o.burstJobs, o.consumers, o.lightJobs, o.lightWindowMillis, o.memoryJobs, o.growthSizes,
					o.growthProbeJobs, o.idleSeconds, o.rawJobs, o.scenarios, o.cancelSizes, o.cancelSamples,
					positive(flag, value), o.application, o.profile, o.warmUpRounds, o.limitJobs);
			case "--app" -> new BenchmarkOptions(o.redisUrl, o.output, o.enqueueJobs, o.batchJobs, o.burstJobs,
					o.consumers, o.lightJobs, o.lightWindowMillis, o.memoryJobs, o.growthSizes, o.growthProbeJobs,
					o.idleSeconds, o.rawJobs, o.scenarios, o.cancelSizes, o.cancelSamples, o.dashboardJobs,
					ApplicationSetup.parse(value), o.profile, o.warmUpRounds, o.limitJobs);
			case "--warm-up-rounds" -> new BenchmarkOptions(o.redisUrl, o.output, o.enqueueJobs, o.batchJobs,
					o.burstJobs, o.consumers, o.lightJobs, o.lightWindowMillis, o.memoryJobs, o.growthSizes,
					o.growthProbeJobs, o.idleSeconds, o.rawJobs, o.scenarios, o.cancelSizes, o.cancelSamples,
					o.dashboardJobs, o.application, o.profile, positive(flag, value), o.limitJobs);
			case "--limit-jobs" -> new BenchmarkOptions(o.redisUrl, o.output, o.enqueueJobs, o.batchJobs, o.burstJobs,
					o.consumers, o.lightJobs, o.lightWindowMillis, o.memoryJobs, o.growthSizes, o.growthProbeJobs,
					o.idleSeconds, o.rawJobs, o.scenarios, o.cancelSizes, o.cancelSamples, o.dashboardJobs,
					o.application, o.profile, o.warmUpRounds, positive(flag, value));
			default -> throw new IllegalArgumentException("Unknown flag " + flag + "\n" + USAGE);
		};
	}

	private static int positive(String flag, String value) {
		try {
			int parsed = Integer.parseInt(value.replace("_", ""));
			if (parsed > 0) {
				return parsed;
			}
		}
		catch (NumberFormatException ex) {
			// Reported below with the flag's name.
		}
		throw new IllegalArgumentException("Flag " + flag + " needs a positive whole number, was '" + value + "'");
	}

}
