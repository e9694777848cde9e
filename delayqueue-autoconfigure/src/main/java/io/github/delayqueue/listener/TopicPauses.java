package io.github.delayqueue.listener;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

import io.github.delayqueue.internal.store.DelayQueueKeys;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * What one container knows of its queues' pauses. A queue that a claim found paused is
 * skipped for a second: the claim script, not this class, decides whether a queue is
 * paused, so that no job is claimed once a pause is set; this only keeps the container
 * from asking again at once. A resume is therefore noticed within about a second, by
 * every instance, with no message that could be lost.
 * <p>
 * Jobs claimed ahead of the free workers wait a while before they start, and a pause may
 * come meanwhile. A job starts only while a look at its queue's pause mark (a claim, or a
 * check of the mark itself) began less than {@link #START_WINDOW} ago; otherwise the mark
 * is read first, and a job of a paused queue is not started. So no job starts later than
 * that window after a pause returned, on any instance, and a container that claims
 * steadily, as it does while it drains a backlog, never reads the mark on its own.
 * <p>
 * A topic's limits across instances hold it back too (see {@link TopicLimitGate}): for
 * exactly as long as they say no more of its jobs may start. Such a hold keeps the
 * container from claiming, but never stops a job that was admitted from starting.
 *
 * @author delayqueue contributors
 */
final class TopicPauses {

	/**
	 * How long a queue found paused is left alone before a claim asks again.
	 */
	static final Duration RECHECK = Duration.ofSeconds(1);

	/**
	 * How recent a look at a queue's pause mark must be for a job of it to start without
	 * another.
	 */
	static final Duration START_WINDOW = Duration.ofMillis(20);

	private static final Log logger = LogFactory.getLog(TopicPauses.class);

	private final Map<String, Long> skipUntil = new ConcurrentHashMap<>();

	private final Map<String, Long> seenUnpaused = new ConcurrentHashMap<>();

	// By topic, not queue: a topic's limits hold for all its partitions.
	private final Map<String, Long> heldUntil = new ConcurrentHashMap<>();

	private final LongSupplier nanoClock;

	private final Predicate<String> pausedInRedis;

	/**
	 * Create the pauses of a container.
	 * @param nanoClock the current time, on the {@link System#nanoTime()} scale
	 * @param pausedInRedis reads a queue's pause mark
	 */
	TopicPauses(LongSupplier nanoClock, Predicate<String> pausedInRedis) {
		this.nanoClock = nanoClock;
		this.pausedInRedis = pausedInRedis;
	}

	/**
	 * A claim found the queue paused.
	 * @param queue the queue
	 */
	void foundPaused(String queue) {
		this.skipUntil.put(queue, this.nanoClock.getAsLong() + RECHECK.toNanos());
	}

	/**
	 * A claim sent at a time found the queue not paused.
	 * @param queue the queue
	 * @param sentAt when the claim was sent, on the {@link System#nanoTime()} scale
	 */
	void foundUnpaused(String queue, long sentAt) {
		this.seenUnpaused.merge(queue, sentAt, (a, b) -> (a - b < 0) ? b : a);
	}

	/**
	 * A topic's limits admit no more of its jobs for a while: leave all its queues alone
	 * until then. A shorter hold never cuts a longer one short.
	 * @param topic the topic
	 * @param duration how long
	 */
	void holdBack(String topic, Duration duration) {
		long until = this.nanoClock.getAsLong() + duration.toNanos();
		this.heldUntil.merge(topic, until, (a, b) -> (a - b < 0) ? b : a);
	}

	/**
	 * A topic's limits admit its jobs again (a permit came back): end its hold now.
	 * @param topic the topic
	 */
	void endHold(String topic) {
		this.heldUntil.remove(topic);
	}

	/**
	 * Return how long a queue is still to be left alone, paused or held back.
	 * @param queue the queue
	 * @return the time left, zero when the queue may be claimed from
	 */
	Duration remaining(String queue) {
		long paused = left(this.skipUntil, queue);
		long held = this.heldUntil.isEmpty() ? 0 : left(this.heldUntil, DelayQueueKeys.topicOf(queue));
		return Duration.ofNanos(Math.max(paused, held));
	}

	private long left(Map<String, Long> untils, String key) {
		Long until = untils.get(key);
		if (until == null) {
			return 0;
		}
		long left = until - this.nanoClock.getAsLong();
		if (left <= 0) {
			untils.remove(key, until);
			return 0;
		}
		return left;
	}

	/**
	 * Tell whether a queue is to be left alone now.
	 * @param queue the queue
	 * @return {@code true} while a recent claim found it paused
	 */
	boolean skips(String queue) {
		return !remaining(queue).isZero();
	}

	/**
	 * Tell whether a claimed job of a queue may start now, reading the queue's pause mark
	 * unless a look at it began within {@link #START_WINDOW}. Should the read fail, the
	 * job starts: its claim found the queue not paused, and Redis is then unreachable for
	 * handing it back as well.
	 * @param queue the queue
	 * @return {@code false} if the queue is paused
	 */
	boolean allowsStart(String queue) {
		if (left(this.skipUntil, queue) > 0) {
			return false;
		}
		long now = this.nanoClock.getAsLong();
		Long seen = this.seenUnpaused.get(queue);
		if (seen != null && now - seen <= START_WINDOW.toNanos()) {
			return true;
		}
		try {
			if (this.pausedInRedis.test(queue)) {
				foundPaused(queue);
				return false;
			}
			foundUnpaused(queue, now);
		}
		catch (RuntimeException ex) {
			logger.debug("Could not read whether queue '" + queue + "' is paused; starting its job", ex);
		}
		return true;
	}

	/**
	 * Forget the queues no longer consumed.
	 * @param queues the queues still consumed
	 */
	void retain(Collection<String> queues) {
		this.skipUntil.keySet().retainAll(queues);
		this.seenUnpaused.keySet().retainAll(queues);
	}

}
