package io.github.delayqueue.core;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.cluster.api.async.RedisAdvancedClusterAsyncCommands;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.ExceptionTranslationStrategy;
import org.springframework.data.redis.FallbackExceptionTranslationStrategy;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceExceptionConverter;

/**
 * Runs script calls straight on the shared native connection of a
 * {@link LettuceConnectionFactory}, the same connection Spring's
 * {@code LettuceConnection} would use, without that wrapper: in profiles of single sends,
 * creating and releasing it per call took more of the caller's CPU than Lettuce's own
 * dispatch. Failures are translated as {@code LettuceConnection} translates them.
 *
 * @author delayqueue contributors
 */
final class SharedConnectionScripts {

	private static final ExceptionTranslationStrategy EXCEPTIONS = new FallbackExceptionTranslationStrategy(
			new LettuceExceptionConverter());

	private final LettuceConnectionFactory factory;

	private volatile @Nullable Shared shared;

	private SharedConnectionScripts(LettuceConnectionFactory factory) {
		this.factory = factory;
	}

	/**
	 * Return the scripts of a factory, or {@code null} when it is not Lettuce's.
	 * @param factory the factory
	 * @return the scripts or {@code null}
	 */
	static @Nullable SharedConnectionScripts of(@Nullable RedisConnectionFactory factory) {
		return (factory instanceof LettuceConnectionFactory lettuce) ? new SharedConnectionScripts(lettuce) : null;
	}

	/**
	 * Return whether calls may go to the shared connection now. Without sharing, every
	 * call needs a connection of its own; with validation switched on, the application
	 * asked for a check of the connection before each use. Both stay with the template.
	 * @return whether {@link #evalSha} and {@link #eval} may be used
	 */
	boolean isUsable() {
		return this.factory.getShareNativeConnection() && !this.factory.getValidateConnection();
	}

	/**
	 * Run a script by its SHA.
	 * @param script the script
	 * @param keys its keys
	 * @param args its arguments
	 * @return the raw reply, or {@code null} for none
	 * @throws DataAccessException on failure, {@code NOSCRIPT} included
	 */
	@Nullable List<?> evalSha(DelayQueueScript script, byte[][] keys, byte[][] args) {
		// Outside the translation, as with a template: a stopped factory's own exception.
		Shared current = shared();
		try {
			return await(current, current.commands().evalsha(script.sha1Hex(), ScriptOutputType.MULTI, keys, args));
		}
		catch (RuntimeException ex) {
			throw translate(ex);
		}
	}

	/**
	 * Run a script by its text, which also caches it in Redis.
	 * @param script the script
	 * @param keys its keys
	 * @param args its arguments
	 * @return the raw reply, or {@code null} for none
	 * @throws DataAccessException on failure
	 */
	@Nullable List<?> eval(DelayQueueScript script, byte[][] keys, byte[][] args) {
		Shared current = shared();
		try {
			return await(current, current.commands().eval(script.body(), ScriptOutputType.MULTI, keys, args));
		}
		catch (RuntimeException ex) {
			throw translate(ex);
		}
	}

	/**
	 * Run several script calls by their SHA, each sent before any reply is awaited: Redis
	 * receives them back to back, so together they take one round trip, and no connection
	 * is opened for them as a pipeline would.
	 * @param calls the calls
	 * @return for each call, in order, its raw reply (an empty list for none) or the
	 * {@link DataAccessException} it failed with, {@code NOSCRIPT} included
	 */
	List<Object> evalShaEach(List<EncodedCall> calls) {
		Shared current = shared();
		List<RedisFuture<@Nullable List<Object>>> replies = new ArrayList<>(calls.size());
		try {
			for (EncodedCall call : calls) {
				replies.add(current.commands()
					.evalsha(call.script().sha1Hex(), ScriptOutputType.MULTI, call.keys(), call.args()));
			}
		}
		catch (RuntimeException ex) {
			throw translate(ex);
		}
		List<Object> outcomes = new ArrayList<>(replies.size());
		for (RedisFuture<@Nullable List<Object>> reply : replies) {
			try {
				List<?> values = await(current, reply);
				outcomes.add((values != null) ? values : List.of());
			}
			catch (DataAccessException ex) {
				outcomes.add(ex);
			}
			catch (RuntimeException ex) {
				outcomes.add(translate(ex));
			}
		}
		return outcomes;
	}

	private static @Nullable List<?> await(Shared shared, RedisFuture<@Nullable List<Object>> reply) {
		List<Object> values = LettuceFutures.awaitOrCancel(reply, shared.timeoutMillis(), TimeUnit.MILLISECONDS);
		if (values == null) {
			return null;
		}
		// An error inside a multi-bulk reply arrives as an element; Spring throws it too.
		for (Object value : values) {
			if (value instanceof Exception ex) {
				throw translate(ex);
			}
		}
		return values;
	}

	private Shared shared() {
		Shared current = this.shared;
		// Closed after the factory reset or stopped (or down for a reconnect): ask the
		// factory again, as a template would.
		if (current == null || !current.connection().isOpen()) {
			try (RedisConnection connection = this.factory.getConnection()) {
				RedisClusterAsyncCommands<byte[], byte[]> commands = ((LettuceConnection) connection)
					.getNativeConnection();
				current = new Shared(commands, statefulConnection(commands), this.factory.getTimeout());
			}
			this.shared = current;
		}
		return current;
	}

	private static StatefulConnection<byte[], byte[]> statefulConnection(
			RedisClusterAsyncCommands<byte[], byte[]> commands) {
		if (commands instanceof RedisAsyncCommands<byte[], byte[]> standalone) {
			return standalone.getStatefulConnection();
		}
		if (commands instanceof RedisAdvancedClusterAsyncCommands<byte[], byte[]> cluster) {
			return cluster.getStatefulConnection();
		}
		throw new IllegalStateException("Unexpected Lettuce commands " + commands.getClass().getName());
	}

	private static DataAccessException translate(Exception ex) {
		DataAccessException translated = EXCEPTIONS.translate(ex);
		return (translated != null) ? translated : new RedisSystemException("Unknown redis exception", ex);
	}

	/**
	 * A script call with its keys and arguments encoded.
	 *
	 * @param script the script
	 * @param keys its keys
	 * @param args its arguments
	 */
	record EncodedCall(DelayQueueScript script, byte[][] keys, byte[][] args) {

	}

	private record Shared(RedisClusterAsyncCommands<byte[], byte[]> commands,
			StatefulConnection<byte[], byte[]> connection, long timeoutMillis) {

	}

}
