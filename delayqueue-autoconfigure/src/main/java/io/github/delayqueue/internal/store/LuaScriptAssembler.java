package io.github.delayqueue.internal.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import org.springframework.core.io.ClassPathResource;

/**
 * Assembles a Lua script's text from its file and the library files it needs. Redis keeps
 * no code shared between scripts, so each script is loaded with the libraries it uses in
 * front: those its first line names ({@code -- needs: clock, timeline}, or
 * {@code -- needs: none}), those they name in turn, each once and after the libraries it
 * needs. Scripts live in one classpath folder, libraries in its {@code lib} folder.
 *
 * @author delayqueue contributors
 */
final class LuaScriptAssembler {

	/**
	 * How every script and library starts: the libraries it needs.
	 */
	static final String NEEDS = "-- needs:";

	private static final String NONE = "none";

	private static final Pattern NAME = Pattern.compile("[a-z0-9]+(-[a-z0-9]+)*");

	private final String location;

	private final String libraryLocation;

	private final Map<String, Source> libraries = new HashMap<>();

	/**
	 * Create an assembler for the scripts in a classpath folder, with the libraries of
	 * its {@code lib} folder.
	 * @param location the folder, ending in {@code /}
	 */
	LuaScriptAssembler(String location) {
		this(location, location + "lib/");
	}

	/**
	 * Create an assembler for the scripts in a classpath folder, with the libraries of
	 * another.
	 * @param location the scripts' folder, ending in {@code /}
	 * @param libraryLocation the libraries' folder, ending in {@code /}
	 */
	LuaScriptAssembler(String location, String libraryLocation) {
		this.location = location;
		this.libraryLocation = libraryLocation;
	}

	/**
	 * Return the text Redis runs for a script: the libraries it needs, then the script.
	 * @param script the script's name, its file name without {@code .lua}
	 * @return the text
	 * @throws IllegalStateException if the script or a library it needs names a library
	 * that does not exist, or does not say what it needs
	 */
	synchronized String assemble(String script) {
		StringBuilder text = new StringBuilder();
		for (Source library : resolve(script)) {
			text.append(library.text());
		}
		return text.append(script(script).text()).toString();
	}

	/**
	 * Return the libraries a script is assembled with, in the order they are put in
	 * front.
	 * @param script the script's name
	 * @return the libraries' names
	 * @throws IllegalStateException as {@link #assemble(String)} does
	 */
	synchronized List<String> libraries(String script) {
		return resolve(script).stream().map(Source::name).toList();
	}

	private List<Source> resolve(String script) {
		Set<Source> order = new LinkedHashSet<>();
		Deque<String> path = new ArrayDeque<>();
		for (String need : script(script).needs()) {
			include(script, need, "script '" + script + "'", path, order);
		}
		return new ArrayList<>(order);
	}

	private void include(String script, String name, String neededBy, Deque<String> path, Set<Source> order) {
		if (path.contains(name)) {
			throw new IllegalStateException("Lua script '" + script + "' needs libraries that need each other: "
					+ String.join(" -> ", path) + " -> " + name);
		}
		Source library = library(script, name, neededBy);
		if (order.contains(library)) {
			return;
		}
		path.addLast(name);
		for (String need : library.needs()) {
			include(script, need, "library '" + name + "'", path, order);
		}
		path.removeLast();
		order.add(library);
	}

	private Source script(String name) {
		ClassPathResource resource = new ClassPathResource(this.location + name + ".lua");
		if (!resource.exists()) {
			throw new IllegalStateException("No Lua script '" + name + "' in " + this.location);
		}
		return read(resource, name, "Lua script '" + name + "'");
	}

	private Source library(String script, String name, String neededBy) {
		Source library = this.libraries.get(name);
		if (library != null) {
			return library;
		}
		ClassPathResource resource = new ClassPathResource(this.libraryLocation + name + ".lua");
		if (!NAME.matcher(name).matches() || !resource.exists()) {
			throw new IllegalStateException("Lua script '" + script + "' needs the unknown library '" + name
					+ "' (named by " + neededBy + "; no " + this.libraryLocation + name + ".lua)");
		}
		library = read(resource, name, "Lua library '" + name + "'");
		this.libraries.put(name, library);
		return library;
	}

	private static Source read(ClassPathResource resource, String name, String description) {
		String text;
		try {
			text = resource.getContentAsString(StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot read the " + description, ex);
		}
		if (!text.startsWith(NEEDS)) {
			throw new IllegalStateException(description + " does not start with '" + NEEDS
					+ " <libraries or none>', so it cannot be assembled");
		}
		int end = text.indexOf('\n');
		String needs = text.substring(NEEDS.length(), (end < 0) ? text.length() : end).trim();
		List<String> names = new ArrayList<>();
		if (!needs.equals(NONE)) {
			for (String need : needs.split(",")) {
				names.add(need.trim());
			}
		}
		return new Source(name, List.copyOf(names), text.endsWith("\n") ? text : text + "\n");
	}

	/**
	 * A script's or library's text and the libraries it names.
	 *
	 * @param name its name
	 * @param needs the libraries its first line names
	 * @param text its text, ending in a line break
	 */
	private record Source(String name, List<String> needs, String text) {

	}

}
