package io.github.delayqueue.listener;

import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;

import io.github.delayqueue.store.JobClaims;
import io.github.delayqueue.store.ReconnectBackoff;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * Waits for a ready job of one topic with a blocking move on a connection of its own, and
 * hands the id to its container. It blocks only while the container is idle, that is has
 * a free worker and found nothing ready. The server-side timeout keeps every wait short;
 * after any failure (connection killed, Redis restarted or failed over) it drops the
 * connection and opens a new one, backing off while Redis stays away.
 *
 * @author delayqueue contributors
 */
final class ReadyJobWaiter implements Runnable {

	private static final Log logger = LogFactory.getLog(ReadyJobWaiter.class);

	private final String topic;

	private final JobClaims claims;

	private final RedisConnectionFactory connectionFactory;

	private final Duration pollTimeout;

	private final Handoff handoff;

	private final TopicPauses pauses;

	private @Nullable RedisConnection connection;

	private volatile long clientId = -1;

	ReadyJobWaiter(String topic, JobClaims claims, RedisConnectionFactory connectionFactory, Duration pollTimeout,
			Handoff handoff, TopicPauses pauses) {
		this.topic = topic;
		this.claims = claims;
		this.connectionFactory = connectionFactory;
		this.pollTimeout = pollTimeout;
		this.handoff = handoff;
		this.pauses = pauses;
	}

	@Override
	public void run() {
		int failures = 0;
		try {
			while (this.handoff.awaitIdle()) {
				Duration paused = this.pauses.remaining(this.topic);
				if (!paused.isZero()) {
					// A blocking move now would only bring an id the claim puts back.
					this.handoff.pause(paused);
					continue;
				}
				try {
					String id = this.claims.awaitReady(connection(), this.topic, this.pollTimeout);
					failures = 0;
					if (id != null && !this.handoff.offer(this.topic, id)) {
						this.claims.unclaim(this.topic, List.of(id));
					}
				}
				catch (RuntimeException ex) {
					closeConnection();
					failures++;
					if (this.handoff.isRunning()) {
						if (failures == 1) {
							logger.warn("Waiting for jobs of topic '" + this.topic + "' failed; reconnecting", ex);
						}
						this.handoff.pause(ReconnectBackoff.delay(failures));
					}
				}
			}
		}
		finally {
			closeConnection();
		}
	}

	private RedisConnection connection() {
		RedisConnection current = this.connection;
		if (current == null || current.isClosed()) {
			current = this.connectionFactory.getConnection();
			this.connection = current;
			this.clientId = this.claims.blockingClientId(current);
		}
		return current;
	}

	/**
	 * End the current blocking wait now, so that a stop does not wait for its timeout.
	 * Nothing is moved by the ended wait.
	 */
	void wakeUp() {
		long id = this.clientId;
		if (id >= 0) {
			try {
				this.claims.unblock(id);
			}
			catch (RuntimeException ex) {
				logger.debug("Could not end a blocking wait early", ex);
			}
		}
	}

	private void closeConnection() {
		this.clientId = -1;
		RedisConnection current = this.connection;
		this.connection = null;
		if (current != null) {
			try {
				current.close();
			}
			catch (RuntimeException ex) {
				logger.debug("Closing a blocking connection failed", ex);
			}
		}
	}

	/**
	 * Where waiters learn that their container is idle and leave the ids they moved.
	 */
	interface Handoff {

		/**
		 * Block until the container is idle.
		 * @return {@code false} when the container stopped
		 */
		boolean awaitIdle();

		/**
		 * Hand over an id moved into the claiming list.
		 * @param topic the topic
		 * @param id the id
		 * @return {@code false} if the container stopped and will not claim it
		 */
		boolean offer(String topic, String id);

		/**
		 * Tell whether the container still runs.
		 * @return {@code true} while running
		 */
		boolean isRunning();

		/**
		 * Wait a while, returning early when the container stops.
		 * @param duration how long
		 */
		void pause(Duration duration);

	}

}
