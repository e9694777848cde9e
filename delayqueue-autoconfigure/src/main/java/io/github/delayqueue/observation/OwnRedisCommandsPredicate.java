package io.github.delayqueue.observation;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.RedisCommand;
import io.lettuce.core.tracing.LettuceObservationContext;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationPredicate;

/**
 * Keeps Lettuce from observing the starter's own Redis commands: the scripts of a send or
 * a handler run, the blocking waits, claims, acknowledgements and sweeps. Each would
 * otherwise be a timer sample and a span of its own, which cost a send about a fifth of
 * its rate in an application with Actuator while telling an operator nothing the
 * {@code delayqueue.send} and {@code delayqueue.process} observations do not. The
 * application's own commands are observed as before. A command is the starter's when its
 * first key is one of the starter's: {@code {<prefix>:...}} or {@code <prefix>:...}.
 *
 * @author delayqueue contributors
 */
public class OwnRedisCommandsPredicate implements ObservationPredicate {

	private final byte[] taggedPrefix;

	private final byte[] plainPrefix;

	/**
	 * Create the predicate.
	 * @param keyPrefix the starter's key prefix ({@code delayqueue.key-prefix})
	 */
	public OwnRedisCommandsPredicate(String keyPrefix) {
		this.taggedPrefix = ("{" + keyPrefix + ":").getBytes(StandardCharsets.UTF_8);
		this.plainPrefix = (keyPrefix + ":").getBytes(StandardCharsets.UTF_8);
	}

	@Override
	public boolean test(String name, Observation.Context context) {
		if (!(context instanceof LettuceObservationContext lettuce) || !lettuce.hasCommand()) {
			return true;
		}
		return !isOwn(lettuce.getRequiredCommand());
	}

	private boolean isOwn(RedisCommand<?, ?, ?> command) {
		CommandArgs<?, ?> args = command.getArgs();
		ByteBuffer key = (args != null) ? args.getFirstEncodedKey() : null;
		return key != null && (startsWith(key, this.taggedPrefix) || startsWith(key, this.plainPrefix));
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

}
