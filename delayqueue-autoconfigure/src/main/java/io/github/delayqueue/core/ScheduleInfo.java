package io.github.delayqueue.core;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;

import io.github.delayqueue.core.RecurringSchedule.Misfire;
import io.github.delayqueue.core.RecurringSchedule.Overlap;
import org.jspecify.annotations.Nullable;

/**
 * What the queue knows about one recurring schedule: its definition, where it came from,
 * when it fires next and what became of its latest ticks.
 *
 * @param id the schedule's id
 * @param topic the topic its jobs go to
 * @param cron its cron expression, or {@code null} for a fixed rate
 * @param every its fixed rate, or {@code null} for a cron expression
 * @param zone the time zone of the cron expression
 * @param payloadJson the payload of every tick's job, as JSON
 * @param misfire which of the ticks that fell due while no instance ran run late; the
 * others are missed
 * @param catchUpLimit the most of those ticks {@link Misfire#FIRE_ALL} runs
 * @param overlap whether a tick runs while the last tick's job is pending
 * @param enabled whether its definition enables it
 * @param paused whether it is paused
 * @param declared {@code true} when the application's configuration (YAML or
 * {@code @Recurring}) declares it, {@code false} when it was saved at run time
 * @param nextFireTimes its next ticks, by the Redis clock; none while paused or disabled
 * @param lastTick the latest tick that fell due, or {@code null} before the first
 * @param lastOutcome what became of that tick, or {@code null} before the first
 * @param missedTicks how many ticks were missed (fell due while no instance ran, and the
 * misfire policy did not run them) in all, since the schedule was created
 * @param recentRuns its latest ticks, runs triggered by hand included, newest first
 * @author delayqueue contributors
 */
public record ScheduleInfo(String id, String topic, @Nullable String cron, @Nullable Duration every, ZoneId zone,
		String payloadJson, Misfire misfire, int catchUpLimit, Overlap overlap, boolean enabled, boolean paused,
		boolean declared, List<Instant> nextFireTimes, @Nullable Instant lastTick, @Nullable TickOutcome lastOutcome,
		long missedTicks, List<ScheduleRun> recentRuns) {

	/**
	 * Create a schedule description, keeping unmodifiable copies of the lists.
	 */
	public ScheduleInfo {
		nextFireTimes = List.copyOf(nextFireTimes);
		recentRuns = List.copyOf(recentRuns);
	}

	/**
	 * Return this schedule with its payload replaced by {@link JobInfo#HIDDEN}, for
	 * showing to someone who may not see payloads.
	 * @return the schedule without its payload
	 */
	public ScheduleInfo withoutValues() {
		return new ScheduleInfo(this.id, this.topic, this.cron, this.every, this.zone, JobInfo.HIDDEN, this.misfire,
				this.catchUpLimit, this.overlap, this.enabled, this.paused, this.declared, this.nextFireTimes,
				this.lastTick, this.lastOutcome, this.missedTicks, this.recentRuns);
	}

	/**
	 * What became of one tick.
	 */
	public enum TickOutcome {

		/**
		 * Its job was put into the topic.
		 */
		PRODUCED,

		/**
		 * No job: the last tick's job was still pending and the schedule skips overlaps,
		 * or a pending job already held the tick's job id (one triggered by hand in the
		 * tick's millisecond).
		 */
		SKIPPED,

		/**
		 * No job: it fell due while no instance ran, and the misfire policy did not run
		 * it.
		 */
		MISSED,

		/**
		 * A run asked for by hand, outside the schedule's ticks.
		 */
		TRIGGERED

	}

}
