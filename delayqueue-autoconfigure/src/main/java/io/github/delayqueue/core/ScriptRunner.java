package io.github.delayqueue.core;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Runs the delay queue's scripts by SHA, alone or many in one pipelined round trip, and
 * loads a script again when Redis lost it (after a restart or {@code SCRIPT FLUSH}).
 *
 * @author delayqueue contributors
 */
public final class ScriptRunner {

	private final StringRedisTemplate redis;

	/**
	 * Create a runner on a template.
	 * @param redis the template
	 */
	public ScriptRunner(StringRedisTemplate redis) {
		this.redis = redis;
	}

	/**
	 * Return the template the scripts run on.
	 * @return the template
	 */
	public StringRedisTemplate redis() {
		return this.redis;
	}

	/**
	 * Run a script.
	 * @param script the script
	 * @param keys its keys
	 * @param args its arguments
	 * @return its reply, strings as {@link String}, integers as {@link Long}
	 */
	public List<Object> run(DelayQueueScript script, List<String> keys, String... args) {
		byte[][] keysAndArgs = encode(keys, List.of(args));
		int keyCount = keys.size();
		// Straight to the connection: the template's script executor costs more client
		// CPU
		// per call (serializers, a connection proxy) than the command itself.
		List<?> reply;
		try {
			reply = this.redis.execute((RedisCallback<List<?>>) (connection) -> connection.scriptingCommands()
				.evalSha(script.sha1(), ReturnType.MULTI, keyCount, keysAndArgs), true);
		}
		catch (DataAccessException ex) {
			if (!mentionsNoScript(ex)) {
				throw ex;
			}
			// Redis lost its script cache (restart or SCRIPT FLUSH); EVAL runs and caches
			// it.
			reply = this.redis.execute((RedisCallback<List<?>>) (connection) -> connection.scriptingCommands()
				.eval(script.body(), ReturnType.MULTI, keyCount, keysAndArgs), true);
		}
		return (reply != null) ? decode(reply) : new ArrayList<>();
	}

	/**
	 * Run several script calls in one pipelined round trip. The calls must not depend on
	 * each other's effects being all or nothing: each is atomic on its own. A pipeline
	 * needs a connection of its own (with Lettuce's shared connection, one is opened for
	 * it), so it pays only where it saves many round trips, as for a batch across topics.
	 * @param calls each call's script, keys and arguments
	 * @return each call's reply, in order
	 */
	public List<List<Object>> runPipelined(List<Call> calls) {
		try {
			return pipeline(calls);
		}
		catch (DataAccessException | DelayQueueException ex) {
			if (!mentionsNoScript(ex)) {
				throw ex;
			}
			// Redis lost its script cache (restart or SCRIPT FLUSH): load the scripts and
			// go again.
			// Running a call twice is safe: a call that failed with NOSCRIPT did nothing.
			calls.stream().map(Call::script).distinct().forEach(this::load);
			return pipeline(calls);
		}
	}

	/**
	 * Load every script into Redis's script cache, so that the first calls after start-up
	 * do not pay for a cache miss. Redis forgets them on restart; calls then load them
	 * again as needed.
	 */
	public void loadAll() {
		for (DelayQueueScript script : DelayQueueScript.values()) {
			load(script);
		}
	}

	private void load(DelayQueueScript script) {
		this.redis
			.execute((RedisCallback<String>) (connection) -> connection.scriptingCommands().scriptLoad(script.body()));
	}

	private List<List<Object>> pipeline(List<Call> calls) {
		List<Object> replies = this.redis.executePipelined((RedisCallback<Object>) (connection) -> {
			for (Call call : calls) {
				byte[] sha = call.script().sha1();
				byte[][] keysAndArgs = encode(call.keys(), call.args());
				connection.scriptingCommands().evalSha(sha, ReturnType.MULTI, call.keys().size(), keysAndArgs);
			}
			return null;
		}, null);
		List<List<Object>> result = new ArrayList<>(replies.size());
		for (Object reply : replies) {
			if (reply instanceof Throwable failure) {
				throw new DelayQueueException("Script failed: " + failure.getMessage(), failure);
			}
			result.add(decode((List<?>) reply));
		}
		return result;
	}

	private static byte[][] encode(List<String> keys, List<String> args) {
		byte[][] keysAndArgs = new byte[keys.size() + args.size()][];
		int i = 0;
		for (String key : keys) {
			keysAndArgs[i++] = bytes(key);
		}
		for (String arg : args) {
			keysAndArgs[i++] = bytes(arg);
		}
		return keysAndArgs;
	}

	private static List<Object> decode(List<?> reply) {
		return new ArrayList<>(reply.stream().map(decodeOne()).toList());
	}

	private static Function<Object, Object> decodeOne() {
		return (value) -> (value instanceof byte[] raw) ? new String(raw, StandardCharsets.UTF_8) : value;
	}

	private static boolean mentionsNoScript(Throwable ex) {
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (cause.getMessage() != null && cause.getMessage().contains("NOSCRIPT")) {
				return true;
			}
		}
		return false;
	}

	private static byte[] bytes(String value) {
		return value.getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * One script call of a pipeline.
	 *
	 * @param script the script
	 * @param keys the keys
	 * @param args the arguments
	 */
	public record Call(DelayQueueScript script, List<String> keys, List<String> args) {

	}

}
