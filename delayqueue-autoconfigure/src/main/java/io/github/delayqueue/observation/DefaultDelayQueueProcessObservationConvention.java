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

	private final BoundedCache<String> contextualNames = new BoundedCache<>((topic) -> topic + " process");

	// By topic, listener and outcome: looked up twice a run, so without building a key.
	private final BoundedCache<BoundedCache<BoundedCache<KeyValues>>> keysWithoutError = new BoundedCache<>(
			(topic) -> new BoundedCache<>((listenerId) -> new BoundedCache<>(
					(outcome) -> lowCardinalityKeyValues(topic, listenerId, outcome, DelayQueueObservation.NONE))));

	@Override
	public String getName() {
		return "delayqueue.process";
	}

	@Override
	public String getContextualName(DelayQueueProcessContext context) {
		return this.contextualNames.get(context.getTopic());
	}

	@Override
	public KeyValues getLowCardinalityKeyValues(DelayQueueProcessContext context) {
		String outcome = (context.getOutcome() != null) ? context.getOutcome() : DelayQueueObservation.NONE;
		Throwable error = context.getError();
		if (error != null) {
			return lowCardinalityKeyValues(context.getTopic(), context.getListenerId(), outcome,
					ObservationErrors.name(error));
		}
		return this.keysWithoutError.get(context.getTopic()).get(context.getListenerId()).get(outcome);
	}

	private static KeyValues lowCardinalityKeyValues(String topic, String listenerId, String outcome, String error) {
		return KeyValues.of(LowCardinalityKeys.MESSAGING_SYSTEM.withValue("redis"),
				LowCardinalityKeys.MESSAGING_OPERATION.withValue("process"),
				LowCardinalityKeys.DESTINATION_NAME.withValue(topic),
				LowCardinalityKeys.LISTENER_ID.withValue(listenerId), LowCardinalityKeys.ERROR.withValue(error),
				LowCardinalityKeys.OUTCOME.withValue(outcome));
	}

	@Override
	public KeyValues getHighCardinalityKeyValues(DelayQueueProcessContext context) {
		return KeyValues.of(HighCardinalityKeys.MESSAGE_ID.withValue(context.getJobId()),
				HighCardinalityKeys.ATTEMPT.withValue(Integer.toString(context.getAttempt())),
				HighCardinalityKeys.BATCH_MESSAGE_COUNT.withValue("1"));
	}

}
