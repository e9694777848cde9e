package io.github.delayqueue.internal.scheduler;

import java.time.Clock;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import io.github.delayqueue.internal.store.DelayQueueKeys;
import io.github.delayqueue.internal.support.ExpiredDeadJobsListener;
import io.github.delayqueue.internal.support.JobEventListener;
import io.github.delayqueue.internal.support.JobEventListeners;
import io.github.delayqueue.internal.support.TopicPolicies;
import io.github.delayqueue.internal.support.TopicPolicy;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Sweeps one queue (a topic, or a partition of one), reports what the sweep found
 * expired, dead or vanished, and decides from the reply when the topic is next to be
 * swept.
 *
 * @author delayqueue contributors
 */
final class TopicSweeper {

	// The scheduler's category, which applications already set levels for.
	private static final Log logger = LogFactory.getLog(DelayedJobScheduler.class);

	private final HousekeepingStore store;

	private final TopicPolicies policies;

	private final int batchSize;

	private final SweepCap cap;

	private final TopicWakeUps wakeUps;

	private final LongSupplier nanoClock;

	private JobEventListener eventListener = JobEventListeners.none();

	private ExpiredDeadJobsListener expiredDeadJobsListener = (queue, ids) -> {
	};

	private Clock clock = Clock.systemUTC();

	private volatile long redisOffsetMillis;

	// Read by tests, which count how many queues a send makes the scheduler sweep.
	private final AtomicLong sweeps = new AtomicLong();

	TopicSweeper(HousekeepingStore store, TopicPolicies policies, int batchSize, SweepCap cap, TopicWakeUps wakeUps,
			LongSupplier nanoClock) {
		this.store = store;
		this.nanoClock = nanoClock;
		this.policies = policies;
		this.batchSize = batchSize;
		this.cap = cap;
		this.wakeUps = wakeUps;
	}

	void setEventListener(JobEventListener eventListener) {
		this.eventListener = eventListener;
	}

	void setExpiredDeadJobsListener(ExpiredDeadJobsListener listener) {
		this.expiredDeadJobsListener = listener;
	}

	void setClock(Clock clock) {
		this.clock = clock;
	}

	/**
	 * Return how long until a time on the Redis clock, by this instance's clock and the
	 * offset between the two that the last sweep saw.
	 * @param redisMillis the time on the Redis clock
	 * @return the milliseconds until then, negative if it passed
	 */
	long millisUntil(long redisMillis) {
		return redisMillis - (this.clock.millis() + this.redisOffsetMillis);
	}

	void sweep(String queue) {
		String topic = DelayQueueKeys.topicOf(queue);
		TopicPolicy policy = this.policies.forTopic(topic);
		this.wakeUps.sweepStarting(queue);
		this.sweeps.incrementAndGet();
		long sentAt = this.nanoClock.getAsLong();
		HousekeepingStore.TopicSweep sweep = this.store.sweep(queue, this.batchSize, policy.maxAttempts(),
				policy.history());
		long receivedAt = this.nanoClock.getAsLong();
		if (sweep.redisNow() >= 0) {
			this.redisOffsetMillis = sweep.redisNow() - this.clock.millis();
		}
		report(topic, sweep);
		if (!sweep.deadIds().isEmpty()) {
			this.expiredDeadJobsListener.jobsDied(queue, sweep.deadIds());
		}
		long maxSleep = this.cap.of(queue, receivedAt);
		this.wakeUps.sweepFinished(queue, nextSweep(sweep, this.batchSize, sentAt, receivedAt, maxSleep));
	}

	long sweeps() {
		return this.sweeps.get();
	}

	/**
	 * Decide from a sweep's reply when its topic is next to be swept.
	 * @param sweep the reply
	 * @param batchSize most jobs one sweep moves
	 * @param sentAt when the sweep was sent, on the {@link System#nanoTime()} scale
	 * @param receivedAt when its reply arrived
	 * @param maxSleep the topic's cap
	 * @return the time of the next sweep: at once after a full batch, since a backlog
	 * waits (the other due topics have their turn first); otherwise at the topic's next
	 * event or after the cap, whichever comes first, both counted from the sending, which
	 * precedes Redis reading its clock, so that the sweep comes early rather than late
	 */
	static long nextSweep(HousekeepingStore.TopicSweep sweep, int batchSize, long sentAt, long receivedAt,
			long maxSleep) {
		if (sweep.promoted() >= batchSize || sweep.requeued() + sweep.dead() + sweep.vanished() >= batchSize) {
			return receivedAt;
		}
		if (sweep.nextEvent() < 0) {
			return receivedAt + maxSleep;
		}
		return sentAt + Math.min(sweep.nanosUntilNextEvent(), maxSleep);
	}

	private void report(String topic, HousekeepingStore.TopicSweep sweep) {
		int expired = sweep.requeued() + sweep.dead();
		if (expired > 0) {
			this.eventListener.jobsExpired(topic, expired);
		}
		if (sweep.dead() > 0) {
			this.eventListener.jobsDead(topic, sweep.dead());
		}
		if (sweep.vanished() > 0) {
			logger.warn("Dropped " + sweep.vanished() + " running job id(s) of topic '" + topic
					+ "' whose job data had vanished from Redis");
		}
	}

}
