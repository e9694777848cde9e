package io.github.delayqueue.observation;

import io.github.delayqueue.observation.DelayQueueObservation.HighCardinalityKeys;
import io.github.delayqueue.observation.DelayQueueObservation.LowCardinalityKeys;
import io.micrometer.common.KeyValues;

/**
 * The default names and keys of a handler run: {@code delayqueue.process}, contextual
 * name {@code "<topic> process"}.
 *
 * @author delayqueue contributors
 */
public class DefaultDelayQueueProcessObservationConvention implements DelayQueueProcessObservationConvention {

	/**
	 * The shared instance.
	 */
	public static final DefaultDelayQueueProcessObservationConvention INSTANCE = new DefaultDelayQueueProcessObservationConvention();

	@Override
	public String getName() {
		return "delayqueue.process";
	}

	@Override
	public String getContextualName(DelayQueueProcessContext context) {
		return context.getTopic() + " process";
	}

	@Override
	public KeyValues getLowCardinalityKeyValues(DelayQueueProcessContext context) {
		String outcome = context.getOutcome();
		return KeyValues.of(LowCardinalityKeys.MESSAGING_SYSTEM.withValue("redis"),
				LowCardinalityKeys.MESSAGING_OPERATION.withValue("process"),
				LowCardinalityKeys.DESTINATION_NAME.withValue(context.getTopic()),
				LowCardinalityKeys.LISTENER_ID.withValue(context.getListenerId()),
				LowCardinalityKeys.ERROR.withValue(ObservationErrors.name(context.getError())),
				LowCardinalityKeys.OUTCOME.withValue((outcome != null) ? outcome : DelayQueueObservation.NONE));
	}

	@Override
	public KeyValues getHighCardinalityKeyValues(DelayQueueProcessContext context) {
		return KeyValues.of(HighCardinalityKeys.MESSAGE_ID.withValue(context.getJobId()),
				HighCardinalityKeys.ATTEMPT.withValue(Integer.toString(context.getAttempt())),
				HighCardinalityKeys.BATCH_MESSAGE_COUNT.withValue("1"));
	}

}
