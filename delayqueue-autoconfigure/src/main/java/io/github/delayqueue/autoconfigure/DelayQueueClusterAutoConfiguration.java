package io.github.delayqueue.autoconfigure;

import io.lettuce.core.cluster.ClusterClientOptions;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.LettuceClientOptionsBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Settings the delay queue needs from Lettuce on a Redis Cluster, applied to the
 * application's connection factory when the application left them open.
 *
 * @author delayqueue contributors
 */
@AutoConfiguration(before = DataRedisAutoConfiguration.class)
@ConditionalOnClass({ LettuceClientOptionsBuilderCustomizer.class, ClusterClientOptions.class })
@ConditionalOnBooleanProperty(name = "delayqueue.enabled", matchIfMissing = true)
public final class DelayQueueClusterAutoConfiguration {

	@Bean
	LettuceClientOptionsBuilderCustomizer delayQueueClusterTopologyRefreshDefaults(Environment environment) {
		return new ClusterTopologyRefreshDefaults(environment);
	}

}
