package io.github.delayqueue.core;

/**
 * Decides what becomes of a job whose handler failed: another attempt at a time of its
 * choosing, death, an acknowledgement, or what the topic's retry configuration decides
 * ({@link FailureAction#asConfigured()}, which is also what happens without an error
 * handler).
 * <p>
 * One {@code DelayedJobErrorHandler} bean applies to every listener (with several, the
 * {@code @Primary} one); a listener names another with
 * {@code @DelayedJobListener(errorHandler = "beanName")}.
 *
 * <pre class="code">
 * &#064;Bean
 * DelayedJobErrorHandler partnerErrors() {
 *     return (failure) -&gt; {
 *         if (failure.exception() instanceof PartnerBusyException busy) {
 *             return FailureAction.retryAfter(busy.retryAfter());
 *         }
 *         if (failure.exception() instanceof OrderGoneException) {
 *             return FailureAction.acknowledge();
 *         }
 *         return FailureAction.asConfigured();
 *     };
 * }
 *
 * &#064;DelayedJobListener(topics = "partner.calls", errorHandler = "partnerErrors")
 * void call(PartnerCall call) { ... }
 * </pre>
 *
 * <p>
 * It runs on the thread that settles the delivery (the handler's, or for an asynchronous
 * handler a worker of the listener) before anything is written to Redis. An error handler
 * that throws, or returns {@code null}, is logged and the configured decision applies. A
 * delivery whose time to run elapsed meanwhile is delivered again whatever the handler
 * decides: the decision is fenced, like the acknowledgement.
 *
 * @author delayqueue contributors
 * @see DeadJobListener
 */
@FunctionalInterface
public interface DelayedJobErrorHandler {

	/**
	 * Decide what becomes of a failed delivery.
	 * @param failure the job, the attempt and the exception
	 * @return the action
	 */
	FailureAction handle(JobFailure failure);

}
