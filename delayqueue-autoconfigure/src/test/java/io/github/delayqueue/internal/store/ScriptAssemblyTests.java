package io.github.delayqueue.internal.store;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Lua scripts as {@link DelayQueueScript} assembles them from their files and
 * libraries: files of a readable length, only the libraries a script uses, none missing,
 * and every assembled script accepted by a real Redis.
 */
@ExtendWith(RedisExtension.class)
class ScriptAssemblyTests {

	private static final String LOCATION = "io/github/delayqueue/internal/store/scripts/";

	private static final int MOST_LINES = 250;

	private static final Set<String> KEYWORDS = Set.of("and", "or", "not", "if", "elseif", "while", "until", "return",
			"in", "local", "function", "then", "do", "else", "end", "for", "repeat");

	private static final Set<String> BUILTINS = Set.of("tonumber", "tostring", "unpack", "ipairs", "pairs", "type",
			"error", "pcall", "xpcall", "assert", "select", "next", "setmetatable", "getmetatable", "rawget", "rawset",
			"rawequal", "loadstring");

	// A call of a name of its own: not a field (redis.call, string.match) nor a method.
	private static final Pattern CALL = Pattern.compile("(?<![\\w.:])([A-Za-z_]\\w*)[ \\t]*\\(");

	private static final Pattern FUNCTION = Pattern.compile("\\bfunction\\s+([A-Za-z_]\\w*)\\s*\\(");

	private static final Pattern CONSTANT = Pattern.compile("(?<![\\w.:])([A-Z][A-Z0-9_]+)\\b");

	private static final Pattern CONSTANTS_DEFINED = Pattern
		.compile("\\blocal\\s+([A-Z][A-Z0-9_]+(?:\\s*,\\s*[A-Z][A-Z0-9_]+)*)\\s*=");

	// What a library gives: its functions and constants, defined at the start of a line.
	private static final Pattern TOP_LEVEL = Pattern
		.compile("(?m)^(?:local\\s+function\\s+([A-Za-z_]\\w*)|local\\s+([A-Z][A-Z0-9_]+)\\s*=)");

	private final LuaScriptAssembler assembler = new LuaScriptAssembler(LOCATION);

	@Test
	void noLuaFileIsLongerThanTwoHundredFiftyLines() throws IOException {
		Map<String, Long> lines = new TreeMap<>();
		for (Map.Entry<String, String> file : files("**/*.lua").entrySet()) {
			lines.put(file.getKey(), file.getValue().lines().count());
		}
		assertThat(lines).containsKeys("claim.lua", "lib/timeline.lua");
		assertThat(lines).allSatisfy((file, count) -> assertThat(count).as(file).isLessThanOrEqualTo(MOST_LINES));
	}

	@Test
	void everyScriptNamesLibrariesThatExistAndGetsThemAfterWhatTheyNeed() throws IOException {
		Map<String, String> libraries = files("lib/*.lua");
		for (String script : scripts()) {
			List<String> order = this.assembler.libraries(script);
			assertThat(new HashSet<>(order)).as(script).hasSameSizeAs(order);
			for (int i = 0; i < order.size(); i++) {
				assertThat(order.subList(0, i)).as("%s: what %s needs", script, order.get(i))
					.containsAll(needs(libraries.get("lib/" + order.get(i) + ".lua")));
			}
		}
	}

	@Test
	void everyFunctionAndConstantAScriptUsesIsDefinedBeforeIt() throws IOException {
		List<String> undefined = new ArrayList<>();
		for (String script : scripts()) {
			String code = code(this.assembler.assemble(script));
			Map<String, Integer> defined = definitions(code);
			for (Use use : uses(code)) {
				Integer at = defined.get(use.name());
				if (at == null || at > use.at()) {
					undefined.add(script + ": " + use.name());
				}
			}
		}
		assertThat(undefined).isEmpty();
	}

	@Test
	void everyLibraryAScriptIsAssembledWithGivesItSomethingItUses() throws IOException {
		Map<String, String> libraryFiles = files("lib/*.lua");
		List<String> unused = new ArrayList<>();
		for (String script : scripts()) {
			Map<String, String> owners = new HashMap<>();
			Map<String, String> bodies = new HashMap<>();
			for (String library : this.assembler.libraries(script)) {
				String code = code(libraryFiles.get("lib/" + library + ".lua"));
				Matcher top = TOP_LEVEL.matcher(code);
				List<Integer> starts = new ArrayList<>();
				List<String> names = new ArrayList<>();
				while (top.find()) {
					starts.add(top.start());
					names.add((top.group(1) != null) ? top.group(1) : top.group(2));
				}
				for (int i = 0; i < names.size(); i++) {
					owners.put(names.get(i), library);
					int end = (i + 1 < starts.size()) ? starts.get(i + 1) : code.length();
					bodies.put(names.get(i), code.substring(starts.get(i), end));
				}
			}
			Set<String> reached = new HashSet<>();
			Deque<String> next = new ArrayDeque<>();
			uses(code(scriptText(script))).forEach((use) -> next.add(use.name()));
			while (!next.isEmpty()) {
				String name = next.poll();
				if (owners.containsKey(name) && reached.add(name)) {
					uses(bodies.get(name)).forEach((use) -> next.add(use.name()));
				}
			}
			Set<String> used = new HashSet<>();
			reached.forEach((name) -> used.add(owners.get(name)));
			for (String library : this.assembler.libraries(script)) {
				if (!used.contains(library)) {
					unused.add(script + ": " + library);
				}
			}
		}
		assertThat(unused).isEmpty();
	}

