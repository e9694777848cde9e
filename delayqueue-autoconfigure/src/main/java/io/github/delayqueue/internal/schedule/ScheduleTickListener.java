package io.github.delayqueue.internal.schedule;

/**
 * Told what became of a schedule's ticks on the instance that decided them, so that the
 * counts of all instances add up to each tick once; for metrics. Implementations must be
 * fast and must not throw.
 *
 * @author delayqueue contributors
 */
public interface ScheduleTickListener {

	/**
	 * Ticks of a schedule were decided.
	 * @param schedule the schedule's id
	 * @param topic its topic
	 * @param produced how many ticks produced a job
	 * @param skipped how many were skipped because the last tick's job was pending
	 * @param missed how many were missed
	 * @param latenessMillis how long after the latest of the ticks it was decided, by the
	 * Redis clock: how late its job, when it produced one, went into the topic
	 */
	void ticksDecided(String schedule, String topic, long produced, long skipped, long missed, long latenessMillis);

}
