package io.github.delayqueue.internal.store;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisListCommands;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A wait on a connection from the application's connection factory, for factories whose
 * client cannot open a connection of its own: static master/replica setups and clients
 * other than Lettuce. With a pooled factory it holds one of the pool's connections while
 * its listener runs.
 *
 * @author delayqueue contributors
 */
final class SpringReadyWait implements ReadyWait {

	private static final Log logger = LogFactory.getLog(SpringReadyWait.class);

	private static final Pattern CLIENT_ID = Pattern.compile("\\bid=(\\d+)");

	private final RedisConnection connection;

	private final DelayQueueKeys keys;

	private final StringRedisTemplate redis;

	private final long clientId;

	private volatile boolean waiting;

	private volatile boolean cancelled;

	SpringReadyWait(RedisConnectionFactory factory, DelayQueueKeys keys, StringRedisTemplate redis) {
		this.connection = factory.getConnection();
		this.keys = keys;
		this.redis = redis;
		this.clientId = clientId(this.connection);
	}

	private static long clientId(RedisConnection connection) {
		// Pipelined commands run on the connection's dedicated native connection, the one
		// blocking commands use; plain commands may run on a shared one.
		connection.openPipeline();
		connection.execute("CLIENT", bytes("INFO"));
		List<Object> replies = connection.closePipeline();
		Object info = replies.isEmpty() ? null : replies.get(0);
		String text = (info instanceof byte[] raw) ? new String(raw, StandardCharsets.UTF_8) : String.valueOf(info);
		Matcher id = CLIENT_ID.matcher(text);
		return id.find() ? Long.parseLong(id.group(1)) : -1;
	}

	@Override
	public @Nullable String awaitReady(String topic, Duration timeout) {
		if (this.cancelled) {
			return null;
		}
		TopicKeys k = this.keys.topic(topic);
		this.waiting = true;
		try {
			byte[] id = this.connection.listCommands()
				.bLMove(bytes(k.ready()), bytes(k.claiming()), RedisListCommands.Direction.RIGHT,
						RedisListCommands.Direction.LEFT, Math.max(0.01, timeout.toMillis() / 1000.0));
			return (id != null) ? new String(id, StandardCharsets.UTF_8) : null;
		}
		finally {
			this.waiting = false;
		}
	}

	@Override
	public void cancel() {
		this.cancelled = true;
		if (!this.waiting || this.clientId < 0) {
			return;
		}
		try {
			this.redis.execute((RedisCallback<Object>) (connection) -> connection.execute("CLIENT", bytes("UNBLOCK"),
					bytes(String.valueOf(this.clientId))));
		}
		catch (RuntimeException ex) {
			logger.debug("Could not end a blocking wait early", ex);
		}
	}

	@Override
	public void close() {
		try {
			this.connection.close();
		}
		catch (RuntimeException ex) {
			logger.debug("Closing a blocking connection failed", ex);
		}
	}

	private static byte[] bytes(String value) {
		return value.getBytes(StandardCharsets.UTF_8);
	}

}
