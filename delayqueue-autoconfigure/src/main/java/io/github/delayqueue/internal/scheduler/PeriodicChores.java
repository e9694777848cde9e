package io.github.delayqueue.internal.scheduler;

import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import io.github.delayqueue.internal.store.DelayQueueKeys;
import io.github.delayqueue.internal.store.JobStore;
import io.github.delayqueue.internal.store.PartitionRegistry;
import io.github.delayqueue.internal.support.TopicPolicies;
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
	 * unless told otherwise, once none is left: seldom, since only another instance with
	 * more partitions brings new ones, and during a rolling change of the number of
	 * partitions instances still on the old number put them back at once.
	 */
	static final long DEFAULT_PARTITION_RETIREMENT_NANOS = TimeUnit.HOURS.toNanos(1);

	/**
	 * How soon retiring is tried again while partitions that the configuration no longer
	 * has are left, holding jobs: each keeps a waiter of every listener until it is
	 * retired, so it goes soon after it drains rather than at the next hourly look.
	 */
	static final long DEFAULT_PARTITION_RETIREMENT_RETRY_NANOS = TimeUnit.MINUTES.toNanos(1);

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

	private long partitionRetirementRetryNanos = DEFAULT_PARTITION_RETIREMENT_RETRY_NANOS;

	private long nextPartitionRetirement;

	// Whether the last retirement left partitions that the configuration no longer has.
	private boolean partitionsLeft;

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

	void setPartitionRetirementRetryInterval(long nanos) {
		this.partitionRetirementRetryNanos = nanos;
	}

	/**
	 * The scheduler starts: topics are looked for, dead jobs purged and drained
	 * partitions that the configuration no longer has retired at once, orphans only after
	 * a whole interval, since an id is orphaned only once seen twice. The configuration
	 * is bound at start, so a lowered number of partitions takes effect now; should this
	 * instance be one of a rolling deployment, those still on the old number put back a
	 * partition before they write to it.
	 * @param now the current time
	 */
	void start(long now) {
		this.nextTopicRefresh = now;
		this.nextOrphanCheck = now + this.orphanCheckNanos;
		this.nextDeadPurge = now;
		this.nextKeptTrim = now;
		this.nextPartitionRetirement = now;
		this.partitionsLeft = false;
	}

	void refreshTopicsAt(long at) {
		this.nextTopicRefresh = at;
	}

	void refreshTopicsNoLaterThan(long at) {
		this.nextTopicRefresh = earlier(this.nextTopicRefresh, at);
	}

	/**
	 * Return when the scheduler must wake at the latest for a chore: looking for topics,
	 * checking for orphans, a heartbeat, or retiring partitions again while some are
	 * left. Dead jobs are purged, and partitions retired when none was left, on whichever
	 * wake-up comes after their turn.
	 * @return the time
	 */
	long nextDue() {
		long next = earlier(this.nextTopicRefresh, this.nextOrphanCheck);
		if (this.partitionsLeft) {
			next = earlier(next, this.nextPartitionRetirement);
		}
		return this.health.nextCheck(next);
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

	/**
	 * Retire, when its turn has come, the drained partitions that the configuration no
	 * longer has, and stop sweeping them; while some that it no longer has are left, try
	 * again after the short retry interval rather than the usual one.
	 * @param now the current time
	 * @return the queues retired, for the listeners to stop waiting on
	 */
	List<String> retirePartitionsIfDue(long now) {
		if (now - this.nextPartitionRetirement < 0) {
			return List.of();
		}
		PartitionRegistry.Retirement retirement = this.store.retireDrainedPartitions();
		List<String> retired = retirement.retired();
		if (!retired.isEmpty()) {
			logger.info("Retired " + retired.size() + " drained partition(s) that the configuration no longer has: "
					+ retired);
			retired.forEach(this::forget);
		}
		if (retirement.left() > 0 && !this.partitionsLeft) {
			logger.info(retirement.left() + " partition(s) that the configuration no longer has still hold jobs;"
					+ " retiring them once drained, looking every "
					+ Duration.ofNanos(this.partitionRetirementRetryNanos));
		}
		this.partitionsLeft = retirement.left() > 0;
		this.nextPartitionRetirement = now
				+ (this.partitionsLeft ? this.partitionRetirementRetryNanos : this.partitionRetirementNanos);
		return retired;
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
