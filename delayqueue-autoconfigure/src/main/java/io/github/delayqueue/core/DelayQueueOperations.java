package io.github.delayqueue.core;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What an application does with its own jobs: send them, cancel or reschedule them while
 * they are pending, and find them by id. Implemented by {@link DelayQueueTemplate}, which
 * the starter configures as a bean. What operators and tools do with the queues (counts,
 * pages of jobs, dead jobs, pause) is {@link DelayQueueAdmin}'s.
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
 * <p>
 * Inside a Spring-managed transaction, a send or cancel can wait for the commit (and be
 * dropped on rollback): per send with {@link JobRequest.Builder#afterCommit()}, per
 * cancel with {@link #cancelAfterCommit(String, String)}, or for every send and cancel
 * with {@code delayqueue.transaction-aware: true}. Such a call checks its input and fixes
 * the job id at once; what fails after the commit is logged and counted, as no caller can
 * hear of it any more.
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
	 * @return the job id, the request's or a generated one; when the topic holds a
	 * pending job with the request's id and the request says {@link IfPending#KEEP} or
	 * {@link IfPending#REPLACE}, that job's id
	 * @throws InvalidJobException if the request is invalid
	 * @throws DuplicateJobException if the topic still holds a pending job (delayed,
	 * ready or running) with the request's id and the request says
	 * {@link IfPending#REJECT}, the default; a dead job with that id is replaced
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
	 * Send many jobs as {@link #sendAll(Collection)} does, each as its request's
	 * {@link JobRequest#ifPending()} says, and tell for each what became of it: written,
	 * kept, replaced, or rejected. A job refused because its id is pending is reported,
	 * not thrown. <pre class="code">
	 * List&lt;SendResult&gt; results = delayQueue.sendAllWithResults(requests);
	 * long replaced = results.stream().filter((r) -&gt; r.outcome() == SendResult.Outcome.REPLACED).count();
	 * </pre>
	 * <p>
	 * The default sends with {@link #sendAll(Collection)}, which tells what became of
	 * each job only when every request says {@link IfPending#REJECT} (the default) and
	 * none waits for a commit by {@link JobRequest.Builder#afterCommit()}: a job is then
	 * written, or rejected as the {@link DuplicateJobException} names it. A job that the
	 * implementation makes wait for a commit on its own is reported written. For other
	 * requests the default throws before anything is written; {@link DelayQueueTemplate}
	 * tells for every request.
	 * @param requests the jobs
	 * @return one result per request, in the order of the requests
	 * @throws InvalidJobException if any request is invalid; nothing is written then
	 * @throws UnsupportedOperationException from the default, before anything is written,
	 * when a request says {@link IfPending#KEEP} or {@link IfPending#REPLACE}, waits for
	 * a commit, or when two requests of different topics give the same id
	 */
	default List<SendResult> sendAllWithResults(Collection<JobRequest> requests) {
		List<JobRequest> all = new ArrayList<>(requests);
		Set<String> ids = new HashSet<>();
		for (JobRequest request : all) {
			String unsupported = null;
			if (request.ifPending() != IfPending.REJECT) {
				unsupported = "a request that says " + request.ifPending();
			}
			else if (Boolean.TRUE.equals(request.afterCommit())) {
				unsupported = "a request that waits for a commit";
			}
			else if (request.id() != null && !ids.add(request.id())) {
				unsupported = "two requests with id '" + request.id() + "'";
			}
			if (unsupported != null) {
				throw new UnsupportedOperationException(
						getClass().getName() + " cannot tell what became of each job of a batch with " + unsupported
								+ "; nothing was sent, use sendAll or send each request");
			}
		}
		List<SendResult> results = new ArrayList<>(all.size());
		try {
			List<String> sent = sendAll(all);
			for (int i = 0; i < all.size(); i++) {
				results.add(new SendResult(all.get(i).topic(), sent.get(i), SendResult.Outcome.WRITTEN));
			}
		}
		catch (DuplicateJobException ex) {
			Set<String> refused = new HashSet<>(ex.getJobIds());
			Iterator<String> sent = ex.getSentJobIds().iterator();
			for (JobRequest request : all) {
				boolean rejected = request.id() != null && refused.contains(request.id());
				results.add(new SendResult(request.topic(), rejected ? request.id() : sent.next(),
						rejected ? SendResult.Outcome.REJECTED : SendResult.Outcome.WRITTEN));
			}
		}
		return results;
	}

	/**
	 * Cancel a job that has not yet been delivered. With
	 * {@code delayqueue.transaction-aware: true} and inside a Spring-managed transaction,
	 * the job is removed after the commit, as {@link #cancelAfterCommit(String, String)}
	 * does, and the answer tells whether it is delayed or ready at the call.
	 * @param topic the topic
	 * @param jobId the job id
	 * @return {@code true} if a delayed or ready job was removed
	 */
	boolean cancel(String topic, String jobId);

	/**
	 * Cancel a job once the Spring-managed transaction this call is made in has
	 * committed, and not at all if it rolls back; outside a transaction, cancel it at
	 * once. The topic and id are checked now. A cancel that fails after the commit is
	 * logged at ERROR and counted by the {@code delayqueue.jobs.deferred.failed} meter.
	 * @param topic the topic
	 * @param jobId the job id
	 * @throws InvalidJobException if the topic or the id is invalid
	 */
	void cancelAfterCommit(String topic, String jobId);

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

}
