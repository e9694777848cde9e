package io.github.delayqueue.core;

import java.time.Instant;

import io.github.delayqueue.core.ScheduleInfo.TickOutcome;
import org.jspecify.annotations.Nullable;

/**
 * One tick of a schedule, or one run triggered by hand, and what became of it.
 *
 * @param tick the tick (or the time of the trigger), by the Redis clock
 * @param outcome whether a job was produced for it
 * @param missed how many ticks this entry stands for: more than one when several missed
 * ticks were decided together, 1 otherwise
 * @param jobId the id of its job, {@code <schedule id>@<tick epoch millis>}, or
 * {@code null} when none was produced
 * @param jobState the state of that job now, or {@code null} when it is gone (done or
 * cancelled) or none was produced
 * @author delayqueue contributors
 */
public record ScheduleRun(Instant tick, TickOutcome outcome, long missed, @Nullable String jobId,
		@Nullable JobState jobState) {

}
