package io.github.delayqueue.test;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import redis.embedded.core.ExecutableProvider;

/**
 * A {@code redis-server} process for the tests of one JVM, on a free port of the loopback
 * interface, without persistence, stopped when the JVM exits: one per binary, shared by
 * every application context of the tests, which keep apart by their key prefixes. The
 * embedded-redis jar supplies the default binary; its own server class is not used.
 *
 * @author delayqueue contributors
 */
final class EmbeddedRedisServer {

	/**
	 * The value of {@code delayqueue-test.redis-server} that names the jar's binary.
	 */
	static final String EMBEDDED = "embedded";

	private static final Log logger = LogFactory.getLog(EmbeddedRedisServer.class);

	private static final Map<String, EmbeddedRedisServer> servers = new ConcurrentHashMap<>();

	private final Process process;

	private final int port;

	private EmbeddedRedisServer(Process process, int port) {
		this.process = process;
		this.port = port;
	}

	/**
	 * Return the running server of a binary, starting it on first use.
	 * @param binary the path of a {@code redis-server}, or {@value #EMBEDDED} (or
	 * {@code null}) for the embedded-redis jar's
	 * @return the server
	 */
	static EmbeddedRedisServer of(String binary) {
		String chosen = (binary == null || binary.isBlank()) ? EMBEDDED : binary.trim();
		EmbeddedRedisServer server = servers.computeIfAbsent(chosen, EmbeddedRedisServer::start);
		if (!server.process.isAlive()) {
			throw new IllegalStateException("The test Redis on port " + server.port + " (" + chosen
					+ ") has exited; see the redis.log of its directory");
		}
		return server;
	}

	String host() {
		return "127.0.0.1";
	}

	int port() {
		return this.port;
	}

	/**
	 * Start a server of its own, shared with nobody, stopped when the JVM exits.
	 * @param chosen the path of a {@code redis-server}, or {@value #EMBEDDED}
	 * @return the server
	 */
	static EmbeddedRedisServer start(String chosen) {
		try {
			Path binary = binary(chosen);
			Path directory = Files.createTempDirectory("delayqueue-test-redis-");
			int port = freePort();
			Process process = new ProcessBuilder(List.of(binary.toString(), "--port", String.valueOf(port), "--bind",
					"127.0.0.1", "--save", "", "--appendonly", "no", "--dir", directory.toString()))
				.redirectErrorStream(true)
				.redirectOutput(directory.resolve("redis.log").toFile())
				.start();
			Runtime.getRuntime().addShutdownHook(new Thread(process::destroyForcibly, "delayqueue-test-redis-stop"));
			awaitConnections(process, port, directory);
			logger.info("Started Redis for tests on 127.0.0.1:" + port + " (" + binary + ")");
			return new EmbeddedRedisServer(process, port);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot start a Redis server for tests (" + chosen + ")", ex);
		}
	}

	private static Path binary(String chosen) throws IOException {
		if (chosen.equals(EMBEDDED)) {
			File extracted = ExecutableProvider.newJarResourceProvider().get();
			return extracted.toPath();
		}
		Path path = Path.of(chosen);
		if (!Files.isExecutable(path)) {
			throw new IllegalStateException("delayqueue-test.redis-server=" + chosen
					+ " names no executable redis-server; give a path or '" + EMBEDDED + "'");
		}
		return path;
	}

	private static void awaitConnections(Process process, int port, Path directory) throws IOException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
		while (true) {
			try (Socket socket = new Socket()) {
				socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
				return;
			}
			catch (IOException notYet) {
				if (!process.isAlive()) {
					throw new IOException("Redis exited: " + Files.readString(directory.resolve("redis.log")));
				}
				if (System.nanoTime() - deadline > 0) {
					process.destroyForcibly();
					throw new IOException("Redis did not accept connections on port " + port + " within 20 s");
				}
				try {
					process.waitFor(20, TimeUnit.MILLISECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					throw new IOException("Interrupted while starting Redis", ex);
				}
			}
		}
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

}
