package io.github.delayqueue.scheduler;

import java.time.Clock;

import io.github.delayqueue.core.JobEventListener;
import io.github.delayqueue.core.JobEventListeners;
import io.github.delayqueue.core.TopicPolicies;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Sweeps one topic, reports what the sweep found expired, dead or vanished, and decides
 * from the reply when the topic is next to be swept.
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

	private JobEventListener eventListener = JobEventListeners.none();

	private Clock clock = Clock.systemUTC();

	private volatile long redisOffsetMillis;

	TopicSweeper(HousekeepingStore store, TopicPolicies policies, int batchSize, SweepCap cap, TopicWakeUps wakeUps) {
		this.store = store;
		this.policies = policies;
		this.batchSize = batchSize;
		this.cap = cap;
		this.wakeUps = wakeUps;
	}

	void setEventListener(JobEventListener eventListener) {
		this.eventListener = eventListener;
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

	void sweep(String topic) {
		int maxAttempts = this.policies.forTopic(topic).maxAttempts();
		this.wakeUps.sweepStarting(topic);
		long sentAt = System.nanoTime();
		HousekeepingStore.TopicSweep sweep = this.store.sweep(topic, this.batchSize, maxAttempts);
		long receivedAt = System.nanoTime();
		if (sweep.redisNow() >= 0) {
			this.redisOffsetMillis = sweep.redisNow() - this.clock.millis();
		}
		report(topic, sweep);
		long maxSleep = this.cap.of(topic, receivedAt);
		long next;
		if (sweep.promoted() >= this.batchSize
				|| sweep.requeued() + sweep.dead() + sweep.vanished() >= this.batchSize) {
			next = receivedAt; // a backlog: go again after the other due topics had their
								// turn
		}
		else if (sweep.nextEvent() < 0) {
			next = receivedAt + maxSleep;
		}
		else {
			next = sentAt + Math.min(sweep.nanosUntilNextEvent(), maxSleep);
		}
		this.wakeUps.sweepFinished(topic, next);
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
