package io.github.delayqueue.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Names and keys of a handler-run observation. Declare a bean of this type to replace
 * {@link DefaultDelayQueueProcessObservationConvention}.
 *
 * @author delayqueue contributors
 */
public interface DelayQueueProcessObservationConvention extends ObservationConvention<DelayQueueProcessContext> {

	@Override
	default boolean supportsContext(Observation.Context context) {
		return context instanceof DelayQueueProcessContext;
	}

}
