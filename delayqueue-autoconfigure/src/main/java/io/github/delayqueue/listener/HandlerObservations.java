package io.github.delayqueue.listener;

import java.time.Duration;

import io.github.delayqueue.internal.store.JobClaims.ClaimedJob;
import io.github.delayqueue.internal.store.JobRecord;
import io.github.delayqueue.observation.DefaultDelayQueueProcessObservationConvention;
import io.github.delayqueue.observation.DelayQueueObservation;
import io.github.delayqueue.observation.DelayQueueProcessContext;
import io.github.delayqueue.observation.DelayQueueProcessObservationConvention;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

/**
 * Starts the observation of each handler run of one listener, around the handler only:
 * nothing is observed around blocking waits, claims or acknowledgements.
 *
 * @author delayqueue contributors
 */
final class HandlerObservations {

	static final HandlerObservations NONE = new HandlerObservations(ObservationRegistry.NOOP, null, "none", null);

	private final ObservationRegistry registry;

	private final @Nullable DelayQueueProcessObservationConvention convention;

	private final String listenerId;

	private final @Nullable Duration linkLongDelays;

	HandlerObservations(ObservationRegistry registry, @Nullable DelayQueueProcessObservationConvention convention,
			String listenerId, @Nullable Duration linkLongDelays) {
		this.registry = registry;
		this.convention = convention;
		this.listenerId = listenerId;
		this.linkLongDelays = linkLongDelays;
	}

	HandlerObservations forListener(String listenerId) {
		return new HandlerObservations(this.registry, this.convention, listenerId, this.linkLongDelays);
	}

	/**
	 * Start the observation of a run.
	 * @param job the delivery
	 * @param record its data
	 * @return the started observation
	 */
	HandlerObservation start(ClaimedJob job, JobRecord record) {
		if (this.registry.isNoop()) {
			return HandlerObservation.NOOP;
		}
		boolean linked = this.linkLongDelays != null
				&& Duration.between(record.createdAt(), record.dueAt()).compareTo(this.linkLongDelays) > 0;
		DelayQueueProcessContext context = new DelayQueueProcessContext(record.headers(), job.topic(), job.id(),
				job.attempt(), this.listenerId, record.createdAt(), record.dueAt(), linked);
		Observation observation = DelayQueueObservation.PROCESS.observation(this.convention,
				DefaultDelayQueueProcessObservationConvention.INSTANCE, () -> context, this.registry);
		return new HandlerObservation(observation.start(), context);
	}

	/**
	 * One observed run: opened around the handler, stopped once the job's outcome is
	 * known.
	 */
	static class HandlerObservation {

		static final HandlerObservation NOOP = new HandlerObservation(Observation.NOOP, null);

		private final Observation observation;

		private final @Nullable DelayQueueProcessContext context;

		HandlerObservation(Observation observation, @Nullable DelayQueueProcessContext context) {
			this.observation = observation;
			this.context = context;
		}

		Observation.Scope openScope() {
			return this.observation.openScope();
		}

		void stop(@Nullable String outcome, @Nullable Throwable failure) {
			if (this.context == null) {
				return;
			}
			if (outcome != null) {
				this.context.setOutcome(outcome);
			}
			if (failure != null) {
				this.observation.error(failure);
			}
			this.observation.stop();
		}

	}

}
