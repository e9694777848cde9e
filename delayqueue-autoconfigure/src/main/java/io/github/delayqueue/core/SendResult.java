package io.github.delayqueue.core;

/**
 * What became of one request of
 * {@link DelayQueueOperations#sendAllWithResults(java.util.Collection)}.
 *
 * @param topic the topic
 * @param jobId the job's id: the request's, a generated one, or the pending job's
 * @param outcome what the send did
 * @author delayqueue contributors
 */
public record SendResult(String topic, String jobId, Outcome outcome) {

	/**
	 * Tell whether the send changed what the topic holds.
	 * @return {@code true} if the job was written or replaced
	 */
	public boolean changed() {
		return this.outcome == Outcome.WRITTEN || this.outcome == Outcome.REPLACED;
	}

	/**
	 * What a send did with its job.
	 */
	public enum Outcome {

		/**
		 * Written as a new job: the topic held no pending job with its id.
		 */
		WRITTEN,

		/**
		 * Not written: a pending job with its id was kept as it was
		 * ({@link IfPending#KEEP}).
		 */
		KEPT,

		/**
		 * Written over the pending job with its id ({@link IfPending#REPLACE}); for a
		 * RUNNING job, it takes the job's place when that delivery ends.
		 */
		REPLACED,

		/**
		 * Refused: a pending job with its id was left unchanged
		 * ({@link IfPending#REJECT}, which a plain {@code send} or {@code sendAll}
		 * reports as a {@link DuplicateJobException}).
		 */
		REJECTED,

		/**
		 * Not written yet: the request waits for the commit of the Spring-managed
		 * transaction the send was made in ({@link JobRequest.Builder#afterCommit()}); a
		 * refusal then is logged and counted as any failure after the commit.
		 */
		DEFERRED

	}

}
