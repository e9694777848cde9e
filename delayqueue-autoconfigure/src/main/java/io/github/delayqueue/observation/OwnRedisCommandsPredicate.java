package io.github.delayqueue.observation;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Set;

import io.github.delayqueue.internal.store.KeylessCommands;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.ProtocolKeyword;
import io.lettuce.core.protocol.RedisCommand;
import io.lettuce.core.tracing.LettuceObservationContext;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationPredicate;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * Keeps Lettuce from observing the starter's own Redis commands: the scripts of a send or
 * a handler run, the blocking waits, claims, acknowledgements and sweeps, and the keyless
 * ones around them ({@code CLIENT ID} and {@code CLIENT UNBLOCK} of the blocking waits,
 * {@code TIME}, {@code SCRIPT LOAD}, the subscription to the wake-up channels). Each
 * would otherwise be a timer sample and a span of its own, most of them a trace of one
 * span, telling an operator nothing the {@code delayqueue.send} and
 * {@code delayqueue.process} observations do not. The application's own commands, keyless
 * ones included, are observed as before.
 * <p>
 * A command is the starter's when its first key is one of the starter's
 * ({@code {<prefix>:...}} or {@code <prefix>:...}), when it (un)subscribes from channels
 * of the starter's ({@code <prefix>:...}), or when the starter sent it without a key
 * ({@link KeylessCommands}). Lettuce's handshake on a new connection ({@code HELLO},
 * {@code CLIENT SETINFO}) is Lettuce's own and carries nothing that tells whose
 * connection it is, so it stays observed: once per connection, never while idle.
 *
 * @author delayqueue contributors
 */
public class OwnRedisCommandsPredicate implements ObservationPredicate {

	private static final Set<ProtocolKeyword> SUBSCRIPTIONS = Set.of(CommandType.SUBSCRIBE, CommandType.UNSUBSCRIBE,
			CommandType.PSUBSCRIBE, CommandType.PUNSUBSCRIBE, CommandType.SSUBSCRIBE, CommandType.SUNSUBSCRIBE);

	private final byte[] taggedPrefix;

	private final byte[] plainPrefix;

	// A channel as the protocol writes it: its length, then the name on a line of its
	// own.
	private final byte[] encodedChannelPrefix;

	/**
	 * Create the predicate.
	 * @param keyPrefix the starter's key prefix ({@code delayqueue.key-prefix})
	 */
	public OwnRedisCommandsPredicate(String keyPrefix) {
		this.taggedPrefix = ("{" + keyPrefix + ":").getBytes(StandardCharsets.UTF_8);
		this.plainPrefix = (keyPrefix + ":").getBytes(StandardCharsets.UTF_8);
		this.encodedChannelPrefix = ("\r\n" + keyPrefix + ":").getBytes(StandardCharsets.UTF_8);
	}

	@Override
	public boolean test(String name, Observation.Context context) {
		if (!(context instanceof LettuceObservationContext lettuce) || !lettuce.hasCommand()) {
			return true;
		}
		return !isOwn(lettuce.getRequiredCommand());
	}

	private boolean isOwn(RedisCommand<?, ?, ?> command) {
		if (KeylessCommands.isOwn(command)) {
			return true;
		}
		CommandArgs<?, ?> args = command.getArgs();
		if (args == null) {
			return false;
		}
		ByteBuffer key = args.getFirstEncodedKey();
		if (key != null) {
			return startsWith(key, this.taggedPrefix) || startsWith(key, this.plainPrefix);
		}
		return SUBSCRIPTIONS.contains(command.getType()) && namesOwnChannel(args);
	}

	// Lettuce keeps a subscription's channels apart from keys, readable only as the
	// command is written; (un)subscribing is rare, so writing it once more costs nothing.
	private boolean namesOwnChannel(CommandArgs<?, ?> args) {
		ByteBuf encoded = Unpooled.buffer();
		try {
			args.encode(encoded);
			byte[] written = new byte[encoded.readableBytes()];
			encoded.readBytes(written);
			return indexOf(written, this.encodedChannelPrefix) >= 0;
		}
		finally {
			encoded.release();
		}
	}

	private static boolean startsWith(ByteBuffer key, byte[] prefix) {
		if (key.remaining() < prefix.length) {
			return false;
		}
		int start = key.position();
		for (int i = 0; i < prefix.length; i++) {
			if (key.get(start + i) != prefix[i]) {
				return false;
			}
		}
		return true;
	}

	private static int indexOf(byte[] bytes, byte[] part) {
		outer: for (int i = 0; i <= bytes.length - part.length; i++) {
			for (int j = 0; j < part.length; j++) {
				if (bytes[i + j] != part[j]) {
					continue outer;
				}
			}
			return i;
		}
		return -1;
	}

}
