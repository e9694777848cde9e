package io.github.delayqueue.scheduler;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.github.delayqueue.core.DueTimeListener;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Hears the time-to-run deadlines and retry due times that a listener container sets, and
 * makes sure every scheduler learns of them in time: the one on this instance at once,
 * and those of all instances through the claim channel, at most once per interval per
 * topic. Nothing else tells a scheduler of a claim made elsewhere, so without this a
 * scheduler sleeping long would find a delivery claimed by an instance that then died, or
 * that runs no scheduler, only at its next safety-net sweep, possibly after the
 * delivery's deadline.
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

	@Override
	public void jobScheduled(String topic, long dueAtMillis) {
		DelayedJobScheduler local = this.scheduler;
		if (local != null) {
			local.jobScheduled(topic, dueAtMillis);
			local.jobsClaimed(topic);
		}
		announce(topic);
	}

	private void announce(String topic) {
		// Taken before publishing, so that the next announcement comes no later than an
		// interval after the schedulers heard this one.
		long now = System.nanoTime();
		Long last = this.announcedAt.get(topic);
		if (last != null && now - last < this.intervalNanos) {
			return;
		}
		this.announcedAt.put(topic, now);
		try {
			this.redis.convertAndSend(this.channel, topic);
		}
		catch (RuntimeException ex) {
			// The claim succeeded and its jobs must run: a failed announcement only
			// leaves other schedulers to their safety net. The next claim tries again.
			this.announcedAt.remove(topic, now);
			logger.debug("Could not announce claims of topic '" + topic + "'", ex);
		}
	}

}
