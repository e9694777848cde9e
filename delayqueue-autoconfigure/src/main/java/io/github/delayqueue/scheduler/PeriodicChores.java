package io.github.delayqueue.scheduler;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.github.delayqueue.core.TopicPolicies;
import io.github.delayqueue.store.JobStore;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The scheduler's work that runs on timers of its own rather than on a topic's due time:
 * finding topics that only other instances send to, publishing heartbeats and noticing
 * when they go unanswered, handing orphaned claims back, and purging old dead jobs.
 *
 * @author delayqueue contributors
 */
final class PeriodicChores {

	// The scheduler's category, which applications already set levels for.
	private static final Log logger = LogFactory.getLog(DelayedJobScheduler.class);

	private static final long DEAD_PURGE_CHECK_NANOS = TimeUnit.MINUTES.toNanos(1);

	private final HousekeepingStore store;

	private final WakeUpChannelHealth health;

	private final SweepCap cap;

	private final TopicWakeUps wakeUps;

	private final OrphanedClaims orphanedClaims;

	private final DeadJobRetention deadJobs;

	private final long maxSleepNanos;

	private final Runnable sweepEveryTopic;

	private long orphanCheckNanos = TimeUnit.SECONDS.toNanos(30);

	private volatile long nextTopicRefresh;

	private long nextOrphanCheck;

	private long nextDeadPurge;

	/**
	 * Create the chores of a scheduler.
	 * @param store the Redis side
	 * @param jobStore purges old dead jobs
	 * @param policies the topics' policies
	 * @param health whether wake-up and claim messages arrive
	 * @param cap how long a topic may go unswept
	 * @param wakeUps the topics and when each is next swept
	 * @param maxSleepNanos the scheduler's {@code max-sleep}
	 * @param sweepEveryTopic what the scheduler does once messages may have been missed;
	 * run when heartbeats go unanswered
	 */
	PeriodicChores(HousekeepingStore store, JobStore jobStore, TopicPolicies policies, WakeUpChannelHealth health,
			SweepCap cap, TopicWakeUps wakeUps, long maxSleepNanos, Runnable sweepEveryTopic) {
		this.store = store;
		this.orphanedClaims = new OrphanedClaims(store);
		this.deadJobs = new DeadJobRetention(jobStore, policies);
		this.health = health;
		this.cap = cap;
		this.wakeUps = wakeUps;
		this.maxSleepNanos = maxSleepNanos;
		this.sweepEveryTopic = sweepEveryTopic;
	}

	void setOrphanCheckInterval(long nanos) {
		this.orphanCheckNanos = nanos;
	}

	/**
	 * The scheduler starts: topics are looked for and dead jobs purged at once, orphans
	 * only after a whole interval, since an id is orphaned only once seen twice.
	 * @param now the current time
	 */
	void start(long now) {
		this.nextTopicRefresh = now;
		this.nextOrphanCheck = now + this.orphanCheckNanos;
		this.nextDeadPurge = now;
	}

	void refreshTopicsAt(long at) {
		this.nextTopicRefresh = at;
	}

	void refreshTopicsNoLaterThan(long at) {
		this.nextTopicRefresh = earlier(this.nextTopicRefresh, at);
	}

	/**
	 * Return when the scheduler must wake at the latest for a chore: looking for topics,
	 * checking for orphans, or a heartbeat. Dead jobs are purged on whichever wake-up
	 * comes after their turn.
	 * @return the time
	 */
	long nextDue() {
		return this.health.nextCheck(earlier(this.nextTopicRefresh, this.nextOrphanCheck));
	}

	void checkWakeUpChannel(long now) {
		if (this.health.turnedSilent(now)) {
			logger.warn("Wake-up messages stopped arriving although subscribed; checking every topic every "
					+ Duration.ofNanos(this.maxSleepNanos) + " until they arrive again");
			this.sweepEveryTopic.run();
		}
		if (this.health.isHeartbeatDue(now)) {
			this.health.heartbeatSent(now);
			try {
				this.store.publishHeartbeat();
			}
			catch (RuntimeException ex) {
				this.health.heartbeatFailed();
				throw ex;
			}
		}
	}

	void refreshTopicsIfDue(long now) {
		if (now - this.nextTopicRefresh >= 0) {
			// Finds the topics that only other instances send to.
			this.store.queues().forEach((queue) -> this.wakeUps.track(queue, now));
			this.nextTopicRefresh = now + this.cap.ofUnwatched(now);
		}
	}

	void requeueOrphansIfDue(long now) {
		if (now - this.nextOrphanCheck >= 0) {
			for (String topic : this.wakeUps.topics()) {
				long requeued = this.orphanedClaims.check(topic);
				if (requeued > 0) {
					logger.info("Returned " + requeued + " orphaned claim(s) of topic '" + topic + "' to READY");
				}
			}
			this.nextOrphanCheck = now + this.orphanCheckNanos;
		}
	}

	void purgeDeadJobsIfDue(long now) {
		if (now - this.nextDeadPurge >= 0) {
			this.deadJobs.purgeDue(this.wakeUps.topics(), now);
			this.nextDeadPurge = now + DEAD_PURGE_CHECK_NANOS;
		}
	}

	private static long earlier(long a, long b) {
		return (a - b < 0) ? a : b;
	}

}
