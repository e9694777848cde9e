package io.github.delayqueue.benchmark;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the whole benchmark with tiny sizes against a real Redis, so that the command in
 * docs/benchmarks.md keeps working.
 */
class BenchmarkApplicationTests {

	@TempDir
	Path output;

	@Test
	void runsEveryScenarioOnBothQueuesAndWritesTheTableAndJson() throws Exception {
		String url = System.getenv("TEST_REDIS_URL");
		BenchmarkOptions options = BenchmarkOptions.parse("--quick", "--out", this.output.toString(), "--enqueue",
				"200", "--batch", "1000", "--burst", "500", "--light", "100", "--light-window-ms", "300", "--memory",
				"1000", "--growth", "100,1000", "--growth-probe", "200", "--idle-seconds", "1", "--raw", "1000",
				"--cancel-sizes", "100,1000", "--cancel-samples", "20", "--dashboard-jobs", "1000");
		if (url != null && !url.isBlank()) {
			options = BenchmarkOptions.parse("--quick", "--redis-url", url, "--out", this.output.toString(),
					"--enqueue", "200", "--batch", "1000", "--burst", "500", "--light", "100", "--light-window-ms",
					"300", "--memory", "1000", "--growth", "100,1000", "--growth-probe", "200", "--idle-seconds", "1",
					"--raw", "1000", "--cancel-sizes", "100,1000", "--cancel-samples", "20", "--dashboard-jobs",
					"1000");
		}

		Report report = BenchmarkApplication.run(options);

		List<String> numbers = report.rows().stream().map((row) -> row.scenario().substring(0, 1)).toList();
		assertThat(numbers).contains("1", "2", "3", "4", "5", "6", "7", "8", "9");
		for (Report.Row row : report.rows()) {
			if (row.redisson() == null && redissonStalled(report, row)) {
				// Redisson's delayed queue stopped moving jobs in that scenario, which
				// the
				// report says; ours are checked below.
				assertThat(row.ours()).as(row.scenario()).isNotNull();
				continue;
			}
			if (row.scenario().startsWith("7")) {
				assertThat(row.raw()).as(row.scenario()).isPositive();
			}
			else if (row.scenario().startsWith("9")) {
				// Server time of a dashboard answer.
				assertThat(row.ours()).as(row.scenario()).isPositive();
				assertThat(row.redisson()).as(row.scenario()).isNull();
			}
			else if (row.scenario().startsWith("8")) {
				// Latencies of our scripts, this version's and the previous one's; Redis
				// may spend less than a microsecond on one.
				assertThat(row.ours()).as(row.scenario()).isNotNegative();
				assertThat(row.redisson()).as(row.scenario()).isNull();
			}
			else if (row.unit().equals("jobs/s") || row.unit().equals("bytes")) {
				assertThat(row.ours()).as(row.scenario()).isPositive();
				assertThat(row.redisson()).as(row.scenario()).isPositive();
			}
			else {
				assertThat(row.ours()).as(row.scenario()).isNotNegative();
				assertThat(row.redisson()).as(row.scenario()).isNotNegative();
			}
		}
		assertThat(report.row("2a. burst of 500 due at once, 8 consumers: due time to last ack").raw()).isPositive();
		// Two sizes, four cases, four figures each.
		assertThat(report.rows()).filteredOn((row) -> row.scenario().startsWith("8")).hasSize(2 * 4 * 4);
		assertThat(report.row("8d. cancel of a READY job, 1,000 ready, previous LREM script: round trip p99").ours())
			.isPositive();
		assertThat(report.row("8b. cancel of a done job, 1,000 ready, previous LREM script: Redis busy p50"))
			.isNotNull();
		assertThat(report.rows()).filteredOn((row) -> row.scenario().startsWith("9")).hasSize(13);
		String markdown = Files.readString(this.output.resolve("benchmark.md"));
		assertThat(markdown).contains("| Scenario | Unit | delayqueue | Redisson |", "CPU cores", "Redis");
		// Quick runs warm up for at most two rounds, and say how long the JIT compiled.
		assertThat(markdown).containsPattern("1a: [12] warm-up rounds of 200 sends by each client")
			.containsPattern("2, delayqueue: [12] warm-up rounds of a burst of 500 jobs.*JIT compile time per round")
			.contains("during the measured burst: ");
		JsonNode json = JsonMapper.builder().build().readTree(this.output.resolve("benchmark.json").toFile());
		assertThat(json.get("results").size()).isEqualTo(report.rows().size());
		assertThat(json.get("environment").get("CPU cores").asInt()).isPositive();
	}

