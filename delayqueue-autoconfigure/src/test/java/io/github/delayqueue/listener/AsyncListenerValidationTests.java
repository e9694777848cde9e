package io.github.delayqueue.listener;

import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.test.DelayQueueContextRunner;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;

import org.springframework.context.annotation.Configuration;

/**
 * Listener methods whose return type cannot be awaited as one completion fail start-up,
 * naming the method.
 */
class AsyncListenerValidationTests {

	@Test
	void refusesAFlux() {
		assertFails(FluxListener.class, "FluxListener.on(java.lang.String)", "returns reactor.core.publisher.Flux");
	}

	@Test
	void refusesAPublisher() {
		assertFails(PublisherListener.class, "PublisherListener.on(java.lang.String)",
				"returns org.reactivestreams.Publisher");
	}

	@Test
	void refusesAFutureThatCannotBeAwaitedWithoutBlocking() {
		assertFails(FutureListener.class, "FutureListener.on(java.lang.String)", "returns java.util.concurrent.Future");
	}

	private void assertFails(Class<?> configuration, String method, String reason) {
		DelayedJobListenerValidationTests.assertFailsToStart(DelayQueueContextRunner.withoutRedis(), configuration,
				method, reason);
	}

	@Configuration(proxyBeanMethods = false)
	static class FluxListener {

		@DelayedJobListener("t")
		Flux<String> on(String payload) {
			return Flux.just(payload, payload);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class PublisherListener {

		@DelayedJobListener("t")
		Publisher<String> on(String payload) {
			return Flux.just(payload);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class FutureListener {

		@DelayedJobListener("t")
		Future<String> on(String payload) {
			return new FutureTask<>(() -> payload);
		}

	}

}
