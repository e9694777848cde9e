package io.github.delayqueue.autoconfigure;

import java.time.Duration;

import io.github.delayqueue.test.ClusterExtension;
import io.github.delayqueue.test.DelayQueueContextRunner;
import io.github.delayqueue.test.RedisTestCluster;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.context.ApplicationContext;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Lettuce's cluster topology refresh: on by default on a cluster, left alone when the
 * application configures it, and not touched on a single Redis.
 */
@ExtendWith(ClusterExtension.class)
class ClusterTopologyRefreshDefaultsTests {

	@Test
	void refreshesOnRedirectsReconnectsAndEveryThirtySecondsWhenTheApplicationSetNothing(RedisTestCluster cluster) {
		DelayQueueContextRunner.create(cluster).run((context) -> {
			ClusterTopologyRefreshOptions refresh = refreshOptions(context);
			assertThat(refresh.getAdaptiveRefreshTriggers()).isNotEmpty();
			assertThat(refresh.isPeriodicRefreshEnabled()).isTrue();
			assertThat(refresh.getRefreshPeriod()).isEqualTo(Duration.ofSeconds(30));
		});
	}

	@Test
	void keepsWhatTheApplicationSet(RedisTestCluster cluster) {
		DelayQueueContextRunner.create(cluster)
			.withPropertyValues("spring.data.redis.lettuce.cluster.refresh.period=5s")
			.run((context) -> {
				// Ours would be 30 s.
				assertThat(refreshOptions(context).getRefreshPeriod()).isEqualTo(Duration.ofSeconds(5));
			});
	}

	@Test
	void leavesASingleRedisAlone() {
		DelayQueueContextRunner.withoutRedis().run((context) -> {
			ClientOptions options = context.getBean(LettuceConnectionFactory.class)
				.getClientConfiguration()
				.getClientOptions()
				.orElseThrow();
			assertThat(options).isNotInstanceOf(ClusterClientOptions.class);
		});
	}

	private static ClusterTopologyRefreshOptions refreshOptions(ApplicationContext context) {
		ClientOptions options = context.getBean(LettuceConnectionFactory.class)
			.getClientConfiguration()
			.getClientOptions()
			.orElseThrow();
		return ((ClusterClientOptions) options).getTopologyRefreshOptions();
	}

}
