package io.github.delayqueue.benchmark;

import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

import org.springframework.util.FileSystemUtils;

/**
 * The Redis under test: an existing server named by URL, or one this process starts on a
 * free port from {@code redis-server} on the PATH, else from the binary inside the
 * {@code embedded-redis} jar. Persistence is off so that snapshots never disturb a
 * measurement.
 */
final class BenchmarkRedis implements AutoCloseable {

	private static final String EMBEDDED_BINARY = "redis-server-6.2.6-v5-linux-amd64";

	private static @Nullable Path extracted;

	private final String host;

	private final int port;

	private final @Nullable Process process;

	private final @Nullable Path dir;

	private final String origin;

	private BenchmarkRedis(String host, int port, @Nullable Process process, @Nullable Path dir, String origin) {
		this.host = host;
		this.port = port;
		this.process = process;
		this.dir = dir;
		this.origin = origin;
	}

	static BenchmarkRedis connectOrStart(@Nullable String url) {
		if (url != null) {
			URI uri = URI.create(url);
			return new BenchmarkRedis(uri.getHost(), (uri.getPort() > 0) ? uri.getPort() : 6379, null, null, url);
		}
		try {
			Path binary = serverBinary();
			String origin = binaryOrigin(binary);
			int port;
			try (ServerSocket socket = new ServerSocket(0)) {
				port = socket.getLocalPort();
			}
			Path dir = Files.createTempDirectory("delayqueue-benchmark-redis-");
			Process process = new ProcessBuilder(List.of(binary.toString(), "--port", String.valueOf(port), "--bind",
					"127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir.toString(), "--protected-mode", "no"))
				.redirectErrorStream(true)
				.redirectOutput(dir.resolve("redis.log").toFile())
				.start();
			Runtime.getRuntime().addShutdownHook(new Thread(process::destroyForcibly));
			BenchmarkRedis redis = new BenchmarkRedis("127.0.0.1", port, process, dir, origin);
			redis.awaitUp(dir);
			return redis;
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot start Redis for the benchmark; pass --redis-url", ex);
		}
	}

	private void awaitUp(Path dir) throws IOException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
		while (true) {
			try (RespConnection connection = connect()) {
				connection.call("PING");
				return;
			}
			catch (IllegalStateException ex) {
				if (this.process != null && !this.process.isAlive()) {
					throw new IllegalStateException("Redis exited: " + Files.readString(dir.resolve("redis.log")));
				}
				if (System.nanoTime() > deadline) {
					throw new IllegalStateException("Redis did not answer on port " + this.port, ex);
				}
				Thread.onSpinWait();
			}
		}
	}

	/**
	 * Return the {@code redis-server} to start: the one on the PATH, else the one inside
	 * the embedded-redis jar, extracted once.
	 * @return the binary
	 * @throws IOException if the bundled binary cannot be extracted
	 */
	static synchronized Path serverBinary() throws IOException {
		if (extracted == null) {
			Path onPath = findOnPath();
			extracted = (onPath != null) ? onPath : extractEmbedded();
		}
		return extracted;
	}

	static String binaryOrigin(Path binary) {
		return binary.getFileName().toString().startsWith("delayqueue-benchmark-redis-server-")
				? "embedded-redis " + EMBEDDED_BINARY : binary.toString();
	}

	private static @Nullable Path findOnPath() {
		for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
			Path candidate = Path.of(dir, "redis-server");
			if (Files.isExecutable(candidate)) {
				return candidate;
			}
		}
		return null;
	}

	private static Path extractEmbedded() throws IOException {
		String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
		String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
		if (!os.contains("linux") || !(arch.equals("amd64") || arch.equals("x86_64"))) {
			throw new IllegalStateException(
					"The bundled Redis binary is for Linux x86-64 only; install redis-server" + " or pass --redis-url");
		}
		try (InputStream in = BenchmarkRedis.class.getClassLoader().getResourceAsStream(EMBEDDED_BINARY)) {
			if (in == null) {
				throw new IllegalStateException("No " + EMBEDDED_BINARY + " on the classpath; pass --redis-url");
			}
			Path target = Files.createTempFile("delayqueue-benchmark-redis-server-", "");
			Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
			target.toFile().setExecutable(true);
			target.toFile().deleteOnExit();
			return target;
		}
	}

	String host() {
		return this.host;
	}

	int port() {
		return this.port;
	}

	String url() {
		return "redis://" + this.host + ":" + this.port;
	}

	/**
	 * Say where the server came from, for the report.
	 * @return the URL given or the binary started
	 */
	String origin() {
		return this.origin;
	}

	RespConnection connect() {
		return new RespConnection(this.host, this.port);
	}

	void flushAll() {
		try (RespConnection connection = connect()) {
			connection.call("FLUSHALL");
		}
	}

	String version() {
		try (RespConnection connection = connect()) {
			return connection.info("server", "redis_version");
		}
	}

	@Override
	public void close() {
		if (this.process != null && this.dir != null) {
			stop(this.process, this.dir);
		}
	}

	/**
	 * Stop a Redis the benchmark started and delete its directory (its log), which would
	 * otherwise pile up in the temporary directory, one per run.
	 * @param process the server
	 * @param dir its directory
	 */
	static void stop(Process process, Path dir) {
		process.destroy();
		try {
			if (!process.waitFor(10, TimeUnit.SECONDS)) {
				process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return;
		}
		FileSystemUtils.deleteRecursively(dir.toFile());
	}

}
