package io.github.delayqueue.internal.store;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.util.ClassUtils;

/**
 * Runs the delay queue's scripts by SHA, alone or many in one pipelined round trip, and
 * loads a script again when Redis lost it (after a restart or {@code SCRIPT FLUSH}). On
 * Lettuce's shared connection every call waits at most the command timeout for its reply.
 *
 * @author delayqueue contributors
 */
public final class ScriptRunner {

	private static final boolean LETTUCE_PRESENT = ClassUtils.isPresent("io.lettuce.core.RedisClient",
			ScriptRunner.class.getClassLoader());

	/**
	 * The command timeout unless one is given: {@code delayqueue.command-timeout}'s
	 * default.
	 */
	public static final Duration DEFAULT_COMMAND_TIMEOUT = Duration.ofSeconds(5);

	private final StringRedisTemplate redis;

	private final @Nullable SharedConnectionScripts direct;

	// Every call to Redis this runner makes, each one round trip: what tests count to
	// show that an operation takes a fixed number of them, however many queues it reads.
	private final LongAdder roundTrips = new LongAdder();

	/**
	 * Create a runner on a template whose calls wait at most
	 * {@link #DEFAULT_COMMAND_TIMEOUT} for a reply.
	 * @param redis the template
	 */
	public ScriptRunner(StringRedisTemplate redis) {
		this(redis, DEFAULT_COMMAND_TIMEOUT);
	}

	/**
	 * Create a runner on a template. With Lettuce's connection factory sharing its native
	 * connection (the default), single calls and batches of them go straight to that
	 * connection and wait at most {@code commandTimeout} (or the factory's timeout, when
	 * shorter); otherwise they go through the template and wait as long as its factory
	 * says.
	 * @param redis the template
	 * @param commandTimeout the longest a call waits for its reply
	 */
	public ScriptRunner(StringRedisTemplate redis, Duration commandTimeout) {
		if (commandTimeout.isNegative() || commandTimeout.isZero()) {
			throw new IllegalArgumentException("The command timeout must be more than zero, was " + commandTimeout);
		}
		this.redis = redis;
		this.direct = LETTUCE_PRESENT ? SharedConnectionScripts.of(redis.getConnectionFactory(), commandTimeout) : null;
	}

	/**
	 * Return the template the scripts run on.
	 * @return the template
	 */
	public StringRedisTemplate redis() {
		return this.redis;
	}

	/**
	 * Read a number from a script's reply, which Redis returns as an integer or, from
	 * {@code tostring}, as text.
	 * @param value one element of a reply
	 * @return the number
	 * @throws NumberFormatException if the element is not a number
	 */
	public static long asLong(@Nullable Object value) {
		return (value instanceof Number number) ? number.longValue() : Long.parseLong(String.valueOf(value));
	}

	/**
	 * Add members to a set, within the command timeout like the scripts.
	 * @param key the set
	 * @param members the members
	 * @return how many were not members before
	 */
	public long addToSet(String key, String... members) {
		this.roundTrips.increment();
		SharedConnectionScripts direct = this.direct;
		if (direct != null && direct.isUsable()) {
			byte[][] encoded = new byte[members.length][];
			for (int i = 0; i < members.length; i++) {
				encoded[i] = bytes(members[i]);
			}
			Long added = direct.call((commands) -> commands.sadd(bytes(key), encoded));
			return (added != null) ? added : 0;
		}
		Long added = this.redis.opsForSet().add(key, members);
		return (added != null) ? added : 0;
	}

	/**
	 * Set a string key, within the command timeout like the scripts.
	 * @param key the key
	 * @param value the value
	 */
	public void set(String key, String value) {
		this.roundTrips.increment();
		SharedConnectionScripts direct = this.direct;
		if (direct != null && direct.isUsable()) {
			direct.call((commands) -> commands.set(bytes(key), bytes(value)));
		}
		else {
			this.redis.opsForValue().set(key, value);
		}
	}

	/**
	 * Read a string key, within the command timeout like the scripts.
	 * @param key the key
	 * @return the value, or {@code null} if the key does not exist
	 */
	public @Nullable String get(String key) {
		SharedConnectionScripts direct = this.direct;
		if (direct != null && direct.isUsable()) {
			byte[] value = direct.call((commands) -> commands.get(bytes(key)));
			return (value != null) ? new String(value, StandardCharsets.UTF_8) : null;
		}
		return this.redis.opsForValue().get(key);
	}

	/**
	 * Delete a key, within the command timeout like the scripts.
	 * @param key the key
	 * @return whether the key existed
	 */
	public boolean delete(String key) {
		this.roundTrips.increment();
		SharedConnectionScripts direct = this.direct;
		if (direct != null && direct.isUsable()) {
			Long deleted = direct.call((commands) -> commands.del(bytes(key)));
			return deleted != null && deleted > 0;
		}
		return Boolean.TRUE.equals(this.redis.delete(key));
	}

