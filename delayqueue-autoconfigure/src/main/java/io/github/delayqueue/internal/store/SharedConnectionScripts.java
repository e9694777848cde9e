package io.github.delayqueue.internal.store;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Function;

import io.lettuce.core.AbstractRedisAsyncCommands;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.ExceptionTranslationStrategy;
import org.springframework.data.redis.FallbackExceptionTranslationStrategy;
import org.springframework.data.redis.RedisConnectionFailureException;
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
 * dispatch. Failures are translated as {@code LettuceConnection} translates them. Every
 * call waits at most the command timeout, however long the factory's own timeout: Lettuce
 * queues commands while it reconnects, and a send must not hang for a minute while Redis
 * is gone. While the connection is down and Lettuce's latest reconnect failed, calls fail
 * at once without being queued.
 *
 * @author delayqueue contributors
 */
final class SharedConnectionScripts {

	private static final ExceptionTranslationStrategy EXCEPTIONS = new FallbackExceptionTranslationStrategy(
			new LettuceExceptionConverter());

	private final LettuceConnectionFactory factory;

	private final Duration commandTimeout;

	private volatile @Nullable Shared shared;

	private volatile @Nullable ReconnectFailures reconnectFailures;

	private SharedConnectionScripts(LettuceConnectionFactory factory, Duration commandTimeout) {
		this.factory = factory;
		this.commandTimeout = commandTimeout;
	}

