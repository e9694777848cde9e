package io.github.delayqueue.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import io.github.delayqueue.core.RecurringSchedule.Misfire;
import io.github.delayqueue.core.RecurringSchedule.Overlap;

/**
 * Declares a recurring schedule for the topic of the {@link DelayedJobListener} on the
 * same method: on every tick, exactly one job goes into the topic, across every instance,
 * and the listener handles it like any job (retries, time to run, dead letters, pause and
 * metrics apply). Ticks follow a cron expression or a fixed rate, decided on the Redis
 * clock.
 *
 * <pre class="code">
 * &#064;Recurring(cron = "0 0 2 * * *", zone = "Europe/Berlin")
 * &#064;DelayedJobListener("reports.nightly")
 * void buildNightlyReport(DelayedJob&lt;Map&lt;String, Object&gt;&gt; tick) {
 *     reports.build(tick.dueAt());                    // the tick's instant
 * }
 *
 * &#064;Recurring(every = "5m", overlap = Overlap.SKIP)
 * &#064;DelayedJobListener("partner.sync")
 * void sync() {
 *     partner.sync();
 * }
 * </pre>
 *
 * <p>
 * The schedule is declared like one under {@code delayqueue.schedules}: its id is
 * {@link #id()}, by default the listener's id when it sets one, otherwise the method's
 * class's simple name and the method's name ({@code NightlyReports.build}); a tick's job
 * id is {@code <schedule id>@<tick epoch millis>}. Every mistake (no cron and no rate, or
 * both; a bad cron expression, zone or rate; a listener of several topics without
 * {@link #topic()}) fails application start-up with a message naming the method.
 *
 * @author delayqueue contributors
 * @see io.github.delayqueue.core.DelayQueueSchedules
 */
@Target({ ElementType.METHOD, ElementType.ANNOTATION_TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Recurring {

	/**
	 * The schedule's id, unique among the schedules; placeholders are resolved. By
	 * default the listener's id when it sets one, otherwise
	 * {@code <class simple name>.<method name>}.
	 * @return the id
	 */
	String id() default "";

	/**
	 * A cron expression as Spring's {@code CronExpression} reads it: six fields, seconds
	 * first, or a macro such as {@code @daily}; placeholders are resolved. Either this or
	 * {@link #every()}.
	 * @return the cron expression
	 */
	String cron() default "";

	/**
	 * A fixed rate such as {@code 5m} or {@code PT30S}, ticking on whole multiples of it
	 * since the epoch, at least one second; placeholders are resolved. Either this or
	 * {@link #cron()}.
	 * @return the rate
	 */
	String every() default "";

	/**
	 * The time zone of the cron expression, such as {@code Europe/Berlin}; UTC unless
	 * set; placeholders are resolved.
	 * @return the zone id
	 */
	String zone() default "";

	/**
	 * The topic of the schedule's jobs; placeholders are resolved. By default the topic
	 * of the {@link DelayedJobListener}, which must then consume one topic only.
	 * @return the topic
	 */
	String topic() default "";

	/**
	 * The payload of every tick's job, as a JSON object; placeholders are resolved.
	 * @return the payload's JSON
	 */
	String payload() default "{}";

	/**
	 * Which of the ticks that fell due while no instance ran run late; the others are
	 * missed.
	 * @return the policy
	 */
	Misfire misfire() default Misfire.FIRE_ONCE;

	/**
	 * The most ticks that fell due while no instance ran that {@link Misfire#FIRE_ALL}
	 * runs after a downtime, the latest ones.
	 * @return the limit
	 */
	int catchUpLimit() default 100;

	/**
	 * Whether a tick runs while the last tick's job is still pending.
	 * @return the policy
	 */
	Overlap overlap() default Overlap.ALLOW;

	/**
	 * Whether the schedule produces ticks; placeholders are resolved. Any value other
	 * than {@code "true"} or {@code "false"} fails start-up.
	 * @return {@code "true"} or {@code "false"}
	 */
	String enabled() default "true";

}