	/**
	 * Tell whether a key exists, within the command timeout like the scripts.
	 * @param key the key
	 * @return whether it exists
	 */
	public boolean exists(String key) {
		this.roundTrips.increment();
		SharedConnectionScripts direct = this.direct;
		if (direct != null && direct.isUsable()) {
			Long count = direct.call((commands) -> commands.exists(bytes(key)));
			return count != null && count > 0;
		}
		return Boolean.TRUE.equals(this.redis.hasKey(key));
	}

	/**
	 * Read the members of a set, within the command timeout like the scripts.
	 * @param key the set
	 * @return the members
	 */
	public Set<String> members(String key) {
		this.roundTrips.increment();
		SharedConnectionScripts direct = this.direct;
		if (direct != null && direct.isUsable()) {
			Set<byte[]> members = direct.call((commands) -> commands.smembers(bytes(key)));
			Set<String> decoded = new LinkedHashSet<>();
			if (members != null) {
				members.forEach((member) -> decoded.add(new String(member, StandardCharsets.UTF_8)));
			}
			return decoded;
		}
		Set<String> members = this.redis.opsForSet().members(key);
		return (members != null) ? members : Set.of();
	}

	/**
	 * Read the members of several sets in one round trip, within the command timeout like
	 * the scripts.
	 * @param keys the sets
	 * @return each set's members, by key
	 */
	public Map<String, Set<String>> membersOfEach(List<String> keys) {
		Map<String, Set<String>> members = new LinkedHashMap<>();
		if (keys.isEmpty()) {
			return members;
		}
		this.roundTrips.increment();
		SharedConnectionScripts direct = this.direct;
		List<?> replies = (direct != null && direct.isUsable())
				? direct.callEach(keys.stream().map(ScriptRunner::bytes).toList(),
						(commands, key) -> commands.smembers(key))
				: this.redis.executePipelined((RedisCallback<Object>) (connection) -> {
					keys.forEach((key) -> connection.setCommands().sMembers(bytes(key)));
					return null;
				}, null);
		for (int i = 0; i < keys.size(); i++) {
			Set<String> decoded = new LinkedHashSet<>();
			if (replies.get(i) instanceof Collection<?> set) {
				set.forEach((member) -> decoded.add((member instanceof byte[] raw)
						? new String(raw, StandardCharsets.UTF_8) : String.valueOf(member)));
			}
			members.put(keys.get(i), decoded);
		}
		return members;
	}

	/**
	 * Return how many round trips this runner made so far: one per call of any of its
	 * methods, a pipelined batch of calls counting once.
	 * @return the count
	 */
	long roundTrips() {
		return this.roundTrips.sum();
	}

	/**
	 * Run a script.
	 * @param script the script
	 * @param keys its keys
	 * @param args its arguments
	 * @return its reply, strings as {@link String}, integers as {@link Long}
	 */
	public List<Object> run(LuaScript script, List<String> keys, String... args) {
		return run(script, encode(keys), encode(args));
	}

	/**
	 * Run one script call.
	 * @param call the call
	 * @return its reply, strings as {@link String}, integers as {@link Long}
	 */
	public List<Object> run(Call call) {
		return run(call.script(), encode(call.keys()), encode(call.args()));
	}

