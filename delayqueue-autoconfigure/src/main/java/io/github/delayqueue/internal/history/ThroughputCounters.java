package io.github.delayqueue.internal.history;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import io.github.delayqueue.internal.support.JobEventListener;

/**
 * Counts what happens to jobs on this instance, per topic, until the counts are taken and
 * written to Redis: an event costs an in-memory increment, never a Redis call.
 *
 * @author delayqueue contributors
 */
public class ThroughputCounters implements JobEventListener {

	private final Map<String, TopicCounters> topics = new ConcurrentHashMap<>();

	@Override
	public void jobCompleted(String topic, Duration runTime) {
		counters(topic).add(Outcome.COMPLETED, 1);
	}

	@Override
	public void jobFailed(String topic, Duration runTime, Throwable failure) {
		counters(topic).add(Outcome.FAILED, 1);
	}

	@Override
	public void jobRetried(String topic) {
		counters(topic).add(Outcome.RETRIED, 1);
	}

	@Override
	public void jobsDead(String topic, int count) {
		counters(topic).add(Outcome.DEAD, count);
	}

	/**
	 * Take the counts made since the last time, leaving zeros.
	 * @return per topic, the counts by outcome; topics with nothing to report are left
	 * out
	 */
	public Map<String, Map<Outcome, Long>> take() {
		Map<String, Map<Outcome, Long>> taken = new LinkedHashMap<>();
		this.topics.forEach((topic, counters) -> {
			Map<Outcome, Long> counts = counters.take();
			if (!counts.isEmpty()) {
				taken.put(topic, counts);
			}
		});
		return taken;
	}

	/**
	 * Put counts back that could not be written, so that a failed flush loses nothing.
	 * @param counts the counts per topic and outcome
	 */
	public void restore(Map<String, Map<Outcome, Long>> counts) {
		counts
			.forEach((topic, byOutcome) -> byOutcome.forEach((outcome, count) -> counters(topic).add(outcome, count)));
	}

	private TopicCounters counters(String topic) {
		return this.topics.computeIfAbsent(topic, (key) -> new TopicCounters());
	}

	private static final class TopicCounters {

		private final LongAdder[] counts = new LongAdder[Outcome.values().length];

		TopicCounters() {
			for (int i = 0; i < this.counts.length; i++) {
				this.counts[i] = new LongAdder();
			}
		}

		void add(Outcome outcome, long count) {
			this.counts[outcome.ordinal()].add(count);
		}

		Map<Outcome, Long> take() {
			Map<Outcome, Long> taken = new LinkedHashMap<>();
			for (Outcome outcome : Outcome.values()) {
				long count = this.counts[outcome.ordinal()].sumThenReset();
				if (count != 0) {
					taken.put(outcome, count);
				}
			}
			return taken;
		}

	}

}
