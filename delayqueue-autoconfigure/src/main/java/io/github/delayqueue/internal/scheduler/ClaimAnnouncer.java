package io.github.delayqueue.internal.scheduler;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.github.delayqueue.internal.support.DueTimeListener;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Hears the time-to-run deadlines and retry due times that a listener container sets, and
 * makes sure every scheduler learns of them in time: the one on this instance at once,
 * and those of all instances through the claim channel, at most once per interval per
 * queue. Only the queue that holds the delivery is named, so that a partitioned topic's
 * other partitions are not swept for it. Nothing else tells a scheduler of a claim made
 * elsewhere, so without this a scheduler sleeping long would find a delivery claimed by
 * an instance that then died, or that runs no scheduler, only at its next safety-net
 * sweep, possibly after the delivery's deadline.
 *
 * @author delayqueue contributors
 */
public class ClaimAnnouncer implements DueTimeListener {

	private static final Log logger = LogFactory.getLog(ClaimAnnouncer.class);

	private final StringRedisTemplate redis;

	private final String channel;

	private final long intervalNanos;

	private final @Nullable DelayedJobScheduler scheduler;

	private final Map<String, Long> announcedAt = new ConcurrentHashMap<>();

	/**
	 * Create an announcer.
	 * @param redis publishes the announcements
	 * @param channel the claim channel
	 * @param interval the shortest time between two announcements of a topic; the
	 * schedulers' {@code max-sleep}, which they watch a claimed topic for twice
	 * @param scheduler the scheduler of this instance, or {@code null} if it runs none
	 */
	public ClaimAnnouncer(StringRedisTemplate redis, String channel, Duration interval,
			@Nullable DelayedJobScheduler scheduler) {
		this.redis = redis;
		this.channel = channel;
		this.intervalNanos = interval.toNanos();
		this.scheduler = scheduler;
	}

	/**
	 * A deadline or retry was set in a queue. The listener containers name the queue the
	 * delivery was claimed from here too: a topic's own, or one partition's.
	 * @param queue the queue
	 * @param dueAtMillis the deadline or due time, by the Redis clock
	 */
	@Override
	public void jobScheduled(String queue, long dueAtMillis) {
		jobScheduledInQueue(queue, dueAtMillis);
	}

	/**
	 * A deadline or retry was set in a queue: this instance's scheduler sweeps and
	 * watches that queue only, and other instances hear of it on the claim channel.
	 * @param queue the queue
	 * @param dueAtMillis the deadline or due time, by the Redis clock
	 */
	@Override
	public void jobScheduledInQueue(String queue, long dueAtMillis) {
		DelayedJobScheduler local = this.scheduler;
		if (local != null) {
			local.jobScheduledInQueue(queue, dueAtMillis);
			local.jobsClaimed(queue);
		}
		announce(queue);
	}

	private void announce(String queue) {
		// Taken before publishing, so that the next announcement comes no later than an
		// interval after the schedulers heard this one.
		long now = System.nanoTime();
		Long last = this.announcedAt.get(queue);
		if (last != null && now - last < this.intervalNanos) {
			return;
		}
		this.announcedAt.put(queue, now);
		try {
			this.redis.convertAndSend(this.channel, queue);
		}
		catch (RuntimeException ex) {
			// The claim succeeded and its jobs must run: a failed announcement only
			// leaves other schedulers to their safety net. The next claim tries again.
			this.announcedAt.remove(queue, now);
			logger.debug("Could not announce claims of queue '" + queue + "'", ex);
		}
	}

}
