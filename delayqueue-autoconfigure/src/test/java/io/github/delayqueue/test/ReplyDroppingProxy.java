package io.github.delayqueue.test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy in front of a real Redis that can lose one reply: Redis runs the command,
 * the proxy throws the answer away and cuts the client's connection, as a network failure
 * at the wrong moment would. Clients that resend unanswered commands after reconnecting
 * then run the same command a second time. It can also hold every reply back for a while,
 * as a distant or overloaded server would.
 */
public final class ReplyDroppingProxy implements AutoCloseable {

	private final ServerSocket listener;

	private final String targetHost;

	private final int targetPort;

	private final AtomicBoolean dropNextReply = new AtomicBoolean();

	private final AtomicBoolean swallowReplies = new AtomicBoolean();

	private final AtomicInteger droppedReplies = new AtomicInteger();

	private volatile long replyDelayMillis;

	private final AtomicInteger connections = new AtomicInteger();

	private final List<Socket> sockets = new CopyOnWriteArrayList<>();

	private ReplyDroppingProxy(String targetHost, int targetPort) throws IOException {
		this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		this.targetHost = targetHost;
		this.targetPort = targetPort;
		daemon("proxy-accept", this::acceptConnections);
	}

	/**
	 * Start a proxy to a Redis server.
	 * @param server the server
	 * @return the proxy, accepting connections
	 */
	public static ReplyDroppingProxy start(RedisTestServer server) {
		try {
			return new ReplyDroppingProxy(server.host(), server.port());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	public int port() {
		return this.listener.getLocalPort();
	}

	/**
	 * Throw away the next bytes Redis sends back, whatever connection they are for, and
	 * cut that connection on both sides.
	 */
	public void dropNextReplyAndDisconnect() {
		this.dropNextReply.set(true);
	}

	/**
	 * From now on pass every command on to Redis and no reply back, keeping every
	 * connection open, as a server that hangs would; new connections are accepted and
	 * never answered either.
	 */
	public void swallowReplies() {
		this.swallowReplies.set(true);
	}

	/**
	 * From now on hold each reply back for this long before passing it on: every call
	 * then takes at least this long, as it would with a server far away.
	 * @param delay how long each reply is held back
	 */
	public void delayReplies(Duration delay) {
		this.replyDelayMillis = delay.toMillis();
	}

	public int droppedReplies() {
		return this.droppedReplies.get();
	}

	/**
	 * How many client connections the proxy has accepted so far.
	 * @return the count
	 */
	public int connections() {
		return this.connections.get();
	}

	@Override
	public void close() throws IOException {
		this.listener.close();
		for (Socket socket : this.sockets) {
			socket.close();
		}
	}

	private void acceptConnections() {
		while (!this.listener.isClosed()) {
			try {
				Socket client = this.listener.accept();
				Socket server = new Socket(this.targetHost, this.targetPort);
				this.sockets.add(client);
				this.sockets.add(server);
				this.connections.incrementAndGet();
				daemon("proxy-requests", () -> pump(client, server, false));
				daemon("proxy-replies", () -> pump(server, client, true));
			}
			catch (IOException ex) {
				// Closed: the proxy is shutting down.
			}
		}
	}

	private void pump(Socket from, Socket to, boolean replies) {
		byte[] buffer = new byte[64 * 1024];
		// Delayed replies travel through a line of their own, each held back from the
		// moment it came in: a delay is latency, as over a long link, and replies in
		// flight together arrive together instead of queueing one delay after another.
		DelayedReplies delayed = null;
		try (from; to) {
			InputStream in = from.getInputStream();
			OutputStream out = to.getOutputStream();
			int read;
			while ((read = in.read(buffer)) >= 0) {
				if (replies && this.dropNextReply.compareAndSet(true, false)) {
					this.droppedReplies.incrementAndGet();
					return;
				}
				if (replies && this.swallowReplies.get()) {
					continue;
				}
				if (replies && this.replyDelayMillis > 0) {
					if (delayed == null) {
						delayed = new DelayedReplies(out, to);
					}
					delayed.add(Arrays.copyOf(buffer, read), System.nanoTime() + this.replyDelayMillis * 1_000_000);
				}
				else {
					out.write(buffer, 0, read);
					out.flush();
				}
			}
		}
		catch (IOException ex) {
			// One side went away; closing both ends tells the other.
		}
		finally {
			if (delayed != null) {
				delayed.end();
			}
		}
	}

	/**
	 * The replies of one connection on their way to the client, in order, each passed on
	 * once its time has come.
	 */
	private static final class DelayedReplies {

		private static final Reply END = new Reply(new byte[0], 0);

		private final BlockingQueue<Reply> replies = new LinkedBlockingQueue<>();

		DelayedReplies(OutputStream out, Socket client) {
			daemon("proxy-delayed-replies", () -> {
				try (client) {
					while (true) {
						Reply reply = this.replies.take();
						if (reply == END) {
							return;
						}
						long left = reply.dueNanos() - System.nanoTime();
						if (left > 0) {
							// Latency, not a wait for a condition: the reply is on its
							// way.
							Thread.sleep(left / 1_000_000, (int) (left % 1_000_000));
						}
						out.write(reply.bytes());
						out.flush();
					}
				}
				catch (IOException ex) {
					// The client went away.
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			});
		}

		void add(byte[] bytes, long dueNanos) {
			this.replies.add(new Reply(bytes, dueNanos));
		}

		// The connection ended: the line's thread ends too.
		void end() {
			this.replies.add(END);
		}

		private record Reply(byte[] bytes, long dueNanos) {

		}

	}

	private static void daemon(String name, Runnable task) {
		Thread thread = new Thread(task, name);
		thread.setDaemon(true);
		thread.start();
	}

}
