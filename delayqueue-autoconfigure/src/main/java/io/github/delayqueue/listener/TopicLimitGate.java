package io.github.delayqueue.listener;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import io.github.delayqueue.internal.store.JobClaims.ClaimedJob;
import io.github.delayqueue.internal.store.JobRecordCodec;
import io.github.delayqueue.internal.store.TopicLimiter;
import io.github.delayqueue.internal.store.TopicLimiter.Admission;
import io.github.delayqueue.internal.store.TopicLimiter.Delivery;
import io.github.delayqueue.internal.support.TopicLimits;
import io.github.delayqueue.internal.support.TopicPolicy;
import org.jspecify.annotations.Nullable;

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
 * <p>
 * A group at its own bounds (a group concurrency or rate limit) refuses its own jobs and
 * no other group's: those are handed back, and the group is passed over by this
 * container's claims (see {@link GroupHolds}) for as long as its limits say, while the
 * other groups take their turns; the topic is not held back. The container claims again
 * when the first such hold ends, or at once when a permit of a held group comes back
 * here.
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

	/**
	 * The longest a rate-limited job may wait for its worker after its admission, see
	 * {@link #startWindow(Duration)}: above the time the work claimed ahead of the free
	 * workers takes, see {@link RunTimeAverage#CLAIM_AHEAD_WINDOW}.
	 */
	static final Duration MAX_START_WINDOW = Duration.ofMillis(50);

	private final TopicLimiter limiter;

	// This container run's place in the lines for permits, see TopicLimiter#admit.
	private final String name = UUID.randomUUID().toString();

	private final Function<String, TopicPolicy> policies;

	private final TopicPauses pauses;

	private final Runnable wakeWaiters;

	private final Runnable lookAgain;

	private final GroupHolds groupHolds = new GroupHolds(System::nanoTime);

	private final RecentRoundTrips roundTrips = new RecentRoundTrips();

	// Topics left alone because their global concurrency was used up: a permit given back
	// here ends that at once.
	private final Set<String> waitingForPermits = ConcurrentHashMap.newKeySet();

	// How many more starts each rate-limited topic's limit had room for at its last
	// admission, on this instance's claim loop.
	private final Map<String, Integer> rateRoom = new HashMap<>();

	TopicLimitGate(TopicLimiter limiter, Function<String, TopicPolicy> policies, TopicPauses pauses,
			Runnable wakeWaiters, Runnable lookAgain) {
		this.limiter = limiter;
		this.policies = policies;
		this.pauses = pauses;
		this.wakeWaiters = wakeWaiters;
		this.lookAgain = lookAgain;
	}

	/**
	 * Tell whether any of these topics has a global or group concurrency: its jobs must
	 * not be claimed ahead of the free workers, as a job waiting for a worker would hold
	 * a permit that another instance's free worker could use.
	 * @param topics the topics
	 * @return {@code true} if one has
	 */
	boolean anyGloballyBounded(List<String> topics) {
		return topics.stream().anyMatch((topic) -> this.policies.apply(topic).limits().concurrencyBounded());
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
	 * Return the groups of a topic whose own limits admit none of their jobs now, for
	 * claims to pass over.
	 * @param topic the topic
	 * @return the groups, none when no group of it is held
	 */
	List<String> heldGroups(String topic) {
		return this.groupHolds.held(topic);
	}

	/**
	 * Return how long until the first hold of a group ends, when this container should
	 * claim again even if no job became ready meanwhile: while every group with jobs
	 * waiting is held, no job is put forward for the waiters.
	 * @return the time left, zero when no group is held
	 */
	Duration untilFirstGroupHoldEnds() {
		return this.groupHolds.shortestLeft();
	}

	/**
	 * A claim's call to Redis took this long: the admission of its jobs goes the same
	 * way, so its start window must allow for as long a reply, from the first admission
	 * on (see {@link RecentRoundTrips}).
	 * @param nanos the round trip
	 */
	void claimTook(long nanos) {
		this.roundTrips.took(nanos);
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
		TopicLimits limits = policy.limits();
		if (!limits.any()) {
			return claimed;
		}
		Duration topicTtr = policy.ttr();
		List<Delivery> deliveries = new ArrayList<>(claimed.size());
		for (JobExecution execution : claimed) {
			ClaimedJob job = execution.job();
			Duration ttr = JobRecordCodec.ttrOf(job.record());
			String group = limits.groupsBounded() ? JobRecordCodec.groupOf(job.record()) : null;
			deliveries.add(new Delivery(job.id(), job.attempt(), (ttr != null) ? ttr : topicTtr, group));
		}
		// The reply must come back within a start's window too: a window shorter than the
		// round trip would hand back every job it admitted.
		Duration replyAllowance = this.roundTrips.allowance();
		Duration topicStartWindow = (limits.rateLimit() > 0) ? startWindow(limits.ratePeriod()).plus(replyAllowance)
				: null;
		Duration groupStartWindow = (limits.groupRateLimit() > 0)
				? startWindow(limits.groupRatePeriod()).plus(replyAllowance) : null;
		Admission admission;
		// Before the call: the admission happens after this on the Redis clock, so a
		// start by this plus its window is a start within the window of the admission.
		long sentAt = System.nanoTime();
		try {
			admission = this.limiter.admit(topic,
					new TopicLimiter.Limits(limits.rateLimit(), counted(limits.ratePeriod(), topicStartWindow),
							limits.globalConcurrency(), limits.groupConcurrency(), limits.groupRateLimit(),
							counted(limits.groupRatePeriod(), groupStartWindow)),
					this.name, deliveries);
		}
		catch (RuntimeException ex) {
			claimed.forEach(JobExecution::handBack);
			throw ex;
		}
		this.roundTrips.took(System.nanoTime() - sentAt);
		if (admission.room() >= 0) {
			this.rateRoom.put(topic, admission.room());
		}
		List<JobExecution> admitted = new ArrayList<>(admission.admitted());
		List<JobExecution> refused = new ArrayList<>(claimed.size() - admission.admitted());
		for (int i = 0; i < claimed.size(); i++) {
			JobExecution execution = claimed.get(i);
			if (admission.admits(i)) {
				Delivery delivery = deliveries.get(i);
				String group = (limits.groupConcurrency() > 0) ? delivery.group() : null;
				if (limits.globalConcurrency() > 0 || group != null) {
					String member = delivery.member();
					execution.holdsPermit(member, group, () -> release(topic, group, member));
				}
				Duration startWindow = shortest(topicStartWindow, (delivery.group() != null) ? groupStartWindow : null);
				if (startWindow != null) {
					execution.mustStartBy(sentAt + startWindow.toNanos());
				}
				admitted.add(execution);
			}
			else {
				refused.add(execution);
			}
		}
		// Last first: each goes back in front of those handed back before it, so
		// that they keep their order.
		for (int i = refused.size() - 1; i >= 0; i--) {
			refused.get(i).handBack();
		}
		if (admission.refusedByTopic()) {
			Duration wait = admission.retryAfter();
			if (wait == null) {
				this.waitingForPermits.add(topic);
			}
			this.pauses.holdBack(topic, (wait != null) ? wait : CONCURRENCY_RECHECK);
		}
		admission.groupWaits()
			.forEach((group, wait) -> this.groupHolds.hold(topic, group, (wait != null) ? wait : CONCURRENCY_RECHECK,
					wait == null));
		return admitted;
	}

	/**
	 * Return how long after its admission a rate-limited job may still start: a job that
	 * has not started by then (its worker was busy longer than the claim ahead foresaw)
	 * goes back to READY instead. Each admission counts for a period plus this window, so
	 * that it counts for at least a whole period after its handler starts, and no window
	 * of one period holds more starts than the limit, measured at the handlers, whatever
	 * a start lagged behind its admission. A twentieth of the period, at most
	 * {@link #MAX_START_WINDOW}: the limit admits that much less than its full rate while
	 * it is the bound. The admission's round trip to Redis comes on top, see
	 * {@link RecentRoundTrips}.
	 * @param period the rate limit's period
	 * @return the window, at least a millisecond
	 */
	static Duration startWindow(Duration period) {
		Duration share = period.dividedBy(20);
		return (share.compareTo(MAX_START_WINDOW) > 0) ? MAX_START_WINDOW : max(share, Duration.ofMillis(1));
	}

	private static Duration max(Duration a, Duration b) {
		return (a.compareTo(b) >= 0) ? a : b;
	}

	private static Duration counted(Duration period, @Nullable Duration startWindow) {
		return (startWindow != null) ? period.plus(startWindow) : period;
	}

	private static @Nullable Duration shortest(@Nullable Duration a, @Nullable Duration b) {
		if (a == null || b == null) {
			return (a != null) ? a : b;
		}
		return (a.compareTo(b) <= 0) ? a : b;
	}

	private void release(String topic, @Nullable String group, String member) {
		this.limiter.release(topic, group, List.of(member));
		boolean topicFree = this.waitingForPermits.remove(topic);
		boolean groupFree = group != null && this.groupHolds.permitBack(topic, group);
		if (topicFree) {
			this.pauses.endHold(topic);
			this.wakeWaiters.run();
		}
		if (groupFree) {
			this.lookAgain.run();
		}
	}

	/**
	 * The round trips of one gate's admissions, from the call to its reply: a
	 * rate-limited job may start no later than its admission's window after the call was
	 * sent, so the window must hold the reply's wait as well as the wait for a worker.
	 * Twice the longest recent round trip (of admissions, and of the claims before them),
	 * which fades by an eighth at each one, so that one slow reply widens the next
	 * windows for a while and a Redis that stays slow (far away, or busy) widens all of
	 * them; against a near Redis it adds next to nothing.
	 */
	static final class RecentRoundTrips {

		private long longestNanos;

		void took(long nanos) {
			this.longestNanos = Math.max(nanos, this.longestNanos - this.longestNanos / 8);
		}

		Duration allowance() {
			return Duration.ofNanos(2 * this.longestNanos);
		}

	}

}
