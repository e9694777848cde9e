package io.github.delayqueue.core;

import java.time.Duration;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * A recurring schedule as an application declares it at run time through
 * {@link DelayQueueSchedules}: on every tick, a job with the payload is put into the
 * topic, where the topic's ordinary {@code @DelayedJobListener} handles it. Ticks follow
 * a cron expression in a time zone, or a fixed rate aligned to the epoch.
 *
 * <pre class="code">
 * schedules.save(RecurringSchedule.cron("nightly-report", "reports.nightly", "0 0 2 * * *")
 *     .zone("Europe/Berlin")
 *     .payload(Map.of("kind", "nightly"))
 *     .build());
 * schedules.save(RecurringSchedule.every("partner-sync", "partner.sync", Duration.ofMinutes(5)).build());
 * </pre>
 *
 * @param id the schedule's id, 1 to 128 characters of {@code A-Z a-z 0-9 . _ -}, starting
 * with a letter or digit; a tick's job id is {@code <id>@<tick epoch millis>}
 * @param topic the topic its jobs go to
 * @param cron a cron expression as Spring's {@code CronExpression} reads it (six fields,
 * seconds first, or a macro such as {@code @daily}), or {@code null} with {@code every}
 * @param every a fixed rate, ticks falling on whole multiples of it since the epoch, or
 * {@code null} with {@code cron}
 * @param zone the time zone of the cron expression
 * @param payload the payload of every tick's job, serialized to JSON like a sent payload;
 * an empty JSON object when {@code null}
 * @param misfire which of the ticks that fell due while no instance ran run late; the
 * others are missed
 * @param catchUpLimit with {@link Misfire#FIRE_ALL}, the most of those ticks run late
 * @param overlap whether a tick runs while the last tick's job is still pending
 * @param enabled whether ticks are produced at all
 * @author delayqueue contributors
 */
public record RecurringSchedule(String id, String topic, @Nullable String cron, @Nullable Duration every, ZoneId zone,
		@Nullable Object payload, Misfire misfire, int catchUpLimit, Overlap overlap, boolean enabled) {

	/**
	 * The most ticks that fell due while no instance ran that {@link Misfire#FIRE_ALL}
	 * runs unless told otherwise.
	 */
	public static final int DEFAULT_CATCH_UP_LIMIT = 100;

	/**
	 * Start a schedule whose ticks follow a cron expression, in UTC unless a zone is set.
	 * @param id the schedule's id
	 * @param topic the topic its jobs go to
	 * @param cron the cron expression, six fields with seconds first, or a macro
	 * @return a builder
	 */
	public static Builder cron(String id, String topic, String cron) {
		return new Builder(id, topic, cron, null);
	}

	/**
	 * Start a schedule that ticks at a fixed rate, on whole multiples of it since the
	 * epoch ({@code every(..., Duration.ofMinutes(5))} ticks at :00, :05, :10 and so on).
	 * @param id the schedule's id
	 * @param topic the topic its jobs go to
	 * @param every the rate, at least one second
	 * @return a builder
	 */
	public static Builder every(String id, String topic, Duration every) {
		return new Builder(id, topic, null, every);
	}

	/**
	 * What happens to ticks that fell due while no instance ran.
	 */
	public enum Misfire {

		/**
		 * The latest of the ticks that fell due while no instance ran runs, late; the
		 * others are missed.
		 */
		FIRE_ONCE,

		/**
		 * None of the ticks that fell due while no instance ran runs: all are missed, and
		 * the schedule goes on with the next tick.
		 */
		SKIP,

		/**
		 * Each of the ticks that fell due while no instance ran runs, late, oldest first,
		 * at most {@code catchUpLimit} of them (the latest ones); older ones are missed.
		 */
		FIRE_ALL

	}

	/**
	 * Whether a tick runs while the job of the last tick is still pending.
	 */
	public enum Overlap {

		/**
		 * Every tick runs, whatever became of the last one.
		 */
		ALLOW,

		/**
		 * A tick is skipped while the last tick's job is still delayed, ready or running.
		 */
		SKIP

	}

	/**
	 * Builds a {@link RecurringSchedule}.
	 */
	public static final class Builder {

		private final String id;

		private final String topic;

		private final @Nullable String cron;

		private final @Nullable Duration every;

		private ZoneId zone = ZoneOffset.UTC;

		private @Nullable Object payload;

		private Misfire misfire = Misfire.FIRE_ONCE;

		private int catchUpLimit = DEFAULT_CATCH_UP_LIMIT;

		private Overlap overlap = Overlap.ALLOW;

		private boolean enabled = true;

		private Builder(String id, String topic, @Nullable String cron, @Nullable Duration every) {
			this.id = id;
			this.topic = topic;
			this.cron = cron;
			this.every = every;
		}

		/**
		 * Set the time zone of the cron expression; UTC unless set.
		 * @param zone the zone
		 * @return this builder
		 */
		public Builder zone(ZoneId zone) {
			this.zone = zone;
			return this;
		}

		/**
		 * Set the time zone of the cron expression by its id, such as
		 * {@code Europe/Berlin}.
		 * @param zone the zone id
		 * @return this builder
		 * @throws java.time.DateTimeException if the id names no zone
		 */
		public Builder zone(String zone) {
			return zone(ZoneId.of(zone));
		}

		/**
		 * Set the payload of every tick's job: any object a send accepts, such as a
		 * record or a {@link Map}.
		 * @param payload the payload
		 * @return this builder
		 */
		public Builder payload(@Nullable Object payload) {
			this.payload = payload;
			return this;
		}

		/**
		 * Set which of the ticks that fell due while no instance ran run late;
		 * {@link Misfire#FIRE_ONCE} unless set.
		 * @param misfire the policy
		 * @return this builder
		 */
		public Builder misfire(Misfire misfire) {
			this.misfire = misfire;
			return this;
		}

		/**
		 * Set the most ticks that fell due while no instance ran that
		 * {@link Misfire#FIRE_ALL} runs;
		 * {@value RecurringSchedule#DEFAULT_CATCH_UP_LIMIT} unless set.
		 * @param catchUpLimit the limit, at least 1
		 * @return this builder
		 */
		public Builder catchUpLimit(int catchUpLimit) {
			this.catchUpLimit = catchUpLimit;
			return this;
		}

		/**
		 * Set whether a tick runs while the last tick's job is still pending;
		 * {@link Overlap#ALLOW} unless set.
		 * @param overlap the policy
		 * @return this builder
		 */
		public Builder overlap(Overlap overlap) {
			this.overlap = overlap;
			return this;
		}

		/**
		 * Set whether ticks are produced at all; {@code true} unless set.
		 * @param enabled whether the schedule is enabled
		 * @return this builder
		 */
		public Builder enabled(boolean enabled) {
			this.enabled = enabled;
			return this;
		}

		/**
		 * Build the schedule. It is checked when it is saved.
		 * @return the schedule
		 */
		public RecurringSchedule build() {
			return new RecurringSchedule(this.id, this.topic, this.cron, this.every, this.zone, this.payload,
					this.misfire, this.catchUpLimit, this.overlap, this.enabled);
		}

	}

}
