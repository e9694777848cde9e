package io.github.delayqueue.observation;

import org.jspecify.annotations.Nullable;

/**
 * The value of the {@code error} key.
 *
 * @author delayqueue contributors
 */
final class ObservationErrors {

	private ObservationErrors() {
	}

	static String name(@Nullable Throwable error) {
		return (error != null) ? error.getClass().getSimpleName() : DelayQueueObservation.NONE;
	}

}
