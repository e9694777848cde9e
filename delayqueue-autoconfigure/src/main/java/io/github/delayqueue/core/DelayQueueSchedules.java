package io.github.delayqueue.core;

import java.util.List;
import java.util.Optional;

/**
 * Recurring schedules at run time: create, change, delete, pause, resume, trigger and
 * list them. Every instance shares them through Redis: a schedule saved on one instance
 * ticks on whichever instances run a scheduler, each tick producing exactly one job,
 * decided on the Redis clock. The auto-configured bean is available whenever the delay
 * queue is.
 *
 * <pre class="code">
 * schedules.save(RecurringSchedule.cron("nightly-report", "reports.nightly", "0 0 2 * * *")
 *     .zone("Europe/Berlin")
 *     .build());
 * schedules.pause("nightly-report");
 * for (ScheduleInfo schedule : schedules.list()) {
 *     show(schedule.id(), schedule.nextFireTimes(), schedule.lastOutcome());
 * }
 * </pre>
 *
 * Schedules declared by the application's configuration (under
 * {@code delayqueue.schedules} or with {@code @Recurring}) are listed, paused, resumed
 * and triggered here too, but changed and deleted only where they are declared.
 *
 * @author delayqueue contributors
 */
public interface DelayQueueSchedules {

	/**
	 * How many next fire times {@link #list()} and {@link #find(String)} tell.
	 */
	int DEFAULT_NEXT_FIRE_TIMES = 5;

	/**
	 * Create a schedule, or change the one with its id. A change takes effect from the
	 * next tick: the ticks that fell due keep their jobs, and no tick runs twice.
	 * @param schedule the schedule
	 * @return the schedule as saved
	 * @throws InvalidScheduleException if the schedule is invalid, or its id is declared
	 * by the application's configuration
	 */
	ScheduleInfo save(RecurringSchedule schedule);

	/**
	 * Delete a schedule saved at run time, with its pending next tick.
	 * @param id the schedule's id
	 * @return whether it existed
	 * @throws InvalidScheduleException if the application's configuration declares it
	 */
	boolean delete(String id);

	/**
	 * Pause a schedule on every instance: no tick produces a job until it is resumed, and
	 * its pending next tick is withdrawn. Ticks that fall due while it is paused are not
	 * missed ticks: they are not run later.
	 * @param id the schedule's id
	 * @throws UnknownScheduleException if no schedule has the id
	 */
	void pause(String id);

	/**
	 * Resume a paused schedule from its next tick.
	 * @param id the schedule's id
	 * @throws UnknownScheduleException if no schedule has the id
	 */
	void resume(String id);

	/**
	 * Put a job of the schedule into its topic now, besides its ticks, whether it is
	 * paused or not. The job's id is {@code <id>@<epoch millis now>}.
	 * @param id the schedule's id
	 * @return the job's id
	 * @throws UnknownScheduleException if no schedule has the id
	 */
	String trigger(String id);

	/**
	 * List every schedule with its next {@value #DEFAULT_NEXT_FIRE_TIMES} fire times.
	 * @return the schedules, by id
	 */
	default List<ScheduleInfo> list() {
		return list(DEFAULT_NEXT_FIRE_TIMES);
	}

	/**
	 * List every schedule.
	 * @param nextFireTimes how many next fire times to tell for each, 0 to 100
	 * @return the schedules, by id
	 */
	List<ScheduleInfo> list(int nextFireTimes);

	/**
	 * Look a schedule up, with its next {@value #DEFAULT_NEXT_FIRE_TIMES} fire times.
	 * @param id the schedule's id
	 * @return the schedule, or empty if no schedule has the id
	 */
	default Optional<ScheduleInfo> find(String id) {
		return find(id, DEFAULT_NEXT_FIRE_TIMES);
	}

	/**
	 * Look a schedule up.
	 * @param id the schedule's id
	 * @param nextFireTimes how many next fire times to tell, 0 to 100
	 * @return the schedule, or empty if no schedule has the id
	 */
	Optional<ScheduleInfo> find(String id, int nextFireTimes);

}
