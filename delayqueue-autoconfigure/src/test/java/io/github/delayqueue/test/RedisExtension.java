package io.github.delayqueue.test;

import java.util.List;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Gives a test class a real Redis server, shared by every test class of the JVM and
 * flushed before each class so that no state leaks between classes. Test methods and
 * constructors receive it as a {@link RedisTestServer} parameter.
 * <p>
 * In the cluster run of the suite (system property {@value #CLUSTER_RUN} set to
 * {@code true}) every application context the tests start talks to the shared Redis
 * Cluster instead: the cluster's nodes are set as the system property
 * {@code spring.data.redis.cluster.nodes}, which Spring Boot prefers to a host and port,
 * and the cluster is flushed whenever the server is (see
 * {@link RedisTestServer#flushAll()}).
 */
public final class RedisExtension implements BeforeAllCallback, ParameterResolver {

	/**
	 * The system property that makes this the cluster run of the suite.
	 */
	public static final String CLUSTER_RUN = "test.redis.cluster";

	private static RedisTestServer shared;

	/**
	 * Return the shared server, starting it on first use.
	 * @return the server
	 */
	public static synchronized RedisTestServer server() {
		if (shared == null) {
			RedisTestServer server = RedisTestServer.start();
			Runtime.getRuntime().addShutdownHook(new Thread(server::close));
			shared = server;
		}
		return shared;
	}

	@Override
	public void beforeAll(ExtensionContext context) {
		server().flushAll();
		if (onCluster()) {
			System.setProperty("spring.data.redis.cluster.nodes", ClusterExtension.cluster().nodesProperty());
		}
	}

	/**
	 * Tell whether a server is the one shared by the test classes.
	 * @param server the server
	 * @return {@code true} if it is
	 */
	static synchronized boolean isShared(RedisTestServer server) {
		return server == shared;
	}

	/**
	 * Create a started connection factory for the Redis the tests' applications use: the
	 * server, or the shared cluster in the cluster run. The caller destroys it.
	 * @param server the server
	 * @return the factory
	 */
	public static LettuceConnectionFactory connectionFactory(RedisTestServer server) {
		return onCluster() ? ClusterExtension.cluster().connectionFactory() : server.connectionFactory();
	}

	/**
	 * Return the servers that hold the data of the tests' applications, for faults
	 * applied to Redis itself: the server, or the shared cluster's masters in the cluster
	 * run.
	 * @param server the server
	 * @return the servers
	 */
	public static List<RedisTestServer> servers(RedisTestServer server) {
		return onCluster() ? ClusterExtension.cluster().masters() : List.of(server);
	}

	/**
	 * Return how many clients are blocked in a command, on the servers that hold the data
	 * of the tests' applications (see {@link #servers(RedisTestServer)}).
	 * @param server the server
	 * @return the number of blocked clients
	 */
	public static long blockedClients(RedisTestServer server) {
		return servers(server).stream().mapToLong(RedisTestServer::blockedClients).sum();
	}

	/**
	 * Tell whether this is the cluster run of the suite.
	 * @return {@code true} if application contexts talk to the shared cluster
	 */
	public static boolean onCluster() {
		return Boolean.getBoolean(CLUSTER_RUN);
	}

	@Override
	public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
		return parameterContext.getParameter().getType() == RedisTestServer.class;
	}

	@Override
	public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
		return server();
	}

}
