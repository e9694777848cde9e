package io.github.delayqueue.scheduler;

import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import io.github.delayqueue.support.TopicPolicies;
import io.github.delayqueue.store.DelayQueueKeys;
import io.github.delayqueue.store.JobStore;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The scheduler's work that runs on timers of its own rather than on a topic's due time:
 * finding topics that only other instances send to (and forgetting partitions that left
 * their topic), publishing heartbeats and noticing when they go unanswered, handing
 * orphaned claims back, retiring drained partitions that the configuration no longer has,
 * purging old dead jobs, trimming the kept finished jobs that a topic's retention or
 * count cap no longer keeps, and taking the ids whose list or job is gone out of the
 * timeline's list sets.
 *
 * @author delayqueue contributors
 */
final class PeriodicChores {

	// The scheduler's category, which applications already set levels for.
	private static final Log logger = LogFactory.getLog(DelayedJobScheduler.class);

	private static final long DEAD_PURGE_CHECK_NANOS = TimeUnit.MINUTES.toNanos(1);

	/**
	 * How often the kept finished jobs and the timeline list sets of every topic are
	 * trimmed: the calls that finish jobs trim as they go, a bounded number each, so this
	 * only finishes what they left.
	 */
	static final long KEPT_TRIM_NANOS = TimeUnit.MINUTES.toNanos(1);

	/**
	 * The most script calls per queue of one trim of kept jobs, each of which drops a
	 * bounded number of them: what is left waits for the next turn.
	 */
	static final int KEPT_TRIM_MAX_CALLS = 100;

	/**
	 * The most script calls per queue of one walk through a timeline list set, each of
	 * which looks at a bounded number of ids.
	 */
	static final int TIMELINE_TRIM_MAX_CALLS = 1000;

	/**
	 * How often drained partitions that the configuration no longer has are retired
	 * unless told otherwise: seldom, since during a rolling change of the number of
	 * partitions instances still on the old number put them back at once.
	 */
	static final long DEFAULT_PARTITION_RETIREMENT_NANOS = TimeUnit.HOURS.toNanos(1);

	private final HousekeepingStore store;

	private final WakeUpChannelHealth health;

	private final SweepCap cap;

	private final TopicWakeUps wakeUps;

	private final OrphanedClaims orphanedClaims;

	private final DeadJobRetention deadJobs;

	private final JobStore jobStore;

	private final long maxSleepNanos;

	private final Runnable sweepEveryTopic;

	private long orphanCheckNanos = TimeUnit.SECONDS.toNanos(30);

	private long partitionRetirementNanos = DEFAULT_PARTITION_RETIREMENT_NANOS;

	private long nextPartitionRetirement;

	private volatile long nextTopicRefresh;

	private long nextOrphanCheck;

	private long nextDeadPurge;

	private long nextKeptTrim;

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
		this.jobStore = jobStore;
		this.health = health;
		this.cap = cap;
		this.wakeUps = wakeUps;
		this.maxSleepNanos = maxSleepNanos;
		this.sweepEveryTopic = sweepEveryTopic;
	}

	void setOrphanCheckInterval(long nanos) {
		this.orphanCheckNanos = nanos;
	}

	void setPartitionRetirementInterval(long nanos) {
		this.partitionRetirementNanos = nanos;
	}

	/**
	 * The scheduler starts: topics are looked for and dead jobs purged at once, orphans
	 * only after a whole interval, since an id is orphaned only once seen twice, and
	 * partitions retired only after a whole interval, since an instance that starts may
	 * well be one of a rolling deployment.
	 * @param now the current time
	 */
	void start(long now) {
		this.nextTopicRefresh = now;
		this.nextOrphanCheck = now + this.orphanCheckNanos;
		this.nextDeadPurge = now;
		this.nextKeptTrim = now;
		this.nextPartitionRetirement = now + this.partitionRetirementNanos;
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
			// Finds the topics that only other instances send to, and the partitions
			// that left their topic (retired by another instance).
			List<String> queues = this.store.queues();
			queues.forEach((queue) -> this.wakeUps.track(queue, now));
			Set<String> listed = new HashSet<>(queues);
			for (String tracked : this.wakeUps.topics()) {
				if (!listed.contains(tracked) && !tracked.equals(DelayQueueKeys.topicOf(tracked))
						&& !this.store.isWrittenHere(tracked)) {
					forget(tracked);
				}
			}
			this.nextTopicRefresh = now + this.cap.ofUnwatched(now);
		}
	}

	void retirePartitionsIfDue(long now) {
		if (now - this.nextPartitionRetirement >= 0) {
			List<String> retired = this.store.retireDrainedPartitions();
			if (!retired.isEmpty()) {
				logger.info("Retired " + retired.size() + " drained partition(s) that the configuration no longer has: "
						+ retired);
				retired.forEach(this::forget);
			}
			this.nextPartitionRetirement = now + this.partitionRetirementNanos;
		}
	}

	private void forget(String queue) {
		this.wakeUps.forget(queue);
		this.orphanedClaims.forget(queue);
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

	/**
	 * Drop, when its turn has come, what each topic keeps of its finished jobs beyond its
	 * retention or count cap, see {@link JobStore#trimKept(String, int)}, and the ids
	 * whose list or job is gone from its timeline list sets, see
	 * {@link JobStore#trimTimelineLists(String, int)}.
	 * @param now the current time
	 */
	void trimKeptJobsIfDue(long now) {
		if (now - this.nextKeptTrim >= 0) {
			// The store trims every partition of a topic.
			Set<String> topics = new LinkedHashSet<>();
			this.wakeUps.topics().forEach((queue) -> topics.add(DelayQueueKeys.topicOf(queue)));
			for (String topic : topics) {
				this.jobStore.trimKept(topic, KEPT_TRIM_MAX_CALLS);
				this.jobStore.trimTimelineLists(topic, TIMELINE_TRIM_MAX_CALLS);
			}
			this.nextKeptTrim = now + KEPT_TRIM_NANOS;
		}
	}

	private static long earlier(long a, long b) {
		return (a - b < 0) ? a : b;
	}

}
