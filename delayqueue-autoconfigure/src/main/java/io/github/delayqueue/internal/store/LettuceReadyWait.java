package io.github.delayqueue.internal.store;

import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.LMoveArgs;
import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisAdvancedClusterAsyncCommands;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.codec.ByteArrayCodec;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A wait on a Lettuce connection opened straight from the application's Lettuce client,
 * with the client's own settings (address, credentials, TLS, database, client name,
 * topology), but outside any connection pool: each of a listener's waiters holds one such
 * connection for as long as it runs, and a pool sized for the application's own commands
 * (eight by default) would run dry with more waiters than that.
 * <p>
 * The first wait on a connection sends {@code CLIENT ID} before its blocking move, in one
 * round trip, and the id is kept for the later waits until the connection reconnects
 * (Lettuce tells of that), so that {@link #cancel()} unblocks the current client. A wait
 * that Lettuce resent on a new connection has no known id: a cancel then closes the
 * connection instead. On a Redis Cluster the id belongs to the connection to the master
 * of the queue's slot, one of the node connections inside the cluster connection, and the
 * unblock is sent to that node, where alone the id means anything.
 *
 * @author delayqueue contributors
 */
final class LettuceReadyWait implements ReadyWait {

	private static final Log logger = LogFactory.getLog(LettuceReadyWait.class);

	// On top of the wait itself: how long a reply may take to come back.
	private static final long REPLY_MARGIN_MILLIS = 5000;

	private static final long UNBLOCK_TIMEOUT_MILLIS = 2000;

	// The key of the one connection that blocks on a single Redis.
	private static final Object STANDALONE = new Object();

	private final StatefulConnection<byte[], byte[]> connection;

	private final DelayQueueKeys keys;

	private final StringRedisTemplate redis;

	// The client of the running wait, once its CLIENT ID reply is in.
	private volatile @Nullable CompletableFuture<Client> client;

	// The id of each connection that blocks, by node (STANDALONE on one Redis), known
	// since that connection last connected.
	private final Map<Object, Client> clientIds = new ConcurrentHashMap<>();

	// The connections whose reconnects are listened to, by node.
	private final Map<Object, Boolean> listened = new ConcurrentHashMap<>();

	// Counts the reconnects of the blocking connections, so that an id read across one
	// is not kept.
	private final AtomicLong reconnects = new AtomicLong();

	private volatile boolean cancelled;

	private LettuceReadyWait(StatefulConnection<byte[], byte[]> connection, DelayQueueKeys keys,
			StringRedisTemplate redis) {
		this.connection = connection;
		this.keys = keys;
		this.redis = redis;
	}

	/**
	 * Open a wait from a Lettuce client that knows where to connect by itself.
	 * @param client the application's client
	 * @param keys names the keys
	 * @param redis sends the unblocks
	 * @return the wait, or {@code null} when the client is given its addresses per
	 * connection (static master/replica setups)
	 */
	static @Nullable LettuceReadyWait open(AbstractRedisClient client, DelayQueueKeys keys, StringRedisTemplate redis) {
		try {
			if (client instanceof RedisClusterClient cluster) {
				return new LettuceReadyWait(cluster.connect(ByteArrayCodec.INSTANCE), keys, redis);
			}
			if (client instanceof RedisClient standalone) {
				return new LettuceReadyWait(standalone.connect(ByteArrayCodec.INSTANCE), keys, redis);
			}
			return null;
		}
		catch (IllegalStateException ex) {
			// Lettuce's answer for a client created without an address.
			return null;
		}
	}

	@Override
	public @Nullable String awaitReady(String topic, Duration timeout) {
		if (this.cancelled) {
			return null;
		}
		TopicKeys k = this.keys.topic(topic);
		byte[] ready = bytes(k.ready());
		Node node = nodeOf(ready);
		RedisClusterAsyncCommands<byte[], byte[]> commands = commands();
		CompletableFuture<Client> client = clientOf(node);
		RedisFuture<byte[]> moved = commands.blmove(ready, bytes(k.claiming()), LMoveArgs.Builder.rightLeft(),
				Math.max(0.01, timeout.toMillis() / 1000.0));
		this.client = client;
		try {
			if (this.cancelled) {
				// Cancelled while this wait started: the cancel may have found no client.
				unblock(client);
			}
			byte[] reply = LettuceFutures.awaitOrCancel(moved, timeout.toMillis() + REPLY_MARGIN_MILLIS,
					TimeUnit.MILLISECONDS);
			return (reply != null) ? new String(reply, StandardCharsets.UTF_8) : null;
		}
		catch (RuntimeException ex) {
			if (this.cancelled) {
				// The cancel closed the connection: the wait ended as it asked.
				return null;
			}
			throw ex;
		}
		finally {
			this.client = null;
		}
	}

	/**
	 * Return the client that the blocking move about to be sent runs on: known since its
	 * connection last connected, or asked for with {@code CLIENT ID} on that connection,
	 * just ahead of the move.
	 */
	private CompletableFuture<Client> clientOf(@Nullable Node node) {
		Object key = (node != null) ? node : STANDALONE;
		Client known = this.clientIds.get(key);
		if (known != null) {
			return CompletableFuture.completedFuture(known);
		}
		// Lettuce routes a slot's writes to the connection it keeps for that master's
		// host and port: the blocking move runs there, so CLIENT ID must too.
		StatefulRedisConnection<byte[], byte[]> blocking = (node != null)
				? ((StatefulRedisClusterConnection<byte[], byte[]>) this.connection).getConnection(node.host(),
						node.port())
				: (StatefulRedisConnection<byte[], byte[]>) this.connection;
		if (this.listened.putIfAbsent(key, Boolean.TRUE) == null) {
			blocking.addListener(new ReconnectListener(key));
		}
		long reconnectsBefore = this.reconnects.get();
		return KeylessCommands.clientId(blocking.async()).thenApply((id) -> {
			Client asked = new Client(node, id, reconnectsBefore);
			if (this.reconnects.get() == reconnectsBefore) {
				this.clientIds.put(key, asked);
			}
			return asked;
		}).toCompletableFuture();
	}

	private RedisClusterAsyncCommands<byte[], byte[]> commands() {
		return (this.connection instanceof StatefulRedisClusterConnection<byte[], byte[]> cluster) ? cluster.async()
				: ((StatefulRedisConnection<byte[], byte[]>) this.connection).async();
	}

	private @Nullable Node nodeOf(byte[] key) {
		if (this.connection instanceof StatefulRedisClusterConnection<byte[], byte[]> cluster) {
			RedisClusterNode master = cluster.getPartitions().getMasterBySlot(SlotHash.getSlot(key));
			if (master != null) {
				RedisURI uri = master.getUri();
				return new Node(uri.getHost(), uri.getPort());
			}
		}
		return null;
	}

	@Override
	public void cancel() {
		this.cancelled = true;
		CompletableFuture<Client> current = this.client;
		if (current != null) {
			unblock(current);
		}
	}

	private void unblock(CompletableFuture<Client> client) {
		try {
			// The id comes back at once: the wait blocks only after it.
			Client blocked = client.get(UNBLOCK_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
			if (blocked.reconnects() != this.reconnects.get()) {
				// The wait may have been resent on a new connection, whose id is not
				// known: end it by closing the connection.
				close();
				return;
			}
			this.redis.execute((RedisCallback<Object>) (connection) -> unblock(connection, blocked));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (ExecutionException | TimeoutException | RuntimeException ex) {
			logger.debug("Could not end a blocking wait early", ex);
		}
	}

	private static @Nullable Object unblock(RedisConnection connection, Client blocked) {
		// The template hands out a proxy of its connection: ask it for the native one.
		RedisClusterAsyncCommands<byte[], byte[]> commands = (RedisClusterAsyncCommands<byte[], byte[]>) connection
			.getNativeConnection();
		Node node = blocked.node();
		RedisClusterAsyncCommands<byte[], byte[]> target = (node != null)
				? ((RedisAdvancedClusterAsyncCommands<byte[], byte[]>) commands).getConnection(node.host(), node.port())
				: commands;
		return LettuceFutures.awaitOrCancel(KeylessCommands.clientUnblock(target, blocked.id()), UNBLOCK_TIMEOUT_MILLIS,
				TimeUnit.MILLISECONDS);
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

	private record Node(String host, int port) {

	}

	private record Client(@Nullable Node node, long id, long reconnects) {

	}

	/**
	 * Forgets a connection's id when it disconnects or connects again: the server gives a
	 * new connection a new id.
	 */
	private final class ReconnectListener implements RedisConnectionStateListener {

		private final Object key;

		ReconnectListener(Object key) {
			this.key = key;
		}

		@Override
		public void onRedisConnected(RedisChannelHandler<?, ?> connection, SocketAddress socketAddress) {
			forget();
		}

		@Override
		public void onRedisDisconnected(RedisChannelHandler<?, ?> connection) {
			forget();
		}

		private void forget() {
			LettuceReadyWait.this.reconnects.incrementAndGet();
			LettuceReadyWait.this.clientIds.remove(this.key);
		}

	}

}
