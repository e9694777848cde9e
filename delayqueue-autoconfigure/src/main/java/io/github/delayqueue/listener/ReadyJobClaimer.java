package io.github.delayqueue.listener;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

import io.github.delayqueue.internal.store.DelayQueueKeys;
import io.github.delayqueue.internal.store.JobClaims.Claim;
import io.github.delayqueue.internal.store.JobClaims.ClaimCall;
import io.github.delayqueue.internal.store.JobClaims.ClaimedJob;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Claims ready jobs for one container run, on its claim loop's thread only: the ids its
 * waiters brought, then its topics' queues in priority order, the partitions of a topic
 * in turn.
 * <p>
 * A claim call whose reply is lost (a timeout, a dropped connection) may have run in
 * Redis all the same. It is kept as unanswered, and the loop sends that very call again,
 * with its token, before it claims anything else: the claim receipt then hands over the
 * jobs that run claimed instead of leaving them running, unseen, until their time to run
 * ends, an attempt spent.
 *
 * @author delayqueue contributors
 */
final class ReadyJobClaimer {

	private static final Log logger = LogFactory.getLog(ContainerRun.class);

	private final DelayedJobListenerContainer container;

	private final ClaimHandoff handoff;

	private final TopicPauses pauses;

	private final BooleanSupplier interruptingHandlers;

	private final TopicLimitGate limits;

	/**
	 * Every queue of each topic, in the topics' priority order; the queues this instance
	 * writes to until the claim loop has read the others from Redis.
	 */
	private Map<String, List<String>> queuesByTopic;

	// Where the next look at each topic's queues begins, so that no partition is always
	// looked at last.
	private final Map<String, Integer> nextQueue = new HashMap<>();

	private @Nullable ClaimCall unanswered;

	ReadyJobClaimer(DelayedJobListenerContainer container, ClaimHandoff handoff, TopicPauses pauses,
			TopicLimitGate limits, BooleanSupplier interruptingHandlers) {
		this.container = container;
		this.limits = limits;
		this.handoff = handoff;
		this.pauses = pauses;
		this.interruptingHandlers = interruptingHandlers;
		Map<String, List<String>> queues = new LinkedHashMap<>();
		for (String topic : container.getTopics()) {
			queues.put(topic, container.factory().claims().writtenQueues(topic));
		}
		this.queuesByTopic = queues;
	}

	/**
	 * Claim from these queues from now on.
	 * @param queuesByTopic every queue of each topic, in the topics' priority order
	 */
	void setQueues(Map<String, List<String>> queuesByTopic) {
		this.queuesByTopic = queuesByTopic;
	}

	/**
	 * Return every queue claimed from.
	 * @return the queues, in priority order
	 */
	List<String> queues() {
		List<String> all = new ArrayList<>();
		this.queuesByTopic.values().forEach(all::addAll);
		return all;
	}

	/**
	 * Tell whether a claim call's reply was lost and it is still to be sent again.
	 * @return {@code true} if one is unanswered
	 */
	boolean hasUnanswered() {
		return this.unanswered != null;
	}

	/**
	 * Send the unanswered claim call again.
	 * @return the jobs it claimed, in its first run or this one
	 */
	List<JobExecution> claimUnanswered() {
		ClaimCall lost = this.unanswered;
		return (lost != null) ? claim(lost) : List.of();
	}

	/**
	 * Hand back, uncounted, what the unanswered claim call claimed, if any: the run
	 * stops.
	 */
	void handBackUnanswered() {
		ClaimCall lost = this.unanswered;
		if (lost == null) {
			return;
		}
		try {
			claimUnadmitted(lost).forEach(JobExecution::handBack);
		}
		catch (RuntimeException ex) {
			logger.debug("Could not send claim call " + lost.token() + " again; its jobs, if it claimed any, are"
					+ " delivered again when their time to run elapses", ex);
		}
	}

