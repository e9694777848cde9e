package io.github.delayqueue.core;

/**
 * Hears of each job that becomes dead on this instance, for alerting or compensation:
 * when its handler's failure leaves no attempt (or is not retryable, or an error handler
 * decides so), when its payload cannot be converted or its data read, and when this
 * instance's scheduler finds its last delivery's time to run elapsed. Every
 * {@code DeadJobListener} bean is told, in order; each job once, by the instance that
 * buried it.
 *
 * <pre class="code">
 * &#064;Bean
 * DeadJobListener alertOnDeadPayments(Alerts alerts) {
 *     return (dead) -&gt; {
 *         if (dead.topic().startsWith("payment.")) {
 *             alerts.raise("Payment job " + dead.id() + " is dead: " + dead.cause(), dead.lastError());
 *         }
 *     };
 * }
 * </pre>
 *
 * <p>
 * It is called after the job is dead in Redis, on the thread that buried it (a handler's
 * worker) or, for an elapsed time to run, on a thread of its own so that the scheduler
 * keeps its time. A listener that throws is logged and changes nothing. A job made dead
 * while its instance crashes is not announced: {@link DelayQueueAdmin#deadJobs} shows
 * every dead job.
 *
 * @author delayqueue contributors
 */
@FunctionalInterface
public interface DeadJobListener {

	/**
	 * A job became dead.
	 * @param job the job, why it died and its last error
	 */
	void jobDied(DeadJob job);

}
