package io.github.delayqueue.test;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives a test class a real Redis Cluster, shared by every test class of the JVM and
 * flushed before each class. Test methods and constructors receive it as a
 * {@link RedisTestCluster} parameter. A test that fails over or kills a node leaves the
 * cluster whole again (every slot served, a replica for each master) or starts one of its
 * own.
 */
public final class ClusterExtension implements BeforeAllCallback, ParameterResolver {

	private static RedisTestCluster shared;

	/**
	 * Return the shared cluster, starting it on first use.
	 * @return the cluster
	 */
	public static synchronized RedisTestCluster cluster() {
		if (shared == null) {
			RedisTestCluster cluster = RedisTestCluster.start();
			Runtime.getRuntime().addShutdownHook(new Thread(cluster::close));
			shared = cluster;
		}
		return shared;
	}

	@Override
	public void beforeAll(ExtensionContext context) {
		cluster().flushAll();
	}

	@Override
	public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
		return parameterContext.getParameter().getType() == RedisTestCluster.class;
	}

	@Override
	public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
		return cluster();
	}

}
