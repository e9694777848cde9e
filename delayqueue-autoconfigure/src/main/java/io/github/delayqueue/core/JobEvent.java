package io.github.delayqueue.core;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * One step of a job's timeline, recorded by the topic's {@code timeline: true} in the
 * same Redis script as the step itself, on the Redis clock. See
 * {@link DelayQueueAdmin#timeline(String, String)}.
 *
 * @param at when it happened, by the Redis clock
 * @param type what happened
 * @param instance the instance where it happened (host and a process mark), or
 * {@code null} for a step that no instance took, such as a move made by the scheduler of
 * whichever instance swept the topic
 * @param attempt the delivery it concerns (1 for the first), or 0 for a step outside a
 * delivery
 * @param dueAt the due time the step set (sent, replaced, retried, rescheduled), or
 * {@code null}
 * @param detail what else the step tells: the error's class and its message, truncated,
 * for {@link Type#FAILED}; who asked, for {@link Type#REQUEUED} and
 * {@link Type#CANCELLED}; otherwise {@code null}
 * @author delayqueue contributors
 */
public record JobEvent(Instant at, Type type, @Nullable String instance, int attempt, @Nullable Instant dueAt,
		@Nullable String detail) {

	/**
	 * Return this step as it may be shown to someone who may not see values, hidden as
	 * {@link JobInfo#withoutValues()} hides a job's: the instance keeps its process mark
	 * but not its host name, and a detail keeps the class name of an exception but not
	 * the message, which may quote a request or a credential. The detail of a
	 * {@link Type#REQUEUED} or {@link Type#CANCELLED} step, which names who asked, is
	 * kept.
	 * @return the step without values
	 */
	public JobEvent withoutValues() {
		boolean namesWhoAsked = this.type == Type.REQUEUED || this.type == Type.CANCELLED;
		return new JobEvent(this.at, this.type, JobInfo.withoutHost(this.instance), this.attempt, this.dueAt,
				namesWhoAsked ? this.detail : JobInfo.withoutMessage(this.detail));
	}

	/**
	 * The steps a timeline records.
	 */
	public enum Type {

		/**
		 * Sent: written as a new job.
		 */
		SENT,

		/**
		 * Sent again with {@link IfPending#REPLACE}: payload, headers and due time
		 * replaced.
		 */
		REPLACED,

		/**
		 * Became due and moved to the ready queue.
		 */
		READY,

		/**
		 * Claimed by a listener for a delivery.
		 */
		CLAIMED,

		/**
		 * The handler failed.
		 */
		FAILED,

		/**
		 * Due again after a failure (or a rate limit), at {@link JobEvent#dueAt()}.
		 */
		RETRIED,

		/**
		 * Handed back to the ready queue without spending the attempt (a rate limit, a
		 * shutdown, a claim whose reply was lost).
		 */
		RELEASED,

		/**
		 * Its delivery's time to run elapsed before it settled.
		 */
		EXPIRED,

		/**
		 * Moved to the dead jobs after its last attempt.
		 */
		DEAD,

		/**
		 * Taken from the dead jobs back to the ready queue.
		 */
		REQUEUED,

		/**
		 * Given a new due time.
		 */
		RESCHEDULED,

		/**
		 * Cancelled.
		 */
		CANCELLED,

		/**
		 * Completed.
		 */
		COMPLETED

	}

}
