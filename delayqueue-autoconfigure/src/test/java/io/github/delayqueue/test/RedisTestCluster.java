package io.github.delayqueue.test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A real Redis Cluster for tests: three masters and three replicas on loopback ports,
 * started from the same {@code redis-server} binary as {@link RedisTestServer}. The nodes
 * are joined with the commands {@code redis-cli --cluster create} sends (slots assigned
 * to the masters, {@code CLUSTER MEET}, {@code CLUSTER REPLICATE}), so no
 * {@code redis-cli} is needed: the embedded-redis jar ships only the server.
 */
public final class RedisTestCluster implements AutoCloseable {

	private static final int SLOTS = 16384;

	private static final Duration NODE_TIMEOUT = Duration.ofMillis(2000);

	private final List<RedisTestServer> nodes;

	private RedisTestCluster(List<RedisTestServer> nodes) {
		this.nodes = nodes;
	}

	/**
	 * Start six nodes and join them into a cluster of three masters, each with a replica,
	 * all slots covered.
	 * @return the running cluster, {@code cluster_state:ok} on every node
	 */
	public static RedisTestCluster start() {
		List<RedisTestServer> nodes = new ArrayList<>();
		try {
			for (int i = 0; i < 6; i++) {
				nodes.add(RedisTestServer.startClusterNode(NODE_TIMEOUT));
			}
			RedisTestCluster cluster = new RedisTestCluster(nodes);
			cluster.join();
			return cluster;
		}
		catch (RuntimeException ex) {
			nodes.forEach(RedisTestServer::close);
			throw ex;
		}
	}

	private void join() {
		for (int master = 0; master < 3; master++) {
			int from = master * SLOTS / 3;
			int to = (master + 1) * SLOTS / 3;
			List<String> command = new ArrayList<>(List.of("CLUSTER", "ADDSLOTS"));
			IntStream.range(from, to).mapToObj(String::valueOf).forEach(command::add);
			expectOk(this.nodes.get(master), command.toArray(String[]::new));
		}
		RedisTestServer first = this.nodes.get(0);
		for (RedisTestServer node : this.nodes.subList(1, this.nodes.size())) {
			expectOk(first, "CLUSTER", "MEET", node.host(), String.valueOf(node.port()));
		}
		await("every node to know the five others", () -> this.nodes.stream()
			.allMatch((node) -> clusterNodes(node).lines().filter((line) -> !line.contains("handshake")).count() == 6));
		for (int replica = 3; replica < 6; replica++) {
			String masterId = nodeId(this.nodes.get(replica - 3));
			expectOk(this.nodes.get(replica), "CLUSTER", "REPLICATE", masterId);
		}
		await("the cluster to be ok with a replica in sync for every master",
				() -> this.nodes.stream()
					.allMatch((node) -> node.command("CLUSTER", "INFO").contains("cluster_state:ok"))
						&& replicas().stream()
							.allMatch((node) -> node.command("INFO", "replication").contains("master_link_status:up")));
	}

	/**
	 * Return the masters, as the cluster sees them now (a failover changes them).
	 * @return the master nodes
	 */
	public List<RedisTestServer> masters() {
		return this.nodes.stream().filter((node) -> role(node).equals("master")).toList();
	}

	/**
	 * Return the replicas, as the cluster sees them now.
	 * @return the replica nodes
	 */
	public List<RedisTestServer> replicas() {
		return this.nodes.stream().filter((node) -> role(node).equals("slave")).toList();
	}

	/**
	 * Return every node.
	 * @return the six nodes
	 */
	public List<RedisTestServer> nodes() {
		return this.nodes;
	}

	/**
	 * Return the value for {@code spring.data.redis.cluster.nodes}.
	 * @return {@code host:port} of every node, comma separated
	 */
	public String nodesProperty() {
		return this.nodes.stream().map((node) -> node.host() + ":" + node.port()).collect(Collectors.joining(","));
	}

	/**
	 * Return the properties that point an application at this cluster.
	 * @return Spring Boot properties
	 */
	public Map<String, String> properties() {
		return Map.of("spring.data.redis.cluster.nodes", nodesProperty());
	}

	/**
	 * Create a started connection factory for this cluster; the caller destroys it.
	 * @return the factory
	 */
	public LettuceConnectionFactory connectionFactory() {
		RedisClusterConfiguration configuration = new RedisClusterConfiguration(
				this.nodes.stream().map((node) -> node.host() + ":" + node.port()).toList());
		LettuceConnectionFactory factory = new LettuceConnectionFactory(configuration);
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

	/**
	 * Delete all data on every master (replicas follow).
	 */
	public void flushAll() {
		masters().forEach(RedisTestServer::flushAll);
	}

	/**
	 * Return the number of keys on every master together.
	 * @return the key count
	 */
	public long keyCount() {
		return masters().stream().mapToLong((node) -> {
			String reply = node.command("DBSIZE");
			return Long.parseLong(reply.substring(1).trim());
		}).sum();
	}

	/**
	 * Promote a replica with a manual {@code CLUSTER FAILOVER}, the graceful kind, and
	 * wait until it is a master that every node knows as one.
	 * @param replica the replica to promote
	 */
	public void failover(RedisTestServer replica) {
		String id = nodeId(replica);
		// Redis aborts a manual failover that has not completed within 5 s (its replica
		// did not catch up with the master in time, as on a loaded machine): ask again.
		for (int attempt = 1;; attempt++) {
			expectOk(replica, "CLUSTER", "FAILOVER");
			try {
				Awaitility.await("the promoted replica to be a master for every node")
					.atMost(Duration.ofSeconds(10))
					.pollInterval(Duration.ofMillis(50))
					.ignoreExceptions()
					.until(() -> this.nodes.stream()
						.filter(RedisTestServer::isUp)
						.allMatch((node) -> clusterNodes(node).lines()
							.anyMatch((line) -> line.startsWith(id) && line.contains("master")
									&& !line.contains("fail"))));
				return;
			}
			catch (ConditionTimeoutException ex) {
				if (attempt == 3) {
					throw ex;
				}
			}
		}
	}

	private static String role(RedisTestServer node) {
		for (String line : node.command("INFO", "replication").split("\r\n")) {
			if (line.startsWith("role:")) {
				return line.substring("role:".length());
			}
		}
		return "unknown";
	}

	/**
	 * Return a node's cluster id.
	 * @param node the node
	 * @return its 40-character id
	 */
	public static String nodeId(RedisTestServer node) {
		return clusterNodes(node).lines()
			.filter((line) -> line.contains("myself"))
			.findFirst()
			.map((line) -> line.substring(0, line.indexOf(' ')))
			.orElseThrow(() -> new IllegalStateException("No id for node " + node.port()));
	}

	private static String clusterNodes(RedisTestServer node) {
		String reply = node.command("CLUSTER", "NODES");
		// A bulk string: "$<length>\r\n<text>\r\n"
		int start = reply.indexOf("\r\n");
		return (start >= 0) ? reply.substring(start + 2).trim() : reply;
	}

	private static void expectOk(RedisTestServer node, String... command) {
		String reply = node.command(command);
		if (!reply.startsWith("+OK")) {
			throw new IllegalStateException(
					command[0] + " " + command[1] + " on port " + node.port() + " answered " + reply.trim());
		}
	}

	private static void await(String what, BooleanSupplier condition) {
		Awaitility.await(what)
			.atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(50))
			.ignoreExceptions()
			.until(condition::getAsBoolean);
	}

	@Override
	public void close() {
		this.nodes.forEach(RedisTestServer::close);
	}

}
