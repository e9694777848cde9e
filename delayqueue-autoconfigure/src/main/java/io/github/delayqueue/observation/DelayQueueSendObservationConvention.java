package io.github.delayqueue.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Names and keys of a send observation. Declare a bean of this type to replace
 * {@link DefaultDelayQueueSendObservationConvention}, for example to add keys of your
 * own.
 *
 * @author delayqueue contributors
 */
public interface DelayQueueSendObservationConvention extends ObservationConvention<DelayQueueSendContext> {

	@Override
	default boolean supportsContext(Observation.Context context) {
		return context instanceof DelayQueueSendContext;
	}

}
