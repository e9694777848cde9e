package io.github.delayqueue.samples.ordertimeout;

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
import java.util.concurrent.TimeUnit;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import redis.embedded.core.ExecutableProvider;

import org.springframework.boot.SpringApplication;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Starts the Redis server shipped in the embedded-redis jar on a free port when the
 * application names no Redis of its own, so that the sample runs on a machine without
 * Redis. The starter itself never starts servers; this belongs to the sample.
 *
 * @author delayqueue contributors
 */
public class EmbeddedRedisInitializer implements ApplicationContextInitializer<ConfigurableApplicationContext> {

	private static final Log logger = LogFactory.getLog(EmbeddedRedisInitializer.class);

	private static final String[] REDIS_PROPERTIES = { "spring.data.redis.url", "spring.data.redis.host",
			"spring.data.redis.port", "spring.data.redis.sentinel.master", "spring.data.redis.cluster.nodes" };

	@Override
	public void initialize(ConfigurableApplicationContext context) {
		ConfigurableEnvironment environment = context.getEnvironment();
		if (!environment.getProperty("sample.embedded-redis.enabled", Boolean.class, true) || namesRedis(environment)) {
			return;
		}
		EmbeddedRedis redis = EmbeddedRedis.launch();
		logger.info("No spring.data.redis.* configured: started the embedded Redis on 127.0.0.1:" + redis.port);
		environment.getPropertySources()
			.addFirst(new MapPropertySource("embeddedRedis",
					Map.of("spring.data.redis.host", "127.0.0.1", "spring.data.redis.port", redis.port)));
		// A lifecycle bean in the lowest phase is stopped after every other one, so the
		// listeners and the connection factory let go of Redis before it goes away.
		context.getBeanFactory().registerSingleton("embeddedRedis", redis);
		// Runs at JVM exit once every context is closed, also when start-up failed and no
		// lifecycle bean was ever stopped.
		SpringApplication.getShutdownHandlers().add(redis::stop);
	}

	private static boolean namesRedis(ConfigurableEnvironment environment) {
		for (String name : REDIS_PROPERTIES) {
			if (environment.containsProperty(name)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * A {@code redis-server} process of our own. The embedded-redis library only supplies
	 * the binary: its own server class stops Redis from a JVM shutdown hook that races
	 * the application's shutdown.
	 */
	static final class EmbeddedRedis implements SmartLifecycle {

		private final Process process;

		private final int port;

		private EmbeddedRedis(Process process, int port) {
			this.process = process;
			this.port = port;
		}

		static EmbeddedRedis launch() {
			try {
				File binary = ExecutableProvider.newJarResourceProvider().get();
				Path directory = Files.createTempDirectory("order-timeout-redis-");
				int port = freePort();
				Process process = new ProcessBuilder(List.of(binary.getAbsolutePath(), "--port", String.valueOf(port),
						"--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", directory.toString()))
					.redirectErrorStream(true)
					.redirectOutput(directory.resolve("redis.log").toFile())
					.start();
				awaitConnections(process, port, directory);
				return new EmbeddedRedis(process, port);
			}
			catch (IOException ex) {
				throw new UncheckedIOException("Cannot start the embedded Redis", ex);
			}
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
					if (System.nanoTime() > deadline) {
						process.destroyForcibly();
						throw new IOException("Redis did not accept connections on port " + port);
					}
					waitFor(process, 20);
				}
			}
		}

		private static int freePort() throws IOException {
			try (ServerSocket socket = new ServerSocket(0)) {
				return socket.getLocalPort();
			}
		}

		@Override
		public void start() {
			// Started by the initializer, before any bean needed it.
		}

		@Override
		public void stop() {
			if (this.process.isAlive()) {
				this.process.destroy();
				if (!waitFor(this.process, 5000)) {
					this.process.destroyForcibly();
				}
				logger.info("Stopped the embedded Redis on port " + this.port);
			}
		}

		@Override
		public boolean isRunning() {
			return this.process.isAlive();
		}

		@Override
		public int getPhase() {
			return Integer.MIN_VALUE;
		}

		private static boolean waitFor(Process process, long millis) {
			try {
				return process.waitFor(millis, TimeUnit.MILLISECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return false;
			}
		}

	}

}