	@Test
	void redisCompilesEveryAssembledScript(RedisTestServer server) {
		for (DelayQueueScript script : DelayQueueScript.values()) {
			String reply = server.command("SCRIPT", "LOAD", script.script().getScriptAsString());
			assertThat(reply).as(script.name()).isEqualTo("$40\r\n" + script.sha1Hex() + "\r\n");
		}
	}

	private List<String> scripts() throws IOException {
		List<String> names = new ArrayList<>();
		for (String file : files("*.lua").keySet()) {
			names.add(file.substring(0, file.length() - ".lua".length()));
		}
		assertThat(names).hasSize(DelayQueueScript.values().length);
		return names;
	}

	private static String scriptText(String script) throws IOException {
		return new ClassPathResource(LOCATION + script + ".lua").getContentAsString(StandardCharsets.UTF_8);
	}

	private static Map<String, String> files(String pattern) throws IOException {
		Map<String, String> files = new LinkedHashMap<>();
		Resource base = new PathMatchingResourcePatternResolver().getResource("classpath:" + LOCATION);
		String root = base.getURL().toString();
		for (Resource resource : new PathMatchingResourcePatternResolver()
			.getResources("classpath:" + LOCATION + pattern)) {
			files.put(resource.getURL().toString().substring(root.length()),
					resource.getContentAsString(StandardCharsets.UTF_8));
		}
		return files;
	}

	private static List<String> needs(String library) {
		String first = library.lines().findFirst().orElseThrow();
		assertThat(first).startsWith(LuaScriptAssembler.NEEDS);
		String names = first.substring(LuaScriptAssembler.NEEDS.length()).trim();
		return names.equals("none") ? List.of() : List.of(names.split("\\s*,\\s*"));
	}

	/**
	 * Where each function and constant is first defined in code.
	 */
	private static Map<String, Integer> definitions(String code) {
		Map<String, Integer> defined = new HashMap<>();
		Matcher function = FUNCTION.matcher(code);
		while (function.find()) {
			defined.putIfAbsent(function.group(1), function.start());
		}
		Matcher constants = CONSTANTS_DEFINED.matcher(code);
		while (constants.find()) {
			for (String name : constants.group(1).split("\\s*,\\s*")) {
				defined.putIfAbsent(name, constants.start());
			}
		}
		return defined;
	}

	/**
	 * The functions code calls and the constants it reads, but for Lua's own and the
	 * script's KEYS and ARGV.
	 */
	private static List<Use> uses(String code) {
		Set<Integer> definitions = new HashSet<>();
		Matcher function = FUNCTION.matcher(code);
		while (function.find()) {
			definitions.add(function.start(1));
		}
		List<Use> uses = new ArrayList<>();
		Matcher call = CALL.matcher(code);
		while (call.find()) {
			String name = call.group(1);
			if (!definitions.contains(call.start()) && !KEYWORDS.contains(name) && !BUILTINS.contains(name)) {
				uses.add(new Use(name, call.start()));
			}
		}
		Matcher constant = CONSTANT.matcher(code);
		while (constant.find()) {
			String name = constant.group(1);
			if (!name.equals("KEYS") && !name.equals("ARGV")) {
				uses.add(new Use(name, constant.start()));
			}
		}
		return uses;
	}

	/**
	 * Lua source without its comments and with its strings emptied, offsets kept apart
	 * from those, so that only code is scanned for names.
	 */
	private static String code(String lua) {
		StringBuilder code = new StringBuilder(lua.length());
		int i = 0;
		while (i < lua.length()) {
			char c = lua.charAt(i);
			if (c == '-' && lua.startsWith("--", i)) {
				while (i < lua.length() && lua.charAt(i) != '\n') {
					i++;
				}
			}
			else if (c == '\'' || c == '"') {
				code.append(c).append(c);
				i++;
				while (i < lua.length() && lua.charAt(i) != c) {
					i += (lua.charAt(i) == '\\') ? 2 : 1;
				}
				i++;
			}
			else {
				code.append(c);
				i++;
			}
		}
		return code.toString();
	}

	private record Use(String name, int at) {

	}

}
