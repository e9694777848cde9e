package io.github.delayqueue.http;

import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

/**
 * The time one callback may take, connecting included: hands out what is left of it as
 * socket timeouts, and closes the connection when it is up.
 *
 * @author delayqueue contributors
 */
final class CallDeadline implements AutoCloseable {

	private final Duration timeout;

	private final long deadlineNanos;

	private @Nullable CompletableFuture<Void> closer;

	CallDeadline(Duration timeout) {
		this.timeout = timeout;
		this.deadlineNanos = System.nanoTime() + timeout.toNanos();
	}

	/**
	 * Return the time the whole call may take.
	 * @return the timeout
	 */
	Duration timeout() {
		return this.timeout;
	}

	/**
	 * Return whether the time is up.
	 * @return {@code true} once the deadline has passed
	 */
	boolean hasPassed() {
		return System.nanoTime() - this.deadlineNanos >= 0;
	}

	/**
	 * Return the time left, for a socket timeout.
	 * @return the milliseconds left, at least 1
	 * @throws SocketTimeoutException if the time is up
	 */
	int remainingMillis() throws SocketTimeoutException {
		long remaining = this.deadlineNanos - System.nanoTime();
		if (remaining <= 0) {
			throw new SocketTimeoutException("The call took longer than " + this.timeout);
		}
		return (int) Math.min(Integer.MAX_VALUE, TimeUnit.NANOSECONDS.toMillis(remaining) + 1);
	}

	/**
	 * Close a connected socket when the time is up. Socket timeouts bound connecting and
	 * reading, but nothing bounds writing a body that the server does not read.
	 * @param socket the plain socket, not a TLS socket layered on it, whose closing could
	 * wait for a blocked writer
	 */
	void closeWhenPassed(Socket socket) {
		long remaining = Math.max(0, this.deadlineNanos - System.nanoTime());
		// Runs on the JDK's own delay thread: closing a socket does not block.
		this.closer = CompletableFuture.runAsync(() -> closeQuietly(socket),
				CompletableFuture.delayedExecutor(remaining, TimeUnit.NANOSECONDS, Runnable::run));
	}

	@Override
	public void close() {
		CompletableFuture<Void> closer = this.closer;
		if (closer != null) {
			closer.cancel(false);
		}
	}

	static void closeQuietly(Socket socket) {
		try {
			socket.close();
		}
		catch (IOException ex) {
			// Closing is all that is left to do with it.
		}
	}

}