	/**
	 * Return the scripts of a factory, or {@code null} when it is not Lettuce's.
	 * @param factory the factory
	 * @param commandTimeout the longest a call waits for its reply, if the factory's
	 * timeout is not shorter
	 * @return the scripts or {@code null}
	 */
	static @Nullable SharedConnectionScripts of(@Nullable RedisConnectionFactory factory, Duration commandTimeout) {
		return (factory instanceof LettuceConnectionFactory lettuce)
				? new SharedConnectionScripts(lettuce, commandTimeout) : null;
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
	@Nullable List<?> evalSha(LuaScript script, byte[][] keys, byte[][] args) {
		// Outside the translation, as with a template: a stopped factory's own exception.
		Shared current = shared();
		try {
			return await(current, current.commands().evalsha(script.sha1Hex(), ScriptOutputType.MULTI, keys, args),
					current.deadline());
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
	@Nullable List<?> eval(LuaScript script, byte[][] keys, byte[][] args) {
		Shared current = shared();
		try {
			return await(current, current.commands().eval(script.body(), ScriptOutputType.MULTI, keys, args),
					current.deadline());
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
		// One deadline for the whole round trip, not one per reply.
		long deadline = current.deadline();
		for (RedisFuture<@Nullable List<Object>> reply : replies) {
			try {
				List<?> values = await(current, reply, deadline);
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

	/**
	 * Run one plain command per argument, each sent before any reply is awaited, in one
	 * round trip as {@link #evalShaEach} does.
	 * @param <A> the argument's type
	 * @param <T> the reply's type
	 * @param arguments one per command
	 * @param command sends one command on the native connection
	 * @return the replies, in order
	 * @throws DataAccessException on failure
	 */
	<A, T> List<@Nullable T> callEach(List<A> arguments,
			BiFunction<RedisClusterAsyncCommands<byte[], byte[]>, A, RedisFuture<T>> command) {
		Shared current = shared();
		try {
			List<RedisFuture<T>> replies = new ArrayList<>(arguments.size());
			for (A argument : arguments) {
				replies.add(command.apply(current.commands(), argument));
			}
			long deadline = current.deadline();
			List<@Nullable T> values = new ArrayList<>(replies.size());
			for (RedisFuture<T> reply : replies) {
				values.add(awaitReply(current, reply, deadline));
			}
			return values;
		}
		catch (RuntimeException ex) {
			throw translate(ex);
		}
	}

	/**
	 * Run one plain command.
	 * @param <T> the reply's type
	 * @param command sends the command on the native connection
	 * @return the reply
	 * @throws DataAccessException on failure
	 */
	<T> @Nullable T call(Function<RedisClusterAsyncCommands<byte[], byte[]>, RedisFuture<T>> command) {
		Shared current = shared();
		try {
			return awaitReply(current, command.apply(current.commands()), current.deadline());
		}
		catch (RuntimeException ex) {
			throw translate(ex);
		}
	}

	/**
	 * Load a script into the script cache of every node that runs scripts: the one Redis,
	 * or every master of a cluster, as Lettuce's own {@code SCRIPT LOAD} does.
	 * @param script the script
	 * @throws DataAccessException on failure
	 */
	void load(LuaScript script) {
		Shared current = shared();
		try {
			List<RedisFuture<String>> replies = new ArrayList<>();
			if (current.connection() instanceof StatefulRedisClusterConnection<byte[], byte[]> cluster) {
				for (RedisClusterNode node : cluster.getPartitions()) {
					if (node.is(RedisClusterNode.NodeFlag.UPSTREAM)) {
						replies.add(KeylessCommands.scriptLoad(cluster.getConnection(node.getNodeId()).async(),
								script.body()));
					}
				}
			}
			else {
				replies.add(KeylessCommands.scriptLoad(current.commands(), script.body()));
			}
			long deadline = current.deadline();
			for (RedisFuture<String> reply : replies) {
				awaitReply(current, reply, deadline);
			}
		}
		catch (RuntimeException ex) {
			throw translate(ex);
		}
	}

	private @Nullable List<?> await(Shared shared, RedisFuture<@Nullable List<Object>> reply, long deadline) {
		List<Object> values = awaitReply(shared, reply, deadline);
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

	// Waits for a reply until the deadline; a reply that does not come in time is
	// cancelled, which keeps Lettuce from writing it if it still waits in the queue of a
	// connection that is down.
	private <T> @Nullable T awaitReply(Shared shared, RedisFuture<T> reply, long deadline) {
		try {
			return LettuceFutures.awaitOrCancel(reply, Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
		}
		catch (RedisCommandTimeoutException ex) {
			throw new QueryTimeoutException("Redis did not answer within " + shared.timeoutMillis()
					+ " ms (delayqueue.command-timeout, at most spring.data.redis.timeout)"
					+ (shared.connection().isOpen() ? "" : " while the connection was down")
					+ "; a command that had reached Redis may still take effect", ex);
		}
	}

	private Shared shared() {
		Shared current = this.shared;
		// Closed after the factory reset or stopped (or down for a reconnect): ask the
		// factory again, as a template would.
		if (current == null || !current.connection().isOpen()) {
			try (RedisConnection connection = this.factory.getConnection()) {
				RedisClusterAsyncCommands<byte[], byte[]> commands = ((LettuceConnection) connection)
					.getNativeConnection();
				long factoryTimeout = this.factory.getTimeout();
				long timeout = (factoryTimeout > 0) ? Math.min(factoryTimeout, this.commandTimeout.toMillis())
						: this.commandTimeout.toMillis();
				current = new Shared(commands, statefulConnection(commands), timeout);
			}
			this.shared = current;
			ReconnectFailures failures = reconnectFailures();
			Throwable failure = (failures != null) ? failures.lastFailure() : null;
			if (failure != null && !current.connection().isOpen()) {
				// The factory hands out its shared connection also while it is down and
				// Lettuce reconnects; a command would wait in Lettuce's queue for the
				// whole timeout. The latest reconnect failed, so Redis refuses
				// connections or cannot be reached: fail now, with the reason.
				throw new RedisConnectionFailureException("Redis is not reachable: the connection is down and "
						+ "Lettuce's latest attempt to reconnect failed (" + failure.getMessage()
						+ "); the command was not sent", failure);
			}
		}
		return current;
	}

	// Listens to the connection events of the factory's current client, from the first
	// time the shared connection is taken, so that no failed reconnect goes unseen.
	private @Nullable ReconnectFailures reconnectFailures() {
		AbstractRedisClient client = this.factory.getNativeClient();
		if (client == null) {
			return null;
		}
		ReconnectFailures failures = this.reconnectFailures;
		if (failures != null && failures.isOf(client)) {
			return failures;
		}
		synchronized (this) {
			failures = this.reconnectFailures;
			if (failures == null || !failures.isOf(client)) {
				if (failures != null) {
					failures.close();
				}
				failures = ReconnectFailures.of(client);
				this.reconnectFailures = failures;
			}
			return failures;
		}
	}

	private static StatefulConnection<byte[], byte[]> statefulConnection(
			RedisClusterAsyncCommands<byte[], byte[]> commands) {
		// Lettuce deprecated getStatefulConnection() on its command interfaces; the
		// implementations behind them all extend AbstractRedisAsyncCommands.
		if (commands instanceof AbstractRedisAsyncCommands<byte[], byte[]> async) {
			return async.getConnection();
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
	record EncodedCall(LuaScript script, byte[][] keys, byte[][] args) {

	}

	private record Shared(RedisClusterAsyncCommands<byte[], byte[]> commands,
			StatefulConnection<byte[], byte[]> connection, long timeoutMillis) {

		long deadline() {
			return System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(this.timeoutMillis);
		}

	}

}