	@Test
	void comparesOneRedisWithALocalClusterOfThreeMasters() throws Exception {
		List<String> args = new ArrayList<>(
				List.of("--cluster", "--out", this.output.toString(), "--batch", "2000", "--burst", "1000"));
		String url = System.getenv("TEST_REDIS_URL");
		if (url != null && !url.isBlank()) {
			args.addAll(List.of("--redis-url", url));
		}

		Report report = BenchmarkApplication.run(BenchmarkOptions.parse(args.toArray(String[]::new)));

		assertThat(report.rows()).extracting((row) -> row.scenario().substring(0, row.scenario().indexOf('.')))
			.containsExactly("C1", "C2", "C3", "C4", "C5", "C6", "C7", "C8", "C9", "C10", "C11", "C12");
		for (Report.Row row : report.rows()) {
			// First the cluster, then one Redis.
			assertThat(row.ours()).as(row.scenario()).isPositive();
			assertThat(row.redisson()).as(row.scenario()).isPositive();
		}
		assertThat(Files.readString(this.output.resolve("benchmark.md")))
			.contains("| Scenario | Unit | cluster | one Redis | cluster ÷ one Redis |", "Redis Cluster");
	}

	@Test
	void measuresARateLimitOnTwoInstances() throws Exception {
		List<String> args = new ArrayList<>(
				List.of("--out", this.output.toString(), "--scenarios", RateLimitScenario.NAME, "--limit-jobs", "150"));
		String url = System.getenv("TEST_REDIS_URL");
		if (url != null && !url.isBlank()) {
			args.addAll(List.of("--redis-url", url));
		}

		Report report = BenchmarkApplication.run(BenchmarkOptions.parse(args.toArray(String[]::new)));

		assertThat(report.rows()).extracting((row) -> row.scenario().substring(0, row.scenario().indexOf('.')))
			.containsExactly("11a", "11b", "11c", "11d", "11e", "11f", "11g", "11h");
		// 150 starts under a limit of 100 per second: a perfect limiter takes one second.
		assertThat(report.row("11c. limits: first to last start, a perfect limiter").ours()).isEqualTo(1.0);
		assertThat(report.rows().get(0).ours()).isGreaterThanOrEqualTo(100.0);
		// The limiter's own log holds the limit exactly, on the Redis clock.
		assertThat(report.rows().get(6).ours()).isEqualTo(100.0);
	}

	@Test
	void profilesOurBurstInAnApplicationWithActuator() throws Exception {
		String url = System.getenv("TEST_REDIS_URL");
		List<String> args = new ArrayList<>(List.of("--quick", "--out", this.output.toString(), "--scenarios", "2",
				"--burst", "500", "--raw", "1000", "--app", "actuator", "--profile"));
		if (url != null && !url.isBlank()) {
			args.addAll(List.of("--redis-url", url));
		}

		Report report = BenchmarkApplication.run(BenchmarkOptions.parse(args.toArray(String[]::new)));

		assertThat(report.row("2a. burst of 500 due at once, 8 consumers: due time to last ack").ours()).isPositive();
		assertThat(this.output.resolve("profile-burst.jfr")).isNotEmptyFile();
		String profile = Files.readString(this.output.resolve("profile-burst.md"));
		assertThat(profile).contains("Profile of our client's burst drain (500 jobs)", "## CPU: execution samples",
				"## Allocation");
		if (Files.isDirectory(Path.of("/proc/self/task"))) {
			assertThat(profile).contains("## CPU by thread", "| **all** |");
			assertThat(report.row("2e. burst: JVM CPU per job, the JIT compiler's threads left out").ours())
				.isNotNegative();
		}
	}

	// Whether the report notes that Redisson had no figures in the row's scenario.
	private static boolean redissonStalled(Report report, Report.Row row) {
		String scenario = row.scenario().substring(0, 1);
		return report.notes()
			.stream()
			.anyMatch((note) -> note.startsWith(scenario) && note.contains("Redisson: no figures"));
	}

}
