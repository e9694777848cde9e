package io.github.delayqueue.core;

/**
 * What a send does when its topic still holds a pending job (DELAYED, READY or RUNNING)
 * with the request's id. Set per request with
 * {@link JobRequest.Builder#ifPending(IfPending)}; the check and the change are one
 * atomic step in Redis, decided on the Redis clock, so two instances sending the same id
 * at once cannot both write it.
 *
 * <pre class="code">
 * // send a reminder unless one is already waiting
 * delayQueue.send(JobRequest.builder("cart.reminder", cart)
 *     .id("cart-" + cart.id())
 *     .delay(Duration.ofHours(1))
 *     .ifPending(IfPending.KEEP)
 *     .build());
 *
 * // re-index a document 10 s after its last edit, but at most 1 min after the first
 * delayQueue.send(JobRequest.builder("search.reindex", documentId)
 *     .id("reindex-" + documentId)
 *     .delay(Duration.ofSeconds(10))
 *     .ifPending(IfPending.REPLACE)
 *     .debounceMaxWait(Duration.ofMinutes(1))
 *     .build());
 * </pre>
 *
 * A DEAD job does not hold its id: a new job with that id replaces it whatever this says.
 * On a partitioned topic the pending job is looked for in the partition the id maps to.
 *
 * @author delayqueue contributors
 * @see DelayQueueOperations#sendAllWithResults(java.util.Collection)
 */
public enum IfPending {

	/**
	 * Refuse the new job with a {@link DuplicateJobException}; the pending job is
	 * unchanged. The default.
	 */
	REJECT,

	/**
	 * Keep the pending job unchanged and write nothing; no error, and the send returns
	 * the pending job's id.
	 */
	KEEP,

	/**
	 * Replace the pending job's payload, headers, time to run, maximum attempts and due
	 * time with the new request's, a debounce: the job runs once, with the latest
	 * payload, after the last send's delay. It keeps its id and its creation time (its
	 * first send, from which {@link JobRequest.Builder#debounceMaxWait(Duration)} counts)
	 * and starts over with no attempts and no last error. A DELAYED or READY job changes
	 * at once, moving between the two as the new due time says. A RUNNING job is not
	 * touched, since its handler already has the old payload: the new version waits and
	 * becomes the job, DELAYED or READY by its own due time, as soon as that delivery
	 * ends (acknowledged, failed, expired or handed back), so it runs after the running
	 * one finishes; sent again meanwhile, it is replaced in turn.
	 * {@link DelayQueueOperations#cancel(String, String) cancel} removes such a waiting
	 * version and lets the running delivery finish.
	 */
	REPLACE

}
