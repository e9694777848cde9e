package io.github.delayqueue.internal.actuate;

import java.time.Duration;

import io.github.delayqueue.internal.schedule.ScheduleTickListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.jspecify.annotations.Nullable;

/**
 * Micrometer meters of recurring schedules, tagged {@code schedule} and {@code topic},
 * counted on the instance that decided each tick, so that the counts of all instances add
 * up to each tick once:
 * <ul>
 * <li>counter {@code delayqueue.schedule.ticks}, tagged {@code outcome}: {@code produced}
 * (a job went into the topic), {@code skipped} (the last tick's job was still pending and
 * the schedule skips overlaps) or {@code missed} (no instance ran while it fell due, and
 * the misfire policy did not run it);</li>
 * <li>timer {@code delayqueue.schedule.lateness}: how long after its tick a tick's job
 * went into the topic, by the Redis clock; the handler's start adds the topic's delivery,
 * which {@code delayqueue.job.lateness} measures for every job.</li>
 * </ul>
 *
 * @author delayqueue contributors
 */
public class ScheduleMetrics implements MeterBinder, ScheduleTickListener {

	private volatile @Nullable MeterRegistry registry;

	@Override
	public void bindTo(MeterRegistry registry) {
		this.registry = registry;
	}

	@Override
	public void ticksDecided(String schedule, String topic, long produced, long skipped, long missed,
			long latenessMillis) {
		MeterRegistry registry = this.registry;
		if (registry == null) {
			return;
		}
		count(registry, schedule, topic, "produced", produced);
		count(registry, schedule, topic, "skipped", skipped);
		count(registry, schedule, topic, "missed", missed);
		if (produced > 0) {
			// The buckets of delayqueue.job.lateness, so that the two read alike in one
			// panel, and as few series.
			Timer.builder("delayqueue.schedule.lateness")
				.serviceLevelObjectives(DelayQueueMetrics.SERVICE_LEVEL_BUCKETS.toArray(Duration[]::new))
				.minimumExpectedValue(DelayQueueMetrics.MINIMUM_EXPECTED_VALUE)
				.maximumExpectedValue(DelayQueueMetrics.LATENESS_MAXIMUM_EXPECTED_VALUE)
				.description("How long after its tick a tick's job went into the topic, by the Redis clock")
				.tags("schedule", schedule, "topic", topic)
				.register(registry)
				.record(Duration.ofMillis(Math.max(0, latenessMillis)));
		}
	}

	private static void count(MeterRegistry registry, String schedule, String topic, String outcome, long count) {
		if (count > 0) {
			Counter.builder("delayqueue.schedule.ticks")
				.description("Ticks of recurring schedules, by what became of them")
				.tags("schedule", schedule, "topic", topic, "outcome", outcome)
				.register(registry)
				.increment(count);
		}
	}

}
