package io.github.delayqueue.core;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Sends delayed jobs and manages them. Implemented by {@link DelayQueueTemplate}, which
 * the starter configures as a bean.
 *
 * <pre class="code">
 * String id = delayQueue.send("orders.timeout", new OrderTimeout(orderId), Duration.ofMinutes(30));
 * // the order was paid in time:
 * delayQueue.cancel("orders.timeout", id);
 * </pre>
 *
 * Due times are decided by the Redis server's clock, so instances whose clocks disagree
 * still agree on when a job is due. Every method that writes either succeeds, throws, or
 * leaves nothing behind: nothing is dropped silently. Redis being unreachable surfaces as
 * a {@link org.springframework.dao.DataAccessException}.
 *
 * @author delayqueue contributors
 */
public interface DelayQueueOperations {

	/**
	 * Send a job that is due now.
	 * @param topic the topic
	 * @param payload the payload, serialized as JSON
	 * @return the generated job id
	 * @throws InvalidJobException if the topic or payload is invalid
	 */
	String send(String topic, Object payload);

	/**
	 * Send a job that is due after a delay.
	 * @param topic the topic
	 * @param payload the payload, serialized as JSON
	 * @param delay zero or more
	 * @return the generated job id
	 * @throws InvalidJobException if the topic, payload or delay is invalid
	 */
	String send(String topic, Object payload, Duration delay);

	/**
	 * Send a job that is due at an instant; an instant in the past means now.
	 * @param topic the topic
	 * @param payload the payload, serialized as JSON
	 * @param dueAt the due time
	 * @return the generated job id
	 * @throws InvalidJobException if the topic or payload is invalid
	 */
	String sendAt(String topic, Object payload, Instant dueAt);

	/**
	 * Send a job described in full.
	 * @param request the job
	 * @return the job id, the request's or a generated one
	 * @throws InvalidJobException if the request is invalid
	 * @throws DuplicateJobException if the topic still holds a pending job (delayed,
	 * ready or running) with the request's id; a dead job with that id is replaced
	 */
	String send(JobRequest request);

	/**
	 * Send many jobs, in slices of one network round trip each. All requests are checked
	 * before any is written.
	 * @param requests the jobs
	 * @return the job ids, in the order of the requests
	 * @throws InvalidJobException if any request is invalid; nothing is written then
	 * @throws DuplicateJobException if a topic still holds pending jobs with some of the
	 * ids; the exception names them, every other job was sent, and
	 * {@link DuplicateJobException#getSentJobIds()} gives their ids
	 */
	List<String> sendAll(Collection<JobRequest> requests);

	/**
	 * Cancel a job that has not yet been delivered.
	 * @param topic the topic
	 * @param jobId the job id
	 * @return {@code true} if a delayed or ready job was removed
	 */
	boolean cancel(String topic, String jobId);

	/**
	 * Move the due time of a job that has not yet been delivered.
	 * @param topic the topic
	 * @param jobId the job id
	 * @param delay the new delay, from now, zero or more
	 * @return {@code true} if a delayed or ready job was rescheduled
	 */
	boolean reschedule(String topic, String jobId, Duration delay);

	/**
	 * Look a job up.
	 * @param topic the topic
	 * @param jobId the job id
	 * @return the job, or empty once it is done or cancelled
	 */
	Optional<JobInfo> find(String topic, String jobId);

	/**
	 * Count the jobs of a topic in each state.
	 * @param topic the topic
	 * @return the counts
	 */
	TopicStats stats(String topic);

	/**
	 * Return every topic that has or had jobs, or that a listener consumes (a listener
	 * announces its topics when it starts, so that they show in metrics and the endpoint
	 * before their first job).
	 * @return the topic names
	 */
	Set<String> topics();

	/**
	 * Page through the dead jobs of a topic, oldest death first.
	 * @param topic the topic
	 * @param offset how many to skip
	 * @param count how many to return at most
	 * @return the dead jobs
	 */
	List<JobInfo> deadJobs(String topic, int offset, int count);

	/**
	 * Put every dead job of a topic back to {@link JobState#READY}, with attempts reset.
	 * @param topic the topic
	 * @return how many jobs were requeued
	 */
	long requeueDead(String topic);

	/**
	 * Put one dead job back to {@link JobState#READY}, with attempts reset.
	 * @param topic the topic
	 * @param jobId the job id
	 * @return {@code true} if the job was dead and is now ready
	 */
	boolean requeueDead(String topic, String jobId);

	/**
	 * Delete every dead job of a topic.
	 * @param topic the topic
	 * @return how many jobs were deleted
	 */
	long purgeDead(String topic);

	/**
	 * Delete one dead job.
	 * @param topic the topic
	 * @param jobId the job id
	 * @return {@code true} if the job was dead and is now deleted
	 */
	boolean purgeDead(String topic, String jobId);

	/**
	 * Read a page of a topic's jobs in one state, oldest first: DELAYED by due time,
	 * READY in the order listeners will take them, RUNNING by time-to-run deadline, DEAD
	 * by time of death. A page costs Redis time in proportion to its size (and, for
	 * READY, to the offset), never a scan of the whole state; pages are not one snapshot,
	 * so a job may move between two of them. The pages of a topic with several partitions
	 * run through its partitions one after the other, each in that order.
	 * @param topic the topic
	 * @param state the state
	 * @param offset how many jobs to skip
	 * @param count how many to read at most
	 * @return the jobs, oldest first
	 */
	List<JobInfo> jobs(String topic, JobState state, int offset, int count);

	/**
	 * Pause a topic: listeners on every instance stop claiming its jobs within about a
	 * second, while its jobs keep falling due and may still be sent, cancelled and
	 * rescheduled. Handlers already running finish. The pause lasts until
	 * {@link #resume(String)}, across restarts of the application.
	 * @param topic the topic
	 */
	void pause(String topic);

	/**
	 * Resume a paused topic: listeners claim its jobs again within about a second, the
	 * ones that fell due meanwhile first. Resuming a topic that is not paused does
	 * nothing.
	 * @param topic the topic
	 */
	void resume(String topic);

	/**
	 * Tell whether a topic is paused.
	 * @param topic the topic
	 * @return {@code true} if paused
	 */
	boolean isPaused(String topic);

}
