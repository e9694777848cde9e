package io.github.delayqueue.benchmark;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class RunSummaryTests {

	@TempDir
	Path runs;

	@Test
	void givesTheMedianOfEachFigureWithItsRangeAndTheRatiosOfEachRun() throws IOException {
		write("run1", 60_000, 2_000, 50_000, 12.0);
		write("run2", 80_000, 2_500, 60_000, 9.0);
		write("run3", 70_000, 1_000, 70_000, 10.0);
		String table = RunSummary
			.read(List.of(this.runs.resolve("run1"), this.runs.resolve("run2"), this.runs.resolve("run3")))
			.markdown();
		assertThat(table).startsWith("Medians of 3 runs");
		// Ratios per run: 30, 32, 70 against Redisson; 1.2, 1.33, 1.0 against the limit.
		assertThat(table).contains("| 2a. burst | jobs/s | 70,000 (60,000–80,000) | 60,000 · 80,000 · 70,000 | "
				+ "2,000 (1,000–2,500) | 32.0 (30.0–70.0) | 60,000 (50,000–70,000) | 1.20 (1.00–1.33) |");
		assertThat(table).contains("| 2c. CPU | µs | 10.0 (9.00–12.0) | 12.0 · 9.00 · 10.0 | – | – | – | – |");
	}

	@Test
	void takesTheMeanOfTheMiddleTwoOfAnEvenNumberOfRuns() {
		assertThat(RunSummary.median(List.of(1.0, 2.0, 4.0, 10.0))).isEqualTo(3.0);
		assertThat(RunSummary.spread(List.of(5.0))).isEqualTo("5.00");
		assertThat(RunSummary.spread(List.of())).isEqualTo("–");
	}

	@Test
	void namesTheDirectoryOfARunThatLeftNoReport() {
		assertThatIllegalArgumentException().isThrownBy(() -> RunSummary.read(List.of(this.runs.resolve("unfinished"))))
			.withMessageContaining("unfinished")
			.withMessageContaining("benchmark.json");
		assertThatIllegalArgumentException().isThrownBy(() -> RunSummary.read(List.of()))
			.withMessageContaining("--summarize");
	}

	private void write(String run, double ours, double redisson, double raw, double cpu) throws IOException {
		Report report = new Report();
		report.add(new Report.Row("2a. burst", "jobs/s", ours, redisson, raw));
		report.add(new Report.Row("2c. CPU", "µs", cpu, null, null));
		report.write(this.runs.resolve(run));
	}

}
