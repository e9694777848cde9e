package io.github.delayqueue.internal.schedule;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import io.github.delayqueue.core.DelayQueueTemplate;
import io.github.delayqueue.core.InvalidScheduleException;
import io.github.delayqueue.core.JobConstraints;
import io.github.delayqueue.core.RecurringSchedule;
import io.github.delayqueue.core.RecurringSchedule.Misfire;
import io.github.delayqueue.core.RecurringSchedule.Overlap;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.scheduling.support.CronExpression;

/**
 * Checks what a schedule is made of, from YAML, from {@code @Recurring} or from a
 * {@link RecurringSchedule} saved at run time, and builds its {@link ScheduleDefinition}.
 * Every problem is reported, each naming its field, before anything is written.
 *
 * @author delayqueue contributors
 */
public final class ScheduleChecks {

	/**
	 * The shortest rate: a recurring schedule is not a polling loop.
	 */
	public static final Duration MIN_EVERY = Duration.ofSeconds(1);

	/**
	 * The most ticks that fell due while no instance ran {@code fire-all} may run after a
	 * downtime.
	 */
	public static final int MAX_CATCH_UP_LIMIT = 10_000;

	/**
	 * The rule schedule ids follow, for messages.
	 */
	public static final String ID_RULE = "Schedule ids use 1 to 128 characters of A-Z a-z 0-9 . _ -, "
			+ "starting with a letter or digit";

	private ScheduleChecks() {
	}

	/**
	 * Check a schedule's parts.
	 * @param schedule the parts
	 * @param jsonMapper serializes the payload
	 * @param problems where each problem is told, by field
	 * @return the definition, or {@code null} if any part is wrong
	 */
	public static @Nullable ScheduleDefinition check(Parts schedule, JsonMapper jsonMapper, Problems problems) {
		int before = problems.count();
		if (!JobConstraints.isValidTopic(schedule.id())) {
			problems.invalid("id", schedule.id(), ID_RULE);
		}
		if (schedule.topic() == null || schedule.topic().isBlank()) {
			problems.invalid("topic", schedule.topic(), "A schedule needs the topic its jobs go to");
		}
		else if (!JobConstraints.isValidTopic(schedule.topic())) {
			problems.invalid("topic", schedule.topic(),
					"Topic names use 1 to 128 characters of A-Z a-z 0-9 . _ -, starting with a letter or digit");
		}
		ZoneId zone = zone(schedule, problems);
		TickSeries ticks = ticks(schedule, zone, problems);
		if (schedule.misfire() == null) {
			problems.invalid("misfire", null, "Use fire-once, skip or fire-all");
		}
		if (schedule.overlap() == null) {
			problems.invalid("overlap", null, "Use allow or skip");
		}
		if (schedule.catchUpLimit() < 1 || schedule.catchUpLimit() > MAX_CATCH_UP_LIMIT) {
			problems.invalid("catch-up-limit", schedule.catchUpLimit(),
					"The limit must be between 1 and " + MAX_CATCH_UP_LIMIT);
		}
		if (schedule.misfire() == Misfire.FIRE_ALL && schedule.overlap() == Overlap.SKIP) {
			problems.invalid("misfire", "fire-all",
					"fire-all runs several late ticks at once, which overlap: skip forbids; use fire-once");
		}
		String payloadJson = payloadJson(schedule.payload(), jsonMapper, problems);
		if (problems.count() > before || ticks == null || payloadJson == null || zone == null) {
			return null;
		}
		return new ScheduleDefinition(schedule.id(), schedule.topic(), schedule.cron(), schedule.every(), zone,
				payloadJson, schedule.misfire(), schedule.catchUpLimit(), schedule.overlap(), schedule.enabled());
	}

	/**
	 * Check a schedule saved at run time.
	 * @param schedule the schedule
	 * @param jsonMapper serializes the payload
	 * @return the definition
	 * @throws InvalidScheduleException naming every problem
	 */
	public static ScheduleDefinition check(RecurringSchedule schedule, JsonMapper jsonMapper) {
		if (schedule == null) {
			throw new InvalidScheduleException("A schedule must not be null");
		}
		List<String> found = new ArrayList<>();
		Problems problems = new Problems() {

			@Override
			public void invalid(String field, @Nullable Object value, String reason) {
				found.add(field + " '" + value + "': " + reason);
			}

			@Override
			public int count() {
				return found.size();
			}

		};
		Parts parts = new Parts(schedule.id(), schedule.topic(), schedule.cron(), schedule.every(),
				(schedule.zone() != null) ? schedule.zone().getId() : null, schedule.payload(), schedule.misfire(),
				schedule.catchUpLimit(), schedule.overlap(), schedule.enabled());
		ScheduleDefinition definition = check(parts, jsonMapper, problems);
		if (definition == null) {
			throw new InvalidScheduleException("Invalid schedule '" + schedule.id() + "': " + String.join("; ", found));
		}
		return definition;
	}