	/**
	 * Run a script on keys and arguments already encoded as UTF-8.
	 * @param script the script
	 * @param keys its keys
	 * @param args its arguments
	 * @return its reply, strings as {@link String}, integers as {@link Long}
	 */
	List<Object> run(LuaScript script, byte[][] keys, byte[][] args) {
		this.roundTrips.increment();
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

	private @Nullable List<?> evalSha(LuaScript script, byte[][] keys, byte[][] args) {
		SharedConnectionScripts direct = this.direct;
		if (direct != null && direct.isUsable()) {
			return direct.evalSha(script, keys, args);
		}
		byte[][] keysAndArgs = concat(keys, args);
		return this.redis.execute((RedisCallback<List<?>>) (connection) -> connection.scriptingCommands()
			.evalSha(script.sha1(), ReturnType.MULTI, keys.length, keysAndArgs), true);
	}

	private @Nullable List<?> eval(LuaScript script, byte[][] keys, byte[][] args) {
		SharedConnectionScripts direct = this.direct;
		if (direct != null && direct.isUsable()) {
			return direct.eval(script, keys, args);
		}
		byte[][] keysAndArgs = concat(keys, args);
		return this.redis.execute((RedisCallback<List<?>>) (connection) -> connection.scriptingCommands()
			.eval(script.body(), ReturnType.MULTI, keys.length, keysAndArgs), true);
	}

	/**
	 * Run several script calls in one round trip (none for no call, and a single call
	 * alone). The calls must not depend on each other's effects being all or nothing:
	 * each is atomic on its own. On Lettuce's shared connection they are all sent before
	 * any reply is awaited; otherwise they go through a pipeline, which needs a
	 * connection of its own.
	 * @param calls each call's script, keys and arguments
	 * @return each call's reply, in order
	 */
	public List<List<Object>> runPipelined(List<Call> calls) {
		if (calls.size() <= 1) {
			return calls.isEmpty() ? List.of() : List.of(run(calls.get(0)));
		}
		this.roundTrips.increment();
		List<SharedConnectionScripts.EncodedCall> encoded = new ArrayList<>(calls.size());
		for (Call call : calls) {
			encoded
				.add(new SharedConnectionScripts.EncodedCall(call.script(), encode(call.keys()), encode(call.args())));
		}
		SharedConnectionScripts direct = this.direct;
		List<?> outcomes = (direct != null && direct.isUsable()) ? direct.evalShaEach(encoded) : pipeline(encoded);
		List<List<Object>> replies = new ArrayList<>(outcomes.size());
		List<Integer> lost = new ArrayList<>();
		for (int i = 0; i < outcomes.size(); i++) {
			Object outcome = outcomes.get(i);
			if (!(outcome instanceof Throwable failure)) {
				replies.add(decode((List<?>) outcome));
			}
			else if (mentionsNoScript(failure)) {
				// Redis lost its script cache (restart or SCRIPT FLUSH): on the shared
				// connection each call fails on its own, and this one did nothing.
				replies.add(List.of());
				lost.add(i);
			}
			else if (failure instanceof DataAccessException ex) {
				throw ex;
			}
			else {
				throw new RedisSystemException("Script failed: " + failure.getMessage(), failure);
			}
		}
		if (!lost.isEmpty()) {
			// Each script is loaded once, and the calls that did nothing run again
			// together; the calls that ran are not repeated.
			List<Call> again = lost.stream().map(calls::get).toList();
			again.stream().map(Call::script).distinct().forEach(this::load);
			List<List<Object>> rerun = runPipelined(again);
			for (int j = 0; j < lost.size(); j++) {
				replies.set(lost.get(j), rerun.get(j));
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

	private void load(LuaScript script) {
		SharedConnectionScripts direct = this.direct;
		if (direct != null && direct.isUsable()) {
			direct.load(script);
			return;
		}
		this.redis
			.execute((RedisCallback<String>) (connection) -> connection.scriptingCommands().scriptLoad(script.body()));
	}

	/**
	 * Return the Redis server's clock, within the command timeout like the scripts.
	 * @return the time in epoch milliseconds
	 */
	public long serverTime() {
		return serverTimeMicros() / 1000;
	}

	/**
	 * Return the Redis server's clock to the microsecond, within the command timeout like
	 * the scripts.
	 * @return the time in epoch microseconds
	 */
	public long serverTimeMicros() {
		SharedConnectionScripts direct = this.direct;
		if (direct != null && direct.isUsable()) {
			List<byte[]> reply = direct.call(KeylessCommands::time);
			if (reply == null || reply.size() < 2) {
				throw new RedisSystemException("Redis answered TIME with " + reply, null);
			}
			return KeylessCommands.epochMicros(reply);
		}
		Long time = this.redis
			.execute((RedisCallback<Long>) (connection) -> connection.serverCommands().time(TimeUnit.MICROSECONDS));
		if (time == null) {
			throw new RedisSystemException("Redis answered TIME with nothing", null);
		}
		return time;
	}

	// Each call's reply. A pipeline that meets NOSCRIPT fails as a whole, without telling
	// which calls ran, so the scripts are loaded and every call runs again. Nothing is
	// stored twice, but an enqueue that had run reports its caller-chosen ids as
	// duplicates; this path serves only factories that do not share their connection.
	private List<?> pipeline(List<SharedConnectionScripts.EncodedCall> calls) {
		try {
			return pipelineOnce(calls);
		}
		catch (DataAccessException ex) {
			if (!mentionsNoScript(ex)) {
				throw ex;
			}
			calls.stream().map(SharedConnectionScripts.EncodedCall::script).distinct().forEach(this::load);
			return pipelineOnce(calls);
		}
	}

	private List<?> pipelineOnce(List<SharedConnectionScripts.EncodedCall> calls) {
		return this.redis.executePipelined((RedisCallback<Object>) (connection) -> {
			for (SharedConnectionScripts.EncodedCall call : calls) {
				connection.scriptingCommands()
					.evalSha(call.script().sha1(), ReturnType.MULTI, call.keys().length,
							concat(call.keys(), call.args()));
			}
			return null;
		}, null);
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
	public record Call(LuaScript script, List<String> keys, List<String> args) {

	}

}
