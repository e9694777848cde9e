package io.github.delayqueue.internal.store;

import java.nio.charset.StandardCharsets;

import org.springframework.data.redis.core.script.RedisScript;

/**
 * A Lua script that {@link ScriptRunner} runs by its SHA-1: the queue's own
 * ({@link DelayQueueScript}), or one kept elsewhere and assembled with the queue's
 * libraries (see {@link #assemble(String, String)}), such as those of the
 * {@code delayqueue-test} module.
 *
 * @author delayqueue contributors
 */
public interface LuaScript {

	/**
	 * Return the script's text as UTF-8, for {@code EVAL} and {@code SCRIPT LOAD}.
	 * @return the text
	 */
	byte[] body();

	/**
	 * Return the script's SHA-1 as UTF-8 hex, for {@code EVALSHA}.
	 * @return the SHA-1
	 */
	byte[] sha1();

	/**
	 * Return the script's SHA-1 in hex, for {@code EVALSHA} on a native connection.
	 * @return the SHA-1
	 */
	String sha1Hex();

	/**
	 * Assemble a script kept in another classpath folder with the libraries it names from
	 * the queue's own (see {@link DelayQueueScript#LOCATION}).
	 * @param location the script's folder, ending in {@code /}
	 * @param name the script's file name without {@code .lua}
	 * @return the script
	 * @throws IllegalStateException if there is no such script, or it names a library
	 * that does not exist
	 */
	static LuaScript assemble(String location, String name) {
		String text = new LuaScriptAssembler(location, DelayQueueScript.LOCATION + "lib/").assemble(name);
		String sha1Hex = RedisScript.of(text).getSha1();
		return new Assembled(text.getBytes(StandardCharsets.UTF_8), sha1Hex.getBytes(StandardCharsets.UTF_8), sha1Hex);
	}

	/**
	 * A script assembled from another folder, the same script as any other of its SHA-1.
	 *
	 * @param body the text as UTF-8
	 * @param sha1 the SHA-1 as UTF-8 hex
	 * @param sha1Hex the SHA-1 in hex
	 */
	record Assembled(byte[] body, byte[] sha1, String sha1Hex) implements LuaScript {

		@Override
		public boolean equals(Object other) {
			return other instanceof Assembled assembled && this.sha1Hex.equals(assembled.sha1Hex);
		}

		@Override
		public int hashCode() {
			return this.sha1Hex.hashCode();
		}

		@Override
		public String toString() {
			return "LuaScript[" + this.sha1Hex + "]";
		}

	}

}
