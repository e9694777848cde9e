package io.github.delayqueue.test;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A consumer running in a JVM of its own, so that a test can kill it with {@code kill -9}
 * while it holds jobs. It runs {@link ConsumerProcessApplication}.
 */
public final class ConsumerProcess implements AutoCloseable {

	private final Process process;

	private final Path log;

	private ConsumerProcess(Process process, Path log) {
		this.process = process;
		this.log = log;
	}

	/**
	 * Start a consumer JVM.
	 * @param server the Redis server
	 * @param mode what its listener does with a job: {@code hold} (never returns) or
	 * {@code complete}
	 * @param properties extra application properties, as {@code name=value}
	 * @return the running process
	 */
	public static ConsumerProcess start(RedisTestServer server, String mode, String... properties) {
		try {
			Path log = Files.createTempFile("delayqueue-consumer-", ".log");
			List<String> command = new ArrayList<>();
			command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
			command.add("-Xmx256m");
			command.add("-cp");
			command.add(System.getProperty("java.class.path"));
			command.add(ConsumerProcessApplication.class.getName());
			command.add("--spring.data.redis.host=" + server.host());
			command.add("--spring.data.redis.port=" + server.port());
			if (RedisExtension.onCluster()) {
				command.add("--spring.data.redis.cluster.nodes=" + ClusterExtension.cluster().nodesProperty());
			}
			command.add("--consumer.mode=" + mode);
			for (String property : properties) {
				command.add("--" + property);
			}
			Process process = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(log.toFile())
				.start();
			return new ConsumerProcess(process, log);
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot start a consumer JVM", ex);
		}
	}

	/**
	 * Kill the JVM at once, as {@code kill -9} does, and wait until it is gone.
	 */
	public void kill() {
		this.process.destroyForcibly();
		waitForExit();
	}

	/**
	 * Stop the JVM gracefully, as {@code SIGTERM} does, and wait until it is gone.
	 */
	public void terminate() {
		this.process.destroy();
		waitForExit();
	}

	public boolean isAlive() {
		return this.process.isAlive();
	}

	/**
	 * Return what the JVM printed so far.
	 * @return the output
	 */
	public String output() {
		try {
			return Files.readString(this.log);
		}
		catch (IOException ex) {
			return "";
		}
	}

	private void waitForExit() {
		try {
			if (!this.process.waitFor(30, TimeUnit.SECONDS)) {
				throw new IllegalStateException("Consumer JVM did not exit");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Override
	public void close() {
		if (this.process.isAlive()) {
			this.process.destroyForcibly();
			waitForExit();
		}
		new File(this.log.toString()).delete();
	}

}
