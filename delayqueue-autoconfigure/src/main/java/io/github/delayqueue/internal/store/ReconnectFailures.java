package io.github.delayqueue.internal.store;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.event.connection.ConnectionActivatedEvent;
import io.lettuce.core.event.connection.ReconnectFailedEvent;
import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;

/**
 * Remembers whether a Lettuce client's latest attempt to reconnect failed, from the
 * client's event bus, so that a call on a connection that is down can fail at once while
 * Redis refuses connections, rather than wait in Lettuce's queue for its timeout.
 *
 * @author delayqueue contributors
 */
final class ReconnectFailures {

	private final AbstractRedisClient client;

	private final Disposable subscription;

	private volatile @Nullable Throwable lastFailure;

	private ReconnectFailures(AbstractRedisClient client) {
		this.client = client;
		this.subscription = client.getResources().eventBus().get().subscribe((event) -> {
			if (event instanceof ReconnectFailedEvent failed) {
				this.lastFailure = failed.getCause();
			}
			else if (event instanceof ConnectionActivatedEvent) {
				this.lastFailure = null;
			}
		});
	}

	/**
	 * Start listening to a client's connection events.
	 * @param client the client
	 * @return the failures of that client
	 */
	static ReconnectFailures of(AbstractRedisClient client) {
		return new ReconnectFailures(client);
	}

	/**
	 * Return whether these are the failures of a client.
	 * @param client the client
	 * @return {@code true} for the client this listens to
	 */
	boolean isOf(@Nullable AbstractRedisClient client) {
		return this.client == client;
	}

	/**
	 * Return why the latest reconnect attempt failed, if no connection was activated
	 * since.
	 * @return the failure, or {@code null}
	 */
	@Nullable Throwable lastFailure() {
		return this.lastFailure;
	}

	/**
	 * Stop listening.
	 */
	void close() {
		this.subscription.dispose();
	}

}
