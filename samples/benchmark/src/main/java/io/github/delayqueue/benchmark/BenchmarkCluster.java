package io.github.delayqueue.benchmark;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

/**
 * A local Redis Cluster for the cluster scenarios: three masters with a replica each, on
 * loopback ports, started from the same {@code redis-server} as {@link BenchmarkRedis}
 * and joined with the commands {@code redis-cli --cluster create} sends. Persistence is
 * off.
 */
final class BenchmarkCluster implements AutoCloseable {

	private static final int SLOTS = 16384;

	private final List<Node> nodes = new ArrayList<>();

	private BenchmarkCluster() {
	}

	static BenchmarkCluster start() {
		BenchmarkCluster cluster = new BenchmarkCluster();
		try {
			Path binary = BenchmarkRedis.serverBinary();
			for (int i = 0; i < 6; i++) {
				cluster.nodes.add(Node.start(binary));
			}
			cluster.join();
			return cluster;
		}
		catch (IOException | RuntimeException ex) {
			cluster.close();
			throw new IllegalStateException("Cannot start a Redis Cluster for the benchmark", ex);
		}
	}

	private void join() {
		for (int master = 0; master < 3; master++) {
			List<String> command = new ArrayList<>(List.of("CLUSTER", "ADDSLOTS"));
			for (int slot = master * SLOTS / 3; slot < (master + 1) * SLOTS / 3; slot++) {
				command.add(String.valueOf(slot));
			}
			this.nodes.get(master).call(command.toArray(String[]::new));
		}
		for (Node node : this.nodes.subList(1, this.nodes.size())) {
			this.nodes.get(0).call("CLUSTER", "MEET", "127.0.0.1", String.valueOf(node.port));
		}
		await("every node to know the others", () -> this.nodes.stream()
			.allMatch((node) -> clusterNodes(node).lines().filter((line) -> !line.contains("handshake")).count() == 6));
		for (int replica = 3; replica < 6; replica++) {
			this.nodes.get(replica).call("CLUSTER", "REPLICATE", nodeId(this.nodes.get(replica - 3)));
		}
		await("the cluster to be ok", () -> this.nodes.stream()
			.allMatch((node) -> ((String) node.call("CLUSTER", "INFO")).contains("cluster_state:ok")));
	}

	/**
	 * Return the value of {@code spring.data.redis.cluster.nodes}.
	 * @return every node's address
	 */
	String nodesProperty() {
		return this.nodes.stream().map((node) -> "127.0.0.1:" + node.port).collect(Collectors.joining(","));
	}

	String version() {
		try (RespConnection connection = this.nodes.get(0).connect()) {
			return connection.info("server", "redis_version");
		}
	}

	void flushAll() {
		masters().forEach((node) -> node.call("FLUSHALL"));
	}

	/**
	 * Return the CPU each master has used so far, user and system.
	 * @return seconds by master port
	 */
	Map<Integer, Double> cpuSecondsByMaster() {
		Map<Integer, Double> cpu = new LinkedHashMap<>();
		for (Node node : masters()) {
			try (RespConnection connection = node.connect()) {
				cpu.put(node.port, Double.parseDouble(connection.info("cpu", "used_cpu_user"))
						+ Double.parseDouble(connection.info("cpu", "used_cpu_sys")));
			}
		}
		return cpu;
	}

	private List<Node> masters() {
		return this.nodes.stream().filter((node) -> {
			try (RespConnection connection = node.connect()) {
				return connection.info("replication", "role").equals("master");
			}
		}).toList();
	}

	private static String clusterNodes(Node node) {
		return (String) node.call("CLUSTER", "NODES");
	}

	private static String nodeId(Node node) {
		return clusterNodes(node).lines()
			.filter((line) -> line.contains("myself"))
			.map((line) -> line.substring(0, line.indexOf(' ')))
			.findFirst()
			.orElseThrow();
	}

	private static void await(String what, BooleanSupplier condition) {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
		while (!condition.getAsBoolean()) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("Timed out waiting for " + what);
			}
			try {
				Thread.sleep(20);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
		}
	}

	@Override
	public void close() {
		this.nodes.forEach(Node::stop);
	}

	private static final class Node {

		private final int port;

		private final Process process;

		private final Path dir;

		private Node(int port, Process process, Path dir) {
			this.port = port;
			this.process = process;
			this.dir = dir;
		}

		static Node start(Path binary) throws IOException {
			int port = freeClusterPort();
			Path dir = Files.createTempDirectory("delayqueue-benchmark-cluster-");
			Process process = new ProcessBuilder(List.of(binary.toString(), "--port", String.valueOf(port), "--bind",
					"127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir.toString(), "--protected-mode", "no",
					"--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf", "--cluster-node-timeout",
					"2000"))
				.redirectErrorStream(true)
				.redirectOutput(dir.resolve("redis.log").toFile())
				.start();
			Runtime.getRuntime().addShutdownHook(new Thread(process::destroyForcibly));
			Node node = new Node(port, process, dir);
			await("node " + port + " to answer", () -> {
				try {
					node.call("PING");
					return true;
				}
				catch (IllegalStateException ex) {
					if (!process.isAlive()) {
						throw new IllegalStateException("Redis on port " + port + " exited; see " + dir);
					}
					return false;
				}
			});
			return node;
		}

		RespConnection connect() {
			return new RespConnection("127.0.0.1", this.port);
		}

		Object call(String... args) {
			try (RespConnection connection = connect()) {
				return connection.call(args);
			}
		}

		void stop() {
			BenchmarkRedis.stop(this.process, this.dir);
		}

		// A node also listens on its port + 10000 for the cluster bus.
		private static int freeClusterPort() throws IOException {
			for (int attempt = 0; attempt < 100; attempt++) {
				int port = 20000 + ThreadLocalRandom.current().nextInt(30000);
				if (isFree(port) && isFree(port + 10000)) {
					return port;
				}
			}
			throw new IOException("No free port pair for a cluster node");
		}

		private static boolean isFree(int port) {
			try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getByName("127.0.0.1"))) {
				return true;
			}
			catch (IOException ex) {
				return false;
			}
		}

	}

}
