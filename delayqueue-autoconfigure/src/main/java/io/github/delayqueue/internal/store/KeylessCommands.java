package io.github.delayqueue.internal.store;

import java.nio.charset.StandardCharsets;
import java.util.List;

import io.lettuce.core.RedisFuture;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.output.ValueListOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandKeyword;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.RedisCommand;

/**
 * The delay queue's own Redis commands that carry no key ({@code CLIENT ID},
 * {@code CLIENT UNBLOCK}, {@code TIME}, {@code SCRIPT LOAD}), sent on a Lettuce
 * connection with arguments of a type of their own. Nothing else tells such a command
 * from the same command of the application; by the type, {@link #isOwn(RedisCommand)}
 * does, so that Lettuce's per-command observation can leave them out of the application's
 * traces and meters.
 *
 * @author delayqueue contributors
 */
public final class KeylessCommands {

	private KeylessCommands() {
	}

	/**
	 * Tell whether a command is one of these.
	 * @param command a command as Lettuce writes it, possibly wrapped
	 * @return {@code true} if it was sent by this class
	 */
	public static boolean isOwn(RedisCommand<?, ?, ?> command) {
		return command.getArgs() instanceof OwnArgs;
	}

	/**
	 * Ask for the id of the connection's client.
	 * @param commands the connection
	 * @return the id
	 */
	static RedisFuture<Long> clientId(RedisClusterAsyncCommands<byte[], byte[]> commands) {
		return commands.dispatch(CommandType.CLIENT, new IntegerOutput<>(ByteArrayCodec.INSTANCE),
				new OwnArgs().add(CommandKeyword.ID));
	}

	/**
	 * End a client's blocking command as if it had timed out.
	 * @param commands a connection to the node the client is connected to
	 * @param clientId the client
	 * @return 1 if the client was blocked, else 0
	 */
	static RedisFuture<Long> clientUnblock(RedisClusterAsyncCommands<byte[], byte[]> commands, long clientId) {
		return commands.dispatch(CommandType.CLIENT, new IntegerOutput<>(ByteArrayCodec.INSTANCE),
				new OwnArgs().add(CommandKeyword.UNBLOCK).add(clientId).add(CommandKeyword.TIMEOUT));
	}

	/**
	 * Ask for the server's time; {@link #epochMillis(List)} reads the reply.
	 * @param commands the connection
	 * @return seconds and microseconds
	 */
	static RedisFuture<List<byte[]>> time(RedisClusterAsyncCommands<byte[], byte[]> commands) {
		return commands.dispatch(CommandType.TIME, new ValueListOutput<>(ByteArrayCodec.INSTANCE), new OwnArgs());
	}

	/**
	 * Read the reply of {@link #time}.
	 * @param reply seconds and microseconds
	 * @return the time in epoch milliseconds
	 */
	static long epochMillis(List<byte[]> reply) {
		return epochMicros(reply) / 1000;
	}

	/**
	 * Read the reply of {@link #time} to the microsecond.
	 * @param reply seconds and microseconds
	 * @return the time in epoch microseconds
	 */
	static long epochMicros(List<byte[]> reply) {
		long seconds = Long.parseLong(new String(reply.get(0), StandardCharsets.US_ASCII));
		long micros = Long.parseLong(new String(reply.get(1), StandardCharsets.US_ASCII));
		return seconds * 1_000_000 + micros;
	}

	/**
	 * Load a script into the script cache of the node the connection talks to.
	 * @param commands the connection
	 * @param body the script, encoded as UTF-8
	 * @return its SHA-1
	 */
	static RedisFuture<String> scriptLoad(RedisClusterAsyncCommands<byte[], byte[]> commands, byte[] body) {
		return commands.dispatch(CommandType.SCRIPT, new StatusOutput<>(ByteArrayCodec.INSTANCE),
				new OwnArgs().add(CommandKeyword.LOAD).addValue(body));
	}

	private static final class OwnArgs extends CommandArgs<byte[], byte[]> {

		OwnArgs() {
			super(ByteArrayCodec.INSTANCE);
		}

	}

}