	/**
	 * Claim up to {@code wanted} jobs: those whose ids waiters brought, then the topics
	 * in priority order. The jobs are claimed in several calls; should a later one fail,
	 * those claimed already are handed back before the failure is passed on.
	 * @param wanted the most jobs to claim
	 * @return the jobs
	 */
	List<JobExecution> claimReady(int wanted) {
		List<JobExecution> jobs = new ArrayList<>(wanted);
		try {
			ClaimHandoff.ReadyId ready;
			while (jobs.size() < wanted && (ready = this.handoff.poll()) != null) {
				jobs.addAll(claim(ready.queue(), ready.id(), 0));
			}
			for (Map.Entry<String, List<String>> topic : this.queuesByTopic.entrySet()) {
				if (jobs.size() >= wanted) {
					break;
				}
				List<String> queues = topic.getValue();
				// Only a partitioned topic needs the rotating start: this loop runs
				// on every claim.
				int first = (queues.size() == 1) ? 0
						: Math.floorMod(this.nextQueue.merge(topic.getKey(), 1, Integer::sum), queues.size());
				for (int i = 0; i < queues.size() && jobs.size() < wanted; i++) {
					String queue = queues.get((first + i) % queues.size());
					if (!this.pauses.skips(queue)) {
						jobs.addAll(claim(queue, null, this.limits.claimable(topic.getKey(), wanted - jobs.size())));
					}
				}
			}
			return jobs;
		}
		catch (RuntimeException ex) {
			jobs.forEach(JobExecution::handBack);
			throw ex;
		}
	}

	/**
	 * Claim the job whose id a waiter moved into a queue's claiming list.
	 * @param ready the id and its queue
	 * @return the job, or none if it was handed back or cancelled meanwhile
	 */
	List<JobExecution> claimMoved(ClaimHandoff.ReadyId ready) {
		return claim(ready.queue(), ready.id(), 0);
	}

	private List<JobExecution> claim(String queue, @Nullable String movedId, int count) {
		return claim(this.container.factory()
			.claims()
			.newClaim(queue, movedId, count, this.container.ttr(queue),
					this.limits.heldGroups(DelayQueueKeys.topicOf(queue))));
	}

	// The jobs of a claim that its topic's limits admit, see TopicLimitGate.
	private List<JobExecution> claim(ClaimCall call) {
		return this.limits.admit(claimUnadmitted(call));
	}

	/**
	 * Send a claim call, and keep it as unanswered until its reply is in. A call sent
	 * again after its reply was lost may bring jobs that Redis claimed before a pause, so
	 * its reply does not tell that the queue is not paused.
	 */
	private List<JobExecution> claimUnadmitted(ClaimCall call) {
		boolean again = (call == this.unanswered);
		this.unanswered = call;
		long sentAt = System.nanoTime();
		Claim claim = this.container.claimer().claim(call);
		this.unanswered = null;
		this.limits.claimTook(System.nanoTime() - sentAt);
		if (claim.paused()) {
			this.pauses.foundPaused(call.queue());
		}

		else if (!again) {
			this.pauses.foundUnpaused(call.queue(), sentAt);
		}
		return executions(claim, call.ttr());
	}

	private List<JobExecution> executions(Claim claim, Duration ttr) {
		long claimedAt = System.nanoTime();
		if (!claim.jobs().isEmpty()) {
			this.container.factory()
				.dueTimeListener()
				.jobScheduled(claim.jobs().get(0).queue(), claim.redisNow() + ttr.toMillis());
		}
		List<JobExecution> executions = new ArrayList<>(claim.jobs().size());
		for (ClaimedJob job : claim.jobs()) {
			if (job.attempt() < 0) {
				logger.warn("Dropped ready job id '" + job.id() + "' of topic '" + job.topic()
						+ "': its job data had vanished from Redis");
				continue;
			}
			executions.add(this.container.execution(job, claim.redisNow(), claimedAt, this.interruptingHandlers));
		}
		return executions;
	}

}
