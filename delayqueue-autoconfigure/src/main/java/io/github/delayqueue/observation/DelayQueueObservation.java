package io.github.delayqueue.observation;

import io.micrometer.common.docs.KeyName;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.docs.ObservationDocumentation;

/**
 * The observations of the starter: a send ({@code delayqueue.send}) and a handler run
 * ({@code delayqueue.process}). Both carry the same keys, {@code none} where a key has no
 * value, so that a dashboard can group them alike.
 *
 * @author delayqueue contributors
 */
public enum DelayQueueObservation implements ObservationDocumentation {

	/**
	 * A send of one job ({@code send}, {@code sendAt}) or of a batch ({@code sendAll}):
	 * the trace context is written into every job's headers before the job is stored.
	 */
	SEND {
		@Override
		public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
			return DefaultDelayQueueSendObservationConvention.class;
		}

		@Override
		public KeyName[] getLowCardinalityKeyNames() {
			return LowCardinalityKeys.values();
		}

		@Override
		public KeyName[] getHighCardinalityKeyNames() {
			return HighCardinalityKeys.values();
		}
	},

	/**
	 * One run of a handler, on the thread that runs it, continuing the trace of the send
	 * read from the job's headers.
	 */
	PROCESS {
		@Override
		public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
			return DefaultDelayQueueProcessObservationConvention.class;
		}

		@Override
		public KeyName[] getLowCardinalityKeyNames() {
			return LowCardinalityKeys.values();
		}

		@Override
		public KeyName[] getHighCardinalityKeyNames() {
			return HighCardinalityKeys.values();
		}
	};

	/**
	 * The value of a key that does not apply to an observation.
	 */
	public static final String NONE = "none";

	/**
	 * Keys with few values, fit for metric tags.
	 */
	public enum LowCardinalityKeys implements KeyName {

		/**
		 * Always {@code redis}.
		 */
		MESSAGING_SYSTEM {
			@Override
			public String asString() {
				return "messaging.system";
			}
		},

		/**
		 * {@code publish} for a send, {@code process} for a handler run.
		 */
		MESSAGING_OPERATION {
			@Override
			public String asString() {
				return "messaging.operation";
			}
		},

		/**
		 * The topic; for a batch over several topics, {@code multiple}.
		 */
		DESTINATION_NAME {
			@Override
			public String asString() {
				return "messaging.destination.name";
			}
		},

		/**
		 * The id of the listener that ran the handler; {@code none} for a send.
		 */
		LISTENER_ID {
			@Override
			public String asString() {
				return "delayqueue.listener.id";
			}
		},

		/**
		 * The simple class name of the exception that ended the observation, or
		 * {@code none}.
		 */
		ERROR {
			@Override
			public String asString() {
				return "error";
			}
		},

		/**
		 * What became of the job after a handler run: {@code success}, {@code retry},
		 * {@code dead}, or {@code none} (a send, or a run whose job was handed back
		 * because the listener stopped).
		 */
		OUTCOME {
			@Override
			public String asString() {
				return "delayqueue.outcome";
			}
		}

	}

	/**
	 * Keys with a value per job, fit for spans but not for metric tags.
	 */
	public enum HighCardinalityKeys implements KeyName {

		/**
		 * The job id; {@code none} for a batch of more than one job.
		 */
		MESSAGE_ID {
			@Override
			public String asString() {
				return "messaging.message.id";
			}
		},

		/**
		 * The delivery attempt a handler ran for, from 1; {@code none} for a send.
		 */
		ATTEMPT {
			@Override
			public String asString() {
				return "delayqueue.attempt";
			}
		},

		/**
		 * How many jobs a send carried; 1 for a handler run.
		 */
		BATCH_MESSAGE_COUNT {
			@Override
			public String asString() {
				return "messaging.batch.message_count";
			}
		}

	}

}
