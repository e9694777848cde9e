package io.github.delayqueue.internal.store;

import org.jspecify.annotations.Nullable;

/**
 * One step of a job's timeline as the scripts record it (see {@code timeline} in
 * {@code lib/timeline.lua}).
 *
 * @param atMillis when, in epoch ms by the Redis clock
 * @param type what happened
 * @param instance the instance that took the step, or {@code null} for none (a sweep)
 * @param attempt the delivery it concerns, 0 for none
 * @param dueAtMillis the due time it set, in epoch ms, or -1 for none
 * @param detail the failure, or who asked, or {@code null}
 * @author delayqueue contributors
 */
public record StoredEvent(long atMillis, Type type, @Nullable String instance, int attempt, long dueAtMillis,
		@Nullable String detail) {

	/**
	 * The steps, each with the letter the scripts write.
	 */
	public enum Type {

		/** Written as a new job. */
		SENT('S'),
		/** Sent again in place of the pending job. */
		REPLACED('P'),
		/** Moved to the ready list. */
		READY('R'),
		/** Claimed for a delivery. */
		CLAIMED('G'),
		/** The delivery failed. */
		FAILED('F'),
		/** Due again after a failure. */
		RETRIED('T'),
		/** Handed back, its attempt not spent. */
		RELEASED('L'),
		/** The delivery's time to run elapsed. */
		EXPIRED('E'),
		/** Moved to the dead jobs. */
		DEAD('D'),
		/** Taken from the dead jobs back to the ready list. */
		REQUEUED('Q'),
		/** Given a new due time. */
		RESCHEDULED('H'),
		/** Cancelled. */
		CANCELLED('X'),
		/** Completed. */
		COMPLETED('C');

		private final char letter;

		Type(char letter) {
			this.letter = letter;
		}

		/**
		 * Return the type a script's letter stands for.
		 * @param letter the letter
		 * @return the type, or {@code null} for a letter of no type
		 */
		static @Nullable Type of(char letter) {
			for (Type type : values()) {
				if (type.letter == letter) {
					return type;
				}
			}
			return null;
		}

	}

}
