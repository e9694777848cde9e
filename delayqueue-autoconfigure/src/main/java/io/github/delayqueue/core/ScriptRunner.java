package io.github.delayqueue.core;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.util.ClassUtils;

/**
 * Runs the delay queue's scripts by SHA, alone or many in one pipelined round trip, and
 * loads a script again when Redis lost it (after a restart or {@code SCRIPT FLUSH}).
 *
 * @author delayqueue contributors
 */
public final class ScriptRunner {

	private static final boolean LETTUCE_PRESENT = ClassUtils.isPresent("io.lettuce.core.RedisClient",
			ScriptRunner.class.getClassLoader());

	private final StringRedisTemplate redis;

	private final @Nullable SharedConnectionScripts direct;

	/**
	 * Create a runner on a template. With Lettuce's connection factory sharing its native
	 * connection (the default), single calls go straight to that connection; otherwise,
	 * and for pipelines, they go through the template.
	 * @param redis the template
	 */
	public ScriptRunner(StringRedisTemplate redis) {
		this.redis = redis;
		this.direct = LETTUCE_PRESENT ? SharedConnectionScripts.of(redis.getConnectionFactory()) : null;
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
		return run(script, encode(keys), encode(args));
	}

	/**
	 * Run a script on keys and arguments already encoded as UTF-8.
	 * @param script the script
	 * @param keys its keys
	 * @param args its arguments
	 * @return its reply, strings as {@link String}, integers as {@link Long}
	 */
	List<Object> run(DelayQueueScript script, byte[][] keys, byte[][] args) {
		List<?> reply;
		try {
			reply = evalSha(script, keys, args);
		}
		catch (DataAccessException ex) {
			if (!mentionsNoScript(ex)) {
				throw ex;
			}
			// Redis lost its script cache (restart or SCRIPT FLUSH); EVAL runs and caches
			// it.
			reply = eval(script, keys, args);
		}
		return (reply != null) ? decode(reply) : new ArrayList<>();
	}

	private @Nullable List<?> evalSha(DelayQueueScript script, byte[][] keys, byte[][] args) {
		SharedConnectionScripts direct = this.direct;
		if (direct != null && direct.isUsable()) {
			return direct.evalSha(script, keys, args);
		}
		byte[][] keysAndArgs = concat(keys, args);
		return this.redis.execute((RedisCallback<List<?>>) (connection) -> connection.scriptingCommands()
			.evalSha(script.sha1(), ReturnType.MULTI, keys.length, keysAndArgs), true);
	}

	private @Nullable List<?> eval(DelayQueueScript script, byte[][] keys, byte[][] args) {
		SharedConnectionScripts direct = this.direct;
		if (direct != null && direct.isUsable()) {
			return direct.eval(script, keys, args);
		}
		byte[][] keysAndArgs = concat(keys, args);
		return this.redis.execute((RedisCallback<List<?>>) (connection) -> connection.scriptingCommands()
			.eval(script.body(), ReturnType.MULTI, keys.length, keysAndArgs), true);
	}

	/**
	 * Run several script calls in one round trip. The calls must not depend on each
	 * other's effects being all or nothing: each is atomic on its own. On Lettuce's
	 * shared connection they are all sent before any reply is awaited; otherwise they go
	 * through a pipeline, which needs a connection of its own.
	 * @param calls each call's script, keys and arguments
	 * @return each call's reply, in order
	 */
	public List<List<Object>> runPipelined(List<Call> calls) {
		SharedConnectionScripts direct = this.direct;
		if (direct != null && direct.isUsable()) {
			return runBackToBack(direct, calls);
		}
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

	private List<List<Object>> runBackToBack(SharedConnectionScripts direct, List<Call> calls) {
		List<SharedConnectionScripts.EncodedCall> encoded = new ArrayList<>(calls.size());
		for (Call call : calls) {
			encoded
				.add(new SharedConnectionScripts.EncodedCall(call.script(), encode(call.keys()), encode(call.args())));
		}
		List<Object> outcomes = direct.evalShaEach(encoded);
		List<List<Object>> replies = new ArrayList<>(outcomes.size());
		for (int i = 0; i < outcomes.size(); i++) {
			Object outcome = outcomes.get(i);
			if (outcome instanceof DataAccessException ex) {
				if (!mentionsNoScript(ex)) {
					throw ex;
				}
				// Redis lost its script cache: this call did nothing, so it runs again
				// alone, which loads the script; the calls that ran are not repeated.
				SharedConnectionScripts.EncodedCall call = encoded.get(i);
				replies.add(run(call.script(), call.keys(), call.args()));
			}
			else {
				replies.add(decode((List<?>) outcome));
			}
		}
		return replies;
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
				byte[][] keysAndArgs = concat(encode(call.keys()), encode(call.args()));
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

	private static byte[][] encode(List<String> values) {
		byte[][] encoded = new byte[values.size()][];
		for (int i = 0; i < encoded.length; i++) {
			encoded[i] = bytes(values.get(i));
		}
		return encoded;
	}

	private static byte[][] encode(String[] values) {
		byte[][] encoded = new byte[values.length][];
		for (int i = 0; i < encoded.length; i++) {
			encoded[i] = bytes(values[i]);
		}
		return encoded;
	}

	private static byte[][] concat(byte[][] keys, byte[][] args) {
		byte[][] keysAndArgs = Arrays.copyOf(keys, keys.length + args.length);
		System.arraycopy(args, 0, keysAndArgs, keys.length, args.length);
		return keysAndArgs;
	}

	private static List<Object> decode(List<?> reply) {
		List<Object> decoded = new ArrayList<>(reply.size());
		for (Object value : reply) {
			decoded.add((value instanceof byte[] raw) ? new String(raw, StandardCharsets.UTF_8) : value);
		}
		return decoded;
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
