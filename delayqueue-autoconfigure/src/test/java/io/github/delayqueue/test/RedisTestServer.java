package io.github.delayqueue.test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A real Redis server for tests: {@code redis-server} from the PATH when present, else
 * the Redis binary shipped inside the {@code com.github.codemonstur:embedded-redis} jar,
 * on a free port. {@code TEST_REDIS_SERVER} chooses the binary explicitly:
 * {@code embedded} for the jar's (Redis 6.2) or the path of a {@code redis-server}, so
 * that CI can run the suite against each Redis version it claims. Setting
 * {@code TEST_REDIS_URL} (for example {@code redis://localhost:6379}) points tests at an
 * existing server instead; that server is flushed between test classes. The first server
 * a JVM uses is announced on standard output with its version.
 */
public final class RedisTestServer implements AutoCloseable {

	/**
	 * Environment variable naming an existing server to use instead of starting one.
	 */
	public static final String URL_VARIABLE = "TEST_REDIS_URL";

	/**
	 * Environment variable choosing the {@code redis-server} binary: {@value #EMBEDDED}
	 * or a path.
	 */
	public static final String SERVER_VARIABLE = "TEST_REDIS_SERVER";

	/**
	 * The value of {@link #SERVER_VARIABLE} that selects the embedded-redis jar's binary.
	 */
	public static final String EMBEDDED = "embedded";

	private static final String EMBEDDED_BINARY = "redis-server-6.2.6-v5-linux-amd64";

	private static final AtomicBoolean announced = new AtomicBoolean();

	private static volatile Path binary;

	private final String host;

	private final int port;

	private final List<String> extraArgs;

	private final Path directory;

	private final boolean external;

	private Process process;

	private RedisTestServer(String host, int port, List<String> extraArgs, boolean external) throws IOException {
		this.host = host;
		this.port = port;
		this.extraArgs = List.copyOf(extraArgs);
		this.external = external;
		this.directory = Files.createTempDirectory("delayqueue-redis-");
		this.directory.toFile().deleteOnExit();
	}

	/**
	 * Start a server of our own on a free port, or attach to the external one.
	 * @param extraArgs extra {@code redis-server} arguments, such as
	 * {@code --appendonly yes}
	 * @return the running server
	 */
	public static RedisTestServer start(String... extraArgs) {
		try {
			String url = System.getenv(URL_VARIABLE);
			if (url != null && !url.isBlank() && extraArgs.length == 0) {
				URI uri = URI.create(url);
				return announce(
						new RedisTestServer(uri.getHost(), (uri.getPort() > 0) ? uri.getPort() : 6379, List.of(), true),
						url);
			}
			// An explicit choice never falls back to Docker: a run meant to prove one
			// Redis version must fail rather than quietly test another.
			if (chosenBinary() == null && !hasBinary() && DockerRedis.isAvailable()) {
				return announce(new RedisTestServer(DockerRedis.host(), DockerRedis.port(), List.of(), true),
						"a Docker container");
			}
			RedisTestServer server = new RedisTestServer("127.0.0.1", freePort(), List.of(extraArgs), false);
			server.startProcess();
			return announce(server, binary().toString());
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot start a Redis server for tests", ex);
		}
	}

	/**
	 * Start a Redis Cluster node of our own, on a port whose cluster bus port (the port
	 * plus 10000) is free too; {@link RedisTestCluster} joins such nodes into a cluster.
	 * @param nodeTimeout how long a master may be unreachable before its replica takes
	 * over
	 * @return the running node, in a cluster of its own
	 */
	public static RedisTestServer startClusterNode(Duration nodeTimeout) {
		try {
			RedisTestServer server = new RedisTestServer("127.0.0.1", freeClusterPort(),
					List.of("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf", "--cluster-node-timeout",
							String.valueOf(nodeTimeout.toMillis())),
					false);
			server.startProcess();
			return announce(server, binary().toString());
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot start a Redis Cluster node for tests", ex);
		}
	}

	/**
	 * Start a server that its test may stop, kill and restart: never the external one.
	 * @param extraArgs extra {@code redis-server} arguments
	 * @return the running server
	 */
	public static RedisTestServer startDedicated(String... extraArgs) {
		List<String> args = new ArrayList<>(List.of(extraArgs));
		args.add("--dbfilename");
		args.add("dump.rdb");
		return start(args.toArray(String[]::new));
	}

	public String host() {
		return this.host;
	}

	public int port() {
		return this.port;
	}

	/**
	 * Return whether this is the server named by {@link #URL_VARIABLE}.
	 * @return {@code true} for an external server
	 */
	public boolean isExternal() {
		return this.external;
	}

	/**
	 * Create a started connection factory for this server; the caller destroys it.
	 * @return the factory
	 */
	public LettuceConnectionFactory connectionFactory() {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(this.host, this.port));
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

	/**
	 * Send one command and return the raw reply, bypassing every client library.
	 * @param args the command and its arguments
	 * @return the reply as text
	 */
	public String command(String... args) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(this.host, this.port), 2000);
			socket.setSoTimeout(5000);
			StringBuilder request = new StringBuilder("*" + args.length + "\r\n");
			for (String arg : args) {
				request.append('$')
					.append(arg.getBytes(StandardCharsets.UTF_8).length)
					.append("\r\n")
					.append(arg)
					.append("\r\n");
			}
			OutputStream out = socket.getOutputStream();
			out.write(request.toString().getBytes(StandardCharsets.UTF_8));
			out.flush();
			InputStream in = socket.getInputStream();
			byte[] buffer = new byte[65536];
			int read = in.read(buffer);
			return (read > 0) ? new String(buffer, 0, read, StandardCharsets.UTF_8) : "";
		}
		catch (IOException ex) {
			throw new IllegalStateException("Redis command " + String.join(" ", args) + " failed", ex);
		}
	}

	/**
	 * Return whether the server answers a PING.
	 * @return {@code true} if it does
	 */
	public boolean isUp() {
		try {
			return command("PING").startsWith("+PONG");
		}
		catch (IllegalStateException ex) {
			return false;
		}
	}

	/**
	 * Delete all data; in the suite's cluster run, where the tests' applications talk to
	 * the shared cluster instead of the shared server, the cluster's data too.
	 */
	public void flushAll() {
		command("FLUSHALL");
		if (RedisExtension.onCluster() && RedisExtension.isShared(this)) {
			ClusterExtension.cluster().flushAll();
		}
	}

	/**
	 * Stop the server gracefully, as {@code SIGTERM} does.
	 */
	public void stop() {
		requireOwn();
		if (this.process != null) {
			this.process.destroy();
			waitFor(this.process);
			this.process = null;
		}
	}

	/**
	 * Kill the server at once, as {@code kill -9} does.
	 */
	public void kill() {
		requireOwn();
		if (this.process != null) {
			this.process.destroyForcibly();
			waitFor(this.process);
			this.process = null;
		}
	}

	/**
	 * Start the server again on the same port and directory, so that persisted data
	 * returns.
	 */
	public void restart() {
		requireOwn();
		if (this.process == null) {
			startProcess();
		}
	}

	@Override
	public void close() {
		if (!this.external && this.process != null) {
			this.process.destroyForcibly();
			waitFor(this.process);
			this.process = null;
		}
	}

	private void requireOwn() {
		if (this.external) {
			throw new IllegalStateException("The external test Redis server cannot be stopped or restarted");
		}
	}

	private void startProcess() {
		List<String> command = new ArrayList<>(
				List.of(binary().toString(), "--port", String.valueOf(this.port), "--bind", "127.0.0.1", "--save", "",
						"--appendonly", "no", "--dir", this.directory.toString(), "--protected-mode", "no"));
		command.addAll(this.extraArgs);
		try {
			Process started = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(this.directory.resolve("redis.log").toFile())
				.start();
			this.process = started;
			Runtime.getRuntime().addShutdownHook(new Thread(started::destroyForcibly));
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
			while (!isUp()) {
				if (!started.isAlive()) {
					throw new IllegalStateException(
							"Redis exited: " + Files.readString(this.directory.resolve("redis.log")));
				}
				if (System.nanoTime() > deadline) {
					throw new IllegalStateException("Redis did not answer on port " + this.port);
				}
				started.waitFor(20, TimeUnit.MILLISECONDS);
			}
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot start " + command, ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private static void waitFor(Process process) {
		try {
			process.waitFor(Duration.ofSeconds(20).toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * Print the version of the first server this JVM tests against, so that a build log
	 * shows which Redis it proved.
	 */
	private static RedisTestServer announce(RedisTestServer server, String source) {
		if (announced.compareAndSet(false, true)) {
			System.out.println("delayqueue tests run against Redis " + server.version() + " (" + source + ")");
		}
		return server;
	}

	/**
	 * Return how many clients are blocked in a command, such as a blocking move.
	 * @return {@code blocked_clients} of {@code INFO clients}
	 */
	public long blockedClients() {
		for (String line : command("INFO", "clients").split("\r\n")) {
			if (line.startsWith("blocked_clients:")) {
				return Long.parseLong(line.substring("blocked_clients:".length()).trim());
			}
		}
		throw new IllegalStateException("INFO clients has no blocked_clients");
	}

	/**
	 * Return the server's {@code redis_version}.
	 * @return the version, or {@code "unknown"} when the server does not report one
	 */
	public String version() {
		for (String line : command("INFO", "server").split("\r\n")) {
			if (line.startsWith("redis_version:")) {
				return line.substring("redis_version:".length());
			}
		}
		return "unknown";
	}

	private static boolean hasBinary() {
		try {
			binary();
			return true;
		}
		catch (IllegalStateException ex) {
			return false;
		}
	}

	static synchronized Path binary() {
		if (binary != null) {
			return binary;
		}
		String chosen = chosenBinary();
		if (chosen != null && !chosen.equals(EMBEDDED)) {
			Path candidate = Path.of(chosen);
			if (!Files.isExecutable(candidate)) {
				throw new IllegalStateException(SERVER_VARIABLE + "=" + chosen
						+ " names no executable redis-server; use a path or '" + EMBEDDED + "'");
			}
			binary = candidate;
			return binary;
		}
		binary = (chosen != null) ? embeddedBinary() : pathBinary();
		return binary;
	}

	private static @Nullable String chosenBinary() {
		String chosen = System.getenv(SERVER_VARIABLE);
		return (chosen != null && !chosen.isBlank()) ? chosen.trim() : null;
	}

	private static Path pathBinary() {
		for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
			Path candidate = Path.of(dir, "redis-server");
			if (Files.isExecutable(candidate)) {
				return candidate;
			}
		}
		return embeddedBinary();
	}

	private static Path embeddedBinary() {
		String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
		String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
		String resource = EMBEDDED_BINARY;
		if (!os.contains("linux") || !(arch.equals("amd64") || arch.equals("x86_64"))) {
			resource = os.contains("mac") ? (arch.contains("aarch64") ? "redis-server-6.2.6-v5-darwin-arm64"
					: "redis-server-6.2.6-v5-darwin-amd64") : "redis-server-6.2.7-linux-arm64";
		}
		try (InputStream in = RedisTestServer.class.getClassLoader().getResourceAsStream(resource)) {
			if (in == null) {
				throw new IllegalStateException("No redis-server on the PATH and no " + resource
						+ " in the embedded-redis jar; set " + URL_VARIABLE + " to a running Redis");
			}
			Path target = Files.createTempFile("delayqueue-redis-server-", "");
			Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
			target.toFile().setExecutable(true);
			target.toFile().deleteOnExit();
			return target;
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot extract the embedded Redis binary", ex);
		}
	}

	private static int freeClusterPort() throws IOException {
		for (int attempt = 0; attempt < 100; attempt++) {
			int port = freePort();
			if (port + 10000 <= 65535 && isFree(port + 10000)) {
				return port;
			}
			// Ephemeral ports are often above 55535: try one of a lower range too.
			int candidate = 20000 + ThreadLocalRandom.current().nextInt(30000);
			if (isFree(candidate) && isFree(candidate + 10000)) {
				return candidate;
			}
		}
		throw new IOException("No free port pair (port, port + 10000) for a cluster node");
	}

	private static boolean isFree(int port) {
		try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getByName("127.0.0.1"))) {
			socket.setReuseAddress(true);
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

	static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			socket.setReuseAddress(true);
			return socket.getLocalPort();
		}
	}

}
