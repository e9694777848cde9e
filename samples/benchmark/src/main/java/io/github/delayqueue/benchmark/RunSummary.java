package io.github.delayqueue.benchmark;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Sums up several runs of the benchmark with the same flags: for every figure the median
 * over the runs with the smallest and largest value, and the ratios of each run taken
 * before their median, so that a published figure comes with its spread. Reads the
 * {@code benchmark.json} each run wrote.
 */
final class RunSummary {

	private final Map<String, List<JsonNode>> rowsByScenario = new LinkedHashMap<>();

	private final int runs;

	private RunSummary(List<JsonNode> reports) {
		this.runs = reports.size();
		for (JsonNode report : reports) {
			for (JsonNode row : report.get("results")) {
				this.rowsByScenario.computeIfAbsent(row.get("scenario").asString(), (key) -> new ArrayList<>())
					.add(row);
			}
		}
	}

	/**
	 * Read the reports in the given run directories.
	 * @param runDirectories the {@code --out} directories of the runs
	 * @return the summary
	 * @throws IOException if a report cannot be read
	 */
	static RunSummary read(List<Path> runDirectories) throws IOException {
		if (runDirectories.isEmpty()) {
			throw new IllegalArgumentException("--summarize needs the output directories of one or more runs");
		}
		JsonMapper mapper = JsonMapper.builder().build();
		List<JsonNode> reports = new ArrayList<>();
		for (Path directory : runDirectories) {
			Path file = directory.resolve("benchmark.json");
			if (!file.toFile().isFile()) {
				throw new IllegalArgumentException("No benchmark.json in " + directory + ": did that run finish?");
			}
			reports.add(mapper.readTree(file.toFile()));
		}
		return new RunSummary(reports);
	}

	/**
	 * The summary as a Markdown table.
	 * @return the table
	 */
	String markdown() {
		StringBuilder md = new StringBuilder();
		md.append("Medians of ").append(this.runs).append(" runs (smallest–largest; per run in order)\n\n");
		md.append("| Scenario | Unit | delayqueue | per run | Redisson | delayqueue ÷ Redisson | Redis limit")
			.append(" | delayqueue ÷ limit |\n");
		md.append("|---|---|--:|---|--:|--:|--:|--:|\n");
		this.rowsByScenario.forEach((scenario, rows) -> {
			List<Double> ours = values(rows, "delayqueue");
			List<Double> redisson = values(rows, "redisson");
			List<Double> raw = values(rows, "redisLimit");
			md.append("| ")
				.append(scenario)
				.append(" | ")
				.append(rows.get(0).get("unit").asString())
				.append(" | ")
				.append(spread(ours))
				.append(" | ")
				.append(ours.stream().map(Report::format).collect(Collectors.joining(" · ")))
				.append(" | ")
				.append(spread(redisson))
				.append(" | ")
				.append(spread(ratios(ours, redisson)))
				.append(" | ")
				.append(spread(raw))
				.append(" | ")
				.append(spread(ratios(ours, raw)))
				.append(" |\n");
		});
		return md.toString();
	}

	private static List<Double> values(List<JsonNode> rows, String column) {
		List<Double> values = new ArrayList<>();
		for (JsonNode row : rows) {
			JsonNode value = row.get(column);
			if (value != null && value.isNumber()) {
				values.add(value.asDouble());
			}
		}
		return values;
	}

	// Ratio of each run's figures, where both are there: taken per run, since both
	// clients ran under that run's load.
	private static List<Double> ratios(List<Double> numerators, List<Double> denominators) {
		List<Double> ratios = new ArrayList<>();
		if (numerators.size() == denominators.size()) {
			for (int i = 0; i < numerators.size(); i++) {
				if (denominators.get(i) != 0) {
					ratios.add(numerators.get(i) / denominators.get(i));
				}
			}
		}
		return ratios;
	}

	static String spread(List<Double> values) {
		if (values.isEmpty()) {
			return "–";
		}
		List<Double> sorted = values.stream().sorted().toList();
		String median = Report.format(median(sorted));
		if (sorted.size() == 1) {
			return median;
		}
		return median + " (" + Report.format(sorted.get(0)) + "–" + Report.format(sorted.get(sorted.size() - 1)) + ")";
	}

	static double median(List<Double> sorted) {
		int middle = sorted.size() / 2;
		return (sorted.size() % 2 == 1) ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
	}

}
