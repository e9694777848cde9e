package io.github.delayqueue.listener;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The topics of one container that a claim found paused, each skipped for a second: the
 * claim script, not this class, decides whether a topic is paused, so that no job is
 * claimed once a pause is set; this only keeps the container from asking again at once. A
 * resume is therefore noticed within about a second, by every instance, with no message
 * that could be lost.
 *
 * @author delayqueue contributors
 */
final class TopicPauses {

	/**
	 * How long a topic found paused is left alone before a claim asks again.
	 */
	static final Duration RECHECK = Duration.ofSeconds(1);

	private final Map<String, Long> skipUntil = new ConcurrentHashMap<>();

	private final LongSupplier nanoClock;

	TopicPauses(LongSupplier nanoClock) {
		this.nanoClock = nanoClock;
	}

	/**
	 * A claim found the topic paused.
	 * @param topic the topic
	 */
	void foundPaused(String topic) {
		this.skipUntil.put(topic, this.nanoClock.getAsLong() + RECHECK.toNanos());
	}

	/**
	 * Return how long a topic is still to be left alone.
	 * @param topic the topic
	 * @return the time left, zero when the topic may be claimed from
	 */
	Duration remaining(String topic) {
		Long until = this.skipUntil.get(topic);
		if (until == null) {
			return Duration.ZERO;
		}
		long left = until - this.nanoClock.getAsLong();
		if (left <= 0) {
			this.skipUntil.remove(topic, until);
			return Duration.ZERO;
		}
		return Duration.ofNanos(left);
	}

	/**
	 * Tell whether a topic is to be left alone now.
	 * @param topic the topic
	 * @return {@code true} while a recent claim found it paused
	 */
	boolean skips(String topic) {
		return !remaining(topic).isZero();
	}

}
