package io.github.delayqueue.listener;

import java.util.concurrent.CompletableFuture;

import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;

/**
 * Awaits a single-value publisher through Reactor. Kept apart so that Reactor is loaded
 * only by listeners that return a reactive type.
 *
 * @author delayqueue contributors
 */
final class PublisherFutures {

	private PublisherFutures() {
	}

	/**
	 * Subscribe to a publisher of at most one value.
	 * @param publisher the publisher
	 * @return a future that completes with its value, or empty, or its error; cancelling
	 * it cancels the subscription
	 */
	static CompletableFuture<?> toFuture(Publisher<?> publisher) {
		return Mono.from(publisher).toFuture();
	}

}
