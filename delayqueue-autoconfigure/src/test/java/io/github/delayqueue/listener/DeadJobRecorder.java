package io.github.delayqueue.listener;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.delayqueue.core.DeadJob;
import io.github.delayqueue.core.DeadJobListener;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;

import static org.awaitility.Awaitility.await;

/**
 * Two dead-job listeners: the first throws, which must change nothing; the second keeps
 * what it hears for the test.
 */
@Configuration(proxyBeanMethods = false)
class DeadJobRecorder {

	final List<DeadJob> heard = new CopyOnWriteArrayList<>();

	@Bean
	@Order(1)
	DeadJobListener brokenDeadJobListener() {
		return (job) -> {
			throw new IllegalStateException("alerting is down");
		};
	}

	@Bean
	@Order(2)
	DeadJobListener recordingDeadJobListener() {
		return this.heard::add;
	}

	DeadJob awaitDeath(String id) {
		return await().atMost(Duration.ofSeconds(15))
			.until(() -> this.heard.stream().filter((job) -> job.id().equals(id)).findFirst().orElse(null),
					Objects::nonNull);
	}

}
