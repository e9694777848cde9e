package io.github.delayqueue.internal.store;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * One consumer's blocking wait for ready jobs, on a connection of its own that nothing
 * else uses: the wait blocks it. Open one with {@link JobClaims#openReadyWait()}; one
 * thread waits on it, any thread may cancel it with {@link #cancel()}.
 *
 * @author delayqueue contributors
 */
public interface ReadyWait extends AutoCloseable {

	/**
	 * Block until a job of a queue (a topic, or a partition of one) is ready, moving its
	 * id into the queue's claiming list.
	 * @param topic the queue
	 * @param timeout how long Redis waits, whole seconds at least
	 * @return the id, or {@code null} when the wait timed out or was cancelled
	 * @throws RuntimeException when the connection failed; the wait is then of no further
	 * use and must be closed
	 */
	@Nullable String awaitReady(String topic, Duration timeout);

	/**
	 * End the current wait now, as if it had timed out, and every later one at once:
	 * nothing is moved. Called when the consumer stops, so that it does not wait for the
	 * wait's timeout, also when its wait had not quite started yet. Never throws.
	 */
	void cancel();

	/**
	 * Close the connection. Never throws.
	 */
	@Override
	void close();

}
