package io.github.delayqueue.internal.aot;

import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * Registers the Lua scripts and their libraries, which are read from the classpath when
 * the first script runs, and the library's version, which HTTP callbacks name in their
 * {@code User-Agent}, so that a native image contains them. Listed in
 * {@code META-INF/spring/aot.factories}.
 *
 * @author delayqueue contributors
 */
public class DelayQueueRuntimeHints implements RuntimeHintsRegistrar {

	/**
	 * Where the scripts live, one {@code .lua} resource per state transition.
	 */
	static final String SCRIPTS = "io/github/delayqueue/internal/store/scripts/*.lua";

	/**
	 * Where the Lua libraries live that scripts are assembled with.
	 */
	static final String LIBRARIES = "io/github/delayqueue/internal/store/scripts/lib/*.lua";

	/**
	 * The library's version, written by the build.
	 */
	static final String VERSION = "META-INF/delayqueue/version.properties";

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		hints.resources().registerPattern(SCRIPTS);
		hints.resources().registerPattern(LIBRARIES);
		hints.resources().registerPattern(VERSION);
	}

}
