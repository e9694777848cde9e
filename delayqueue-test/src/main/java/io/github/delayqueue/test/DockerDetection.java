package io.github.delayqueue.test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

import org.testcontainers.DockerClientFactory;

/**
 * Tells whether Docker runs, for the choice of a test's Redis. Testcontainers is asked
 * only when something points at a Docker daemon (a {@code DOCKER_HOST}, a Testcontainers
 * {@code docker.host}, a Docker socket, or Windows with its named pipe), because its
 * search for a daemon logs errors on a machine that has none. The answer is kept for the
 * JVM.
 *
 * @author delayqueue contributors
 */
final class DockerDetection {

	private static volatile Boolean available;

	private DockerDetection() {
	}

	static boolean isAvailable() {
		Boolean known = available;
		if (known == null) {
			known = hinted() && askTestcontainers();
			available = known;
		}
		return known;
	}

	private static boolean askTestcontainers() {
		try {
			return DockerClientFactory.instance().isDockerAvailable();
		}
		catch (RuntimeException | LinkageError ex) {
			return false;
		}
	}

	private static boolean hinted() {
		String dockerHost = System.getenv("DOCKER_HOST");
		if ((dockerHost != null && !dockerHost.isBlank()) || testcontainersNamesAHost()) {
			return true;
		}
		if (System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("windows")) {
			return true;
		}
		for (Path socket : sockets()) {
			if (Files.exists(socket)) {
				return true;
			}
		}
		return false;
	}

	private static List<Path> sockets() {
		List<Path> sockets = new ArrayList<>();
		sockets.add(Path.of("/var/run/docker.sock"));
		String home = System.getProperty("user.home");
		if (home != null) {
			sockets.add(Path.of(home, ".docker", "run", "docker.sock"));
			sockets.add(Path.of(home, ".docker", "desktop", "docker.sock"));
			sockets.add(Path.of(home, ".colima", "default", "docker.sock"));
			sockets.add(Path.of(home, ".rd", "docker.sock"));
		}
		String runtime = System.getenv("XDG_RUNTIME_DIR");
		if (runtime != null && !runtime.isBlank()) {
			sockets.add(Path.of(runtime, "docker.sock"));
			sockets.add(Path.of(runtime, "podman", "podman.sock"));
		}
		return sockets;
	}

	private static boolean testcontainersNamesAHost() {
		String home = System.getProperty("user.home");
		if (home == null) {
			return false;
		}
		Path file = Path.of(home, ".testcontainers.properties");
		if (!Files.isRegularFile(file)) {
			return false;
		}
		Properties properties = new Properties();
		try (InputStream in = Files.newInputStream(file)) {
			properties.load(in);
		}
		catch (IOException ex) {
			return false;
		}
		return properties.getProperty("docker.host") != null;
	}

}
