package io.github.delayqueue.benchmark;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Where Redis spends its time, script by script, for one topic: reads what a Redis 7
 * logged of every command it ran ({@code redis-cli --json SLOWLOG GET} from a server
 * started with {@code --slowlog-log-slower-than 0}) and sums, per script named by its
 * first key, the calls and their time, and within each script the commands it ran (logged
 * by the Lua client just before the script itself).
 *
 * <p>
 * Logging every command slows Redis down, and more so for a script that runs many
 * commands: the figures compare setups measured the same way, they are not the cost of a
 * script in a run that logs nothing. What the commands inside a script do not add up to
 * is the script's own Lua work: building strings and tables, MessagePack, and each
 * {@code redis.call}'s way in and out.
 */
final class ScriptCosts {

	private static final String LUA_CLIENT = "?:0";

	private static final Pattern NUMBERS = Pattern.compile(":\\d+");

	private static final int COMMANDS_SHOWN = 12;

	private final Map<String, Cost> scripts = new LinkedHashMap<>();

	private final Map<String, Map<String, Cost>> commands = new LinkedHashMap<>();

	private ScriptCosts() {
	}

	/**
	 * Read a slow log and sum it up.
	 * @param slowlog the output of {@code redis-cli --json SLOWLOG GET <n>}
	 * @param topic the topic whose scripts to count
	 * @return the sums, as Markdown
	 * @throws IOException if the file cannot be read
	 */
	static String read(Path slowlog, String topic) throws IOException {
		// Values are logged as raw bytes: decoding replaces what is not UTF-8.
		String text = new String(Files.readAllBytes(slowlog), StandardCharsets.UTF_8);
		List<JsonNode> entries = new ArrayList<>();
		JsonMapper.builder().build().readTree(text).forEach(entries::add);
		entries.sort(Comparator.comparingLong((entry) -> entry.get(0).asLong()));
		ScriptCosts costs = new ScriptCosts();
		costs.add(entries, "{dq:" + topic);
		return costs.markdown();
	}

	private void add(List<JsonNode> entries, String keyStart) {
		List<JsonNode> inside = new ArrayList<>();
		for (JsonNode entry : entries) {
			JsonNode args = entry.get(3);
			if (args.isEmpty()) {
				continue;
			}
			if (LUA_CLIENT.equals(entry.get(4).asString())) {
				inside.add(entry);
				continue;
			}
			if (args.get(0).asString().equalsIgnoreCase("EVALSHA") && args.size() > 3
					&& args.get(3).asString().startsWith(keyStart)) {
				String script = suffix(args.get(3).asString());
				this.scripts.computeIfAbsent(script, (name) -> new Cost()).add(entry.get(2).asLong());
				Map<String, Cost> ran = this.commands.computeIfAbsent(script, (name) -> new LinkedHashMap<>());
				for (JsonNode command : inside) {
					JsonNode commandArgs = command.get(3);
					String key = (commandArgs.size() > 1) ? suffix(commandArgs.get(1).asString()) : "";
					ran.computeIfAbsent(commandArgs.get(0).asString().toUpperCase(Locale.ROOT) + " " + key,
							(name) -> new Cost())
						.add(command.get(2).asLong());
				}
			}
			inside.clear();
		}
	}

	// A key without its hash tag, numbers and job ids: what its kind of key is called.
	private static String suffix(String key) {
		int tag = key.indexOf("}:");
		String name = (tag < 0) ? key : key.substring(tag + 1);
		name = name.replaceFirst("^(:timeline:)[^/]*", "$1<id>");
		return NUMBERS.matcher(name).replaceAll(":N");
	}

	private String markdown() {
		StringBuilder out = new StringBuilder(
				"| script (first key) / command inside | calls | per call | µs per call | µs |\n|---|--:|--:|--:|--:|\n");
		this.scripts.entrySet()
			.stream()
			.sorted(Map.Entry.comparingByValue(Comparator.comparingLong((Cost cost) -> cost.micros).reversed()))
			.forEach((script) -> {
				Cost cost = script.getValue();
				out.append(String.format(Locale.ROOT, "| **%s** | %d | | %.1f | %d |%n", script.getKey(), cost.calls,
						cost.perCall(cost.calls), cost.micros));
				long inside = 0;
				List<Map.Entry<String, Cost>> ran = new ArrayList<>(this.commands.get(script.getKey()).entrySet());
				ran.sort(Map.Entry.comparingByValue(Comparator.comparingLong((Cost c) -> c.micros).reversed()));
				for (Map.Entry<String, Cost> command : ran) {
					inside += command.getValue().micros;
				}
				for (Map.Entry<String, Cost> command : ran.subList(0, Math.min(COMMANDS_SHOWN, ran.size()))) {
					Cost c = command.getValue();
					out.append(String.format(Locale.ROOT, "| %s | | %.1f | %.1f | %d |%n", command.getKey(),
							c.calls / (double) cost.calls, c.perCall(cost.calls), c.micros));
				}
				out.append(String.format(Locale.ROOT, "| all commands inside | | | %.1f | %d |%n",
						inside / (double) cost.calls, inside));
			});
		return out.toString();
	}

	private static final class Cost {

		private long calls;

		private long micros;

		void add(long micros) {
			this.calls++;
			this.micros += micros;
		}

		double perCall(long scriptCalls) {
			return this.micros / (double) scriptCalls;
		}

	}

}
