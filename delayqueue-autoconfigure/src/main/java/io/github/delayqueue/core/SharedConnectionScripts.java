package io.github.delayqueue.core;

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

	private record Shared(RedisClusterAsyncCommands<byte[], byte[]> commands,
			StatefulConnection<byte[], byte[]> connection, long timeoutMillis) {

	}

}
