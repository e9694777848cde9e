package io.github.delayqueue.observation;

import io.github.delayqueue.observation.DelayQueueObservation.HighCardinalityKeys;
import io.github.delayqueue.observation.DelayQueueObservation.LowCardinalityKeys;
import io.micrometer.common.KeyValues;

/**
 * The default names and keys of a send: {@code delayqueue.send}, contextual name
 * {@code "<topic> send"}.
 *
 * @author delayqueue contributors
 */
public class DefaultDelayQueueSendObservationConvention implements DelayQueueSendObservationConvention {

	/**
	 * The shared instance.
	 */
	public static final DefaultDelayQueueSendObservationConvention INSTANCE = new DefaultDelayQueueSendObservationConvention();

	@Override
	public String getName() {
		return "delayqueue.send";
	}

	@Override
	public String getContextualName(DelayQueueSendContext context) {
		return context.getTopic() + " send";
	}

	@Override
	public KeyValues getLowCardinalityKeyValues(DelayQueueSendContext context) {
		return KeyValues.of(LowCardinalityKeys.MESSAGING_SYSTEM.withValue("redis"),
				LowCardinalityKeys.MESSAGING_OPERATION.withValue("publish"),
				LowCardinalityKeys.DESTINATION_NAME.withValue(context.getTopic()),
				LowCardinalityKeys.LISTENER_ID.withValue(DelayQueueObservation.NONE),
				LowCardinalityKeys.ERROR.withValue(ObservationErrors.name(context.getError())),
				LowCardinalityKeys.OUTCOME.withValue(DelayQueueObservation.NONE));
	}

	@Override
	public KeyValues getHighCardinalityKeyValues(DelayQueueSendContext context) {
		String jobId = context.getJobId();
		return KeyValues.of(
				HighCardinalityKeys.MESSAGE_ID.withValue((jobId != null) ? jobId : DelayQueueObservation.NONE),
				HighCardinalityKeys.ATTEMPT.withValue(DelayQueueObservation.NONE),
				HighCardinalityKeys.BATCH_MESSAGE_COUNT.withValue(Integer.toString(context.getJobCount())));
	}

}