	private static @Nullable ZoneId zone(Parts schedule, Problems problems) {
		if (schedule.zone() == null || schedule.zone().isBlank()) {
			return ZoneOffset.UTC;
		}
		try {
			ZoneId zone = ZoneId.of(schedule.zone().trim());
			if (schedule.every() != null && !zone.normalized().equals(ZoneOffset.UTC)) {
				problems.invalid("zone", schedule.zone(), "A zone applies to cron only; every ticks on whole "
						+ "multiples of its rate since the epoch, whatever the zone");
				return null;
			}
			return zone;
		}
		catch (DateTimeException ex) {
			problems.invalid("zone", schedule.zone(),
					"Unknown time zone (" + ex.getMessage() + "); use a region id such as Europe/Berlin, or UTC");
			return null;
		}
	}

	private static @Nullable TickSeries ticks(Parts schedule, @Nullable ZoneId zone, Problems problems) {
		String cron = schedule.cron();
		Duration every = schedule.every();
		boolean hasCron = cron != null && !cron.isBlank();
		if (hasCron == (every != null)) {
			problems.invalid(hasCron ? "every" : "cron", hasCron ? every : null, hasCron
					? "Set either cron or every, not both" : "Set either cron (a cron expression) or every (a rate)");
			return null;
		}
		if (every != null) {
			if (every.compareTo(MIN_EVERY) < 0 || every.compareTo(DelayQueueTemplate.MAX_DELAY) > 0) {
				problems.invalid("every", every, "The rate must be at least 1s");
				return null;
			}
			return new FixedRateTicks(every.toMillis());
		}
		CronExpression expression;
		try {
			expression = CronExpression.parse(cron.trim());
		}
		catch (IllegalArgumentException ex) {
			problems.invalid("cron", cron, "Not a cron expression Spring's CronExpression reads (" + ex.getMessage()
					+ "); use six fields, seconds first, such as '0 0 2 * * *', or a macro such as @daily");
			return null;
		}
		if (zone == null) {
			return null;
		}
		CronTicks ticks = new CronTicks(expression, zone);
		if (ticks.next(System.currentTimeMillis()) == Long.MAX_VALUE) {
			problems.invalid("cron", cron, "The expression never fires");
			return null;
		}
		return ticks;
	}

	private static @Nullable String payloadJson(@Nullable Object payload, JsonMapper jsonMapper, Problems problems) {
		if (payload == null) {
			return "{}";
		}
		try {
			return jsonMapper.writeValueAsString(payload);
		}
		catch (JacksonException ex) {
			problems.invalid("payload", payload.getClass().getName(),
					"Cannot be serialized to JSON: " + ex.getOriginalMessage());
			return null;
		}
	}

	/**
	 * The parts of a schedule, as given.
	 *
	 * @param id the id
	 * @param topic the topic
	 * @param cron the cron expression, or {@code null}
	 * @param every the rate, or {@code null}
	 * @param zone the zone id, or {@code null} for UTC
	 * @param payload the payload, or {@code null} for an empty JSON object
	 * @param misfire the misfire policy
	 * @param catchUpLimit the most ticks that fell due while no instance ran that
	 * fire-all runs
	 * @param overlap the overlap policy
	 * @param enabled whether it ticks
	 */
	public record Parts(String id, @Nullable String topic, @Nullable String cron, @Nullable Duration every,
			@Nullable String zone, @Nullable Object payload, @Nullable Misfire misfire, int catchUpLimit,
			@Nullable Overlap overlap, boolean enabled) {

	}

	/**
	 * Where problems are told.
	 */
	public interface Problems {

		/**
		 * Tell a field's invalid value.
		 * @param field the field, in the kebab case of its YAML key
		 * @param value the value
		 * @param reason why it is invalid
		 */
		void invalid(String field, @Nullable Object value, String reason);

		/**
		 * Return how many problems were told so far.
		 * @return the count
		 */
		int count();

	}

}
