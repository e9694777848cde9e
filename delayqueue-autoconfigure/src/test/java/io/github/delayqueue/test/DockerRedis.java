package io.github.delayqueue.test;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * The last resort of {@link RedisTestServer}: a Redis container, for machines that have
 * neither a {@code redis-server} binary nor one the embedded-redis jar can run, but
 * Docker.
 */
final class DockerRedis {

	private static GenericContainer<?> container;

	private DockerRedis() {
	}

	static boolean isAvailable() {
		try {
			return DockerClientFactory.instance().isDockerAvailable();
		}
		catch (RuntimeException | LinkageError ex) {
			return false;
		}
	}

	static synchronized String host() {
		return container().getHost();
	}

	static synchronized int port() {
		return container().getMappedPort(6379);
	}

	@SuppressWarnings("resource")
	private static GenericContainer<?> container() {
		if (container == null) {
			GenericContainer<?> started = new GenericContainer<>(DockerImageName.parse("redis:7.2-alpine"))
				.withExposedPorts(6379);
			started.start();
			container = started;
		}
		return container;
	}

}
