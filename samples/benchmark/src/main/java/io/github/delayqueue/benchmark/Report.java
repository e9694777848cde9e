package io.github.delayqueue.benchmark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Collects the figures of a run and writes them as a Markdown table and as JSON.
 */
final class Report {

	private final Map<String, Object> environment = new LinkedHashMap<>();

	private final List<Row> rows = new ArrayList<>();

	private final List<String> notes = new ArrayList<>();

	private String first = "delayqueue";

	private String second = "Redisson";

	/**
	 * Name the two compared columns, for a run that compares something else than our
	 * starter and Redisson.
	 * @param first the title of the first column
	 * @param second the title of the second column
	 */
	void columns(String first, String second) {
		this.first = first;
		this.second = second;
	}

	void environment(String name, Object value) {
		this.environment.put(name, value);
	}

	void add(Row row) {
		this.rows.add(row);
		System.out.println("  " + row.scenario() + ": " + this.first + " " + format(row.ours()) + ", " + this.second
				+ " " + format(row.redisson()) + ", raw " + format(row.raw()) + " " + row.unit());
	}

	void note(String note) {
		this.notes.add(note);
		System.out.println("  note: " + note);
	}

	List<Row> rows() {
		return this.rows;
	}

	List<String> notes() {
		return this.notes;
	}

	@Nullable Row row(String scenario) {
		return this.rows.stream().filter((row) -> row.scenario().equals(scenario)).findFirst().orElse(null);
	}

	String markdown() {
		StringBuilder md = new StringBuilder();
		this.environment.forEach((name, value) -> md.append("- ").append(name).append(": ").append(value).append('\n'));
		md.append('\n');
		md.append("| Scenario | Unit | " + this.first + " | " + this.second + " | " + this.first + " ÷ " + this.second
				+ " | Redis limit | " + this.first + " ÷ limit |\n");
		md.append("|---|---|--:|--:|--:|--:|--:|\n");
		for (Row row : this.rows) {
			md.append("| ")
				.append(row.scenario())
				.append(" | ")
				.append(row.unit())
				.append(" | ")
				.append(format(row.ours()))
				.append(" | ")
				.append(format(row.redisson()))
				.append(" | ")
				.append(ratio(row.ours(), row.redisson()))
				.append(" | ")
				.append(format(row.raw()))
				.append(" | ")
				.append(ratio(row.ours(), row.raw()))
				.append(" |\n");
		}
		if (!this.notes.isEmpty()) {
			md.append('\n');
			this.notes.forEach((note) -> md.append("- ").append(note).append('\n'));
		}
		return md.toString();
	}

	String json() {
		Map<String, Object> root = new LinkedHashMap<>();
		root.put("environment", this.environment);
		List<Map<String, Object>> results = new ArrayList<>();
		for (Row row : this.rows) {
			Map<String, Object> result = new LinkedHashMap<>();
			result.put("scenario", row.scenario());
			result.put("unit", row.unit());
			result.put("delayqueue", row.ours());
			result.put("redisson", row.redisson());
			result.put("redisLimit", row.raw());
			results.add(result);
		}
		root.put("results", results);
		root.put("notes", this.notes);
		return JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build().writeValueAsString(root);
	}

	void write(Path directory) throws IOException {
		Files.createDirectories(directory);
		Files.writeString(directory.resolve("benchmark.md"), markdown());
		Files.writeString(directory.resolve("benchmark.json"), json());
	}

	static String format(@Nullable Double value) {
		if (value == null) {
			return "–";
		}
		double v = value;
		if (Math.abs(v) >= 100) {
			return String.format(Locale.ROOT, "%,.0f", v);
		}
		if (Math.abs(v) >= 10) {
			return String.format(Locale.ROOT, "%.1f", v);
		}
		return String.format(Locale.ROOT, "%.2f", v);
	}

	private static String ratio(@Nullable Double a, @Nullable Double b) {
		if (a == null || b == null || b == 0) {
			return "–";
		}
		return String.format(Locale.ROOT, "%.2f", a / b);
	}

	/**
	 * One line of the table.
	 *
	 * @param scenario what was measured
	 * @param unit the unit of the three figures
	 * @param ours our starter's figure
	 * @param redisson Redisson's figure
	 * @param raw what Redis itself does without client logic, where it applies
	 */
	record Row(String scenario, String unit, @Nullable Double ours, @Nullable Double redisson, @Nullable Double raw) {

	}

}
