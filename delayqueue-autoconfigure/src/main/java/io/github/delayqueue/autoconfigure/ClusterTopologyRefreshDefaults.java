package io.github.delayqueue.autoconfigure;

import java.time.Duration;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;

import org.springframework.boot.data.redis.autoconfigure.LettuceClientOptionsBuilderCustomizer;
import org.springframework.core.env.Environment;

/**
 * Turns on Lettuce's cluster topology refresh when the application has not configured it:
 * refresh on {@code MOVED} and {@code ASK} redirects and on repeated reconnects, and
 * every 30 seconds in any case. Without it Lettuce keeps the topology it read at start:
 * after a master dies, commands for its slots keep going to its address, and in tests
 * sends did not recover within a minute although the replica had taken over within
 * seconds. An application that sets any
 * {@code spring.data.redis.lettuce.cluster.refresh.*} property keeps exactly what it set.
 *
 * @author delayqueue contributors
 */
final class ClusterTopologyRefreshDefaults implements LettuceClientOptionsBuilderCustomizer {

	static final String REFRESH_PREFIX = "spring.data.redis.lettuce.cluster.refresh.";

	static final Duration PERIOD = Duration.ofSeconds(30);

	private final Environment environment;

	ClusterTopologyRefreshDefaults(Environment environment) {
		this.environment = environment;
	}

	@Override
	public void customize(ClientOptions.Builder builder) {
		if (builder instanceof ClusterClientOptions.Builder cluster && !refreshConfigured()) {
			cluster.topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
				.enableAllAdaptiveRefreshTriggers()
				.enablePeriodicRefresh(PERIOD)
				.build());
		}
	}

	private boolean refreshConfigured() {
		for (String name : new String[] { "adaptive", "period", "dynamic-refresh-sources" }) {
			if (this.environment.containsProperty(REFRESH_PREFIX + name)) {
				return true;
			}
		}
		return false;
	}

}
