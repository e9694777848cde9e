package io.github.delayqueue.listener;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import io.github.delayqueue.store.JobClaims.ClaimedJob;
import io.github.delayqueue.store.JobRecordCodec;
import io.github.delayqueue.store.TopicLimiter;
import io.github.delayqueue.store.TopicLimiter.Admission;
import io.github.delayqueue.store.TopicLimiter.Delivery;
import io.github.delayqueue.support.TopicPolicy;

/**
 * Admits one container run's claimed jobs of topics with limits across instances (a rate
 * limit, a global concurrency, a hold), see {@link TopicLimiter}: a claim takes the jobs,
 * then one script call on the topic's own keys admits as many as the limits allow, and
 * those it does not admit go back to READY, uncounted. Claiming first means a limit is
 * never spent on jobs that are not there; claiming no more than the rate limit had room
 * for at the last admission means few are handed back. A topic whose limits admitted
 * fewer than were claimed is left alone (see {@link TopicPauses#holdBack}) for exactly as
 * long as the limits say, so its waiter blocks on it again only when a permit is free.
 * Claims of topics without limits pass untouched, with no call to Redis.
 *
 * @author delayqueue contributors
 */
final class TopicLimitGate {

	/**
	 * How long a topic whose global concurrency is used up is left alone when no permit
	 * of this instance comes back first: permits given back on other instances send no
	 * word.
	 */
	static final Duration CONCURRENCY_RECHECK = Duration.ofMillis(200);

	private final TopicLimiter limiter;

	private final Function<String, TopicPolicy> policies;

	private final TopicPauses pauses;

	private final Runnable wakeWaiters;

	// Topics left alone because their global concurrency was used up: a permit given back
	// here ends that at once.
	private final Set<String> waitingForPermits = ConcurrentHashMap.newKeySet();

	// How many more starts each rate-limited topic's limit had room for at its last
	// admission, on this instance's claim loop.
	private final Map<String, Integer> rateRoom = new HashMap<>();

	TopicLimitGate(TopicLimiter limiter, Function<String, TopicPolicy> policies, TopicPauses pauses,
			Runnable wakeWaiters) {
		this.limiter = limiter;
		this.policies = policies;
		this.pauses = pauses;
		this.wakeWaiters = wakeWaiters;
	}

	/**
	 * Tell whether any of these topics has a global concurrency: its jobs must not be
	 * claimed ahead of the free workers, as a job waiting for a worker would hold a
	 * permit that another instance's free worker could use.
	 * @param topics the topics
	 * @return {@code true} if one has
	 */
	boolean anyGloballyBounded(List<String> topics) {
		return topics.stream().anyMatch((topic) -> this.policies.apply(topic).limits().globalConcurrency() > 0);
	}

	/**
	 * Return how many jobs of a topic are worth claiming now: those wanted, no more than
	 * its rate limit had room for at its last admission (the limit itself before the
	 * first), and at least one, which learns the room anew once the limit refused.
	 * @param topic the topic
	 * @param wanted how many jobs the container can take
	 * @return how many to claim
	 */
	int claimable(String topic, int wanted) {
		int limit = this.policies.apply(topic).limits().rateLimit();
		if (limit <= 0) {
			return wanted;
		}
		return Math.min(wanted, Math.max(1, this.rateRoom.getOrDefault(topic, limit)));
	}

	/**
	 * Admit the jobs of one claim under their topic's limits; hand back, uncounted, those
	 * not admitted.
	 * @param claimed the jobs of one claim, all of one queue
	 * @return the jobs admitted, in order
	 */
	List<JobExecution> admit(List<JobExecution> claimed) {
		if (claimed.isEmpty()) {
			return claimed;
		}
		String topic = claimed.get(0).job().topic();
		TopicPolicy policy = this.policies.apply(topic);
		if (!policy.limits().any()) {
			return claimed;
		}
		List<Delivery> deliveries = new ArrayList<>(claimed.size());
		for (JobExecution execution : claimed) {
			ClaimedJob job = execution.job();
			Duration ttr = JobRecordCodec.ttrOf(job.record());
			deliveries.add(new Delivery(job.id(), job.attempt(), (ttr != null) ? ttr : policy.ttr()));
		}
		Admission admission;
		try {
			admission = this.limiter.admit(topic, new TopicLimiter.Limits(policy.limits().rateLimit(),
					policy.limits().ratePeriod(), policy.limits().globalConcurrency()), deliveries);
		}
		catch (RuntimeException ex) {
			claimed.forEach(JobExecution::handBack);
			throw ex;
		}
		if (admission.room() >= 0) {
			this.rateRoom.put(topic, admission.room());
		}
		boolean permits = policy.limits().globalConcurrency() > 0;
		List<JobExecution> admitted = new ArrayList<>(admission.admitted());
		for (int i = 0; i < claimed.size(); i++) {
			JobExecution execution = claimed.get(i);
			if (i < admission.admitted()) {
				if (permits) {
					String member = deliveries.get(i).member();
					execution.holdsPermit(member, () -> release(topic, member));
				}
				admitted.add(execution);
			}
			else {
				execution.handBack();
			}
		}
		if (admission.admitted() < claimed.size()) {
			Duration wait = admission.retryAfter();
			if (wait == null) {
				this.waitingForPermits.add(topic);
			}
			this.pauses.holdBack(topic, (wait != null) ? wait : CONCURRENCY_RECHECK);
		}
		return admitted;
	}

	private void release(String topic, String member) {
		this.limiter.release(topic, List.of(member));
		if (this.waitingForPermits.remove(topic)) {
			this.pauses.endHold(topic);
			this.wakeWaiters.run();
		}
	}

}
