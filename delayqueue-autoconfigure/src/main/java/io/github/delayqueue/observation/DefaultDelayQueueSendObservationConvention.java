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

	// What a single send without a chosen id carries when it starts: the same every time.
	private static final KeyValues SINGLE_SEND_STARTING = highCardinalityKeyValues(DelayQueueObservation.NONE, 1);

	private final BoundedCache<String> contextualNames = new BoundedCache<>((topic) -> topic + " send");

	private final BoundedCache<KeyValues> successfulKeys = new BoundedCache<>(
			(topic) -> lowCardinalityKeyValues(topic, DelayQueueObservation.NONE));

	@Override
	public String getName() {
		return "delayqueue.send";
	}

	@Override
	public String getContextualName(DelayQueueSendContext context) {
		return this.contextualNames.get(context.getTopic());
	}

	@Override
	public KeyValues getLowCardinalityKeyValues(DelayQueueSendContext context) {
		Throwable error = context.getError();
		return (error != null) ? lowCardinalityKeyValues(context.getTopic(), ObservationErrors.name(error))
				: this.successfulKeys.get(context.getTopic());
	}

	private static KeyValues lowCardinalityKeyValues(String topic, String error) {
		return KeyValues.of(LowCardinalityKeys.MESSAGING_SYSTEM.withValue("redis"),
				LowCardinalityKeys.MESSAGING_OPERATION.withValue("publish"),
				LowCardinalityKeys.DESTINATION_NAME.withValue(topic),
				LowCardinalityKeys.LISTENER_ID.withValue(DelayQueueObservation.NONE),
				LowCardinalityKeys.ERROR.withValue(error),
				LowCardinalityKeys.OUTCOME.withValue(DelayQueueObservation.NONE));
	}

	@Override
	public KeyValues getHighCardinalityKeyValues(DelayQueueSendContext context) {
		String jobId = context.getJobId();
		if (jobId == null && context.getJobCount() == 1) {
			return SINGLE_SEND_STARTING;
		}
		return highCardinalityKeyValues((jobId != null) ? jobId : DelayQueueObservation.NONE, context.getJobCount());
	}

	private static KeyValues highCardinalityKeyValues(String jobId, int jobCount) {
		return KeyValues.of(HighCardinalityKeys.MESSAGE_ID.withValue(jobId),
				HighCardinalityKeys.ATTEMPT.withValue(DelayQueueObservation.NONE),
				HighCardinalityKeys.BATCH_MESSAGE_COUNT.withValue(Integer.toString(jobCount)));
	}

}
