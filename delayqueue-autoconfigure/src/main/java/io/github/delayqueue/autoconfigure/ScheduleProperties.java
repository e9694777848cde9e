package io.github.delayqueue.autoconfigure;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import io.github.delayqueue.core.RecurringSchedule;
import io.github.delayqueue.core.RecurringSchedule.Misfire;
import io.github.delayqueue.core.RecurringSchedule.Overlap;
import org.jspecify.annotations.Nullable;

/**
 * One recurring schedule under {@code delayqueue.schedules.<id>}: on every tick, a job
 * with the payload goes into the topic. Checked by {@link SchedulePropertiesBinder}.
 *
 * @author delayqueue contributors
 */
public class ScheduleProperties {

	/**
	 * Topic the schedule's jobs go to; required.
	 */
	private @Nullable String topic;

	/**
	 * Cron expression of the ticks as Spring's CronExpression reads it (six fields,
	 * seconds first, or a macro such as @daily); either this or every.
	 */
	private @Nullable String cron;

	/**
	 * Fixed rate of the ticks, which fall on whole multiples of it since the epoch, at
	 * least 1s; either this or cron.
	 */
	private @Nullable Duration every;

	/**
	 * Time zone of the cron expression, such as Europe/Berlin; UTC when unset.
	 */
	private @Nullable String zone;

	/**
	 * Payload of every tick's job, stored as a JSON object; an empty one when unset.
	 */
	private Map<String, Object> payload = new LinkedHashMap<>();

	/**
	 * Which of the ticks that fell due while no instance ran run late, the others being
	 * missed: fire-once (the latest), skip (none) or fire-all (each, oldest first, up to
	 * catch-up-limit).
	 */
	private Misfire misfire = Misfire.FIRE_ONCE;

	/**
	 * Most ticks that fell due while no instance ran that fire-all runs, the latest ones;
	 * older ones are missed.
	 */
	private int catchUpLimit = RecurringSchedule.DEFAULT_CATCH_UP_LIMIT;

	/**
	 * Whether a tick runs while the last tick's job is still pending: allow, or skip.
	 */
	private Overlap overlap = Overlap.ALLOW;

	/**
	 * Whether the schedule produces ticks.
	 */
	private boolean enabled = true;

	public @Nullable String getTopic() {
		return this.topic;
	}

	public void setTopic(@Nullable String topic) {
		this.topic = topic;
	}

	public @Nullable String getCron() {
		return this.cron;
	}

	public void setCron(@Nullable String cron) {
		this.cron = cron;
	}

	public @Nullable Duration getEvery() {
		return this.every;
	}

	public void setEvery(@Nullable Duration every) {
		this.every = every;
	}

	public @Nullable String getZone() {
		return this.zone;
	}

	public void setZone(@Nullable String zone) {
		this.zone = zone;
	}

	public Map<String, Object> getPayload() {
		return this.payload;
	}

	public void setPayload(Map<String, Object> payload) {
		this.payload = payload;
	}

	public Misfire getMisfire() {
		return this.misfire;
	}

	public void setMisfire(Misfire misfire) {
		this.misfire = misfire;
	}

	public int getCatchUpLimit() {
		return this.catchUpLimit;
	}

	public void setCatchUpLimit(int catchUpLimit) {
		this.catchUpLimit = catchUpLimit;
	}

	public Overlap getOverlap() {
		return this.overlap;
	}

	public void setOverlap(Overlap overlap) {
		this.overlap = overlap;
	}

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

}
