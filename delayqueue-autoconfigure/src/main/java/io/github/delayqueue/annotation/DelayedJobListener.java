package io.github.delayqueue.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import io.github.delayqueue.internal.aot.DelayedJobListenerReflectiveProcessor;

import org.springframework.aot.hint.annotation.Reflective;
import org.springframework.core.annotation.AliasFor;

/**
 * Marks a method as the consumer of one or more topics. When a job is due, the method is
 * called with the job's payload converted from JSON to the parameter's declared type
 * (generic types honoured), and/or with a {@link io.github.delayqueue.core.DelayedJob}
 * that carries the payload and the delivery's details.
 *
 * <pre class="code">
 * &#064;DelayedJobListener("orders.timeout")
 * void onTimeout(OrderTimeout event) {
 *     orders.closeIfUnpaid(event.orderId());
 * }
 *
 * &#064;DelayedJobListener(topics = { "mail.vip", "mail" }, concurrency = "${mail.workers:4}")
 * void mail(DelayedJob&lt;Mail&gt; job) {
 *     mailer.send(job.payload());
 * }
 * </pre>
 *
 * <p>
 * Returning normally acknowledges the job, which is then deleted. Throwing schedules a
 * retry after the topic's backoff until {@code max-attempts} deliveries were made, then
 * the job is dead. A {@link io.github.delayqueue.core.NonRetryableJobException}, or an
 * exception listed under {@code retry.non-retryable}, makes it dead at once; a
 * {@link io.github.delayqueue.core.RetryJobException} sets the wait before the next
 * attempt. A payload that cannot be converted makes the job dead at once with the
 * conversion error as its last error. A
 * {@link io.github.delayqueue.core.DelayedJobErrorHandler} (see {@link #errorHandler()})
 * may decide otherwise.
 *
 * <p>
 * A method returning a {@link java.util.concurrent.CompletableFuture} or
 * {@link java.util.concurrent.CompletionStage}, or Reactor's {@code Mono} (or another
 * single-value reactive type), and a Kotlin {@code suspend} function (with
 * {@code kotlinx-coroutines-reactor} on the class path), complete asynchronously: the job
 * is acknowledged when the future completes, and retried (or dead) as above when it
 * fails. It counts against the concurrency, and its time to run runs, until then; a
 * future still incomplete when the time to run elapses is cancelled and the job delivered
 * again. A return type that may complete many times ({@code Flux}, a {@code Publisher}, a
 * Kotlin {@code Flow}), or a plain {@link java.util.concurrent.Future}, fails start-up;
 * any other return value is ignored.
 *
 * <p>
 * Every attribute takes {@code ${...}} placeholders and {@code #{...}} expressions, which
 * may name beans and give values of their own types:
 *
 * <pre class="code">
 * &#064;DelayedJobListener(topics = "#{&#064;tenantSettings.reminderTopics()}", // an array or a collection
 *         concurrency = "#{&#064;tenantSettings.workers()}",                    // a number
 *         containerFactory = "slowJobs")                                // a factory bean's name
 * void remind(Reminder reminder) {
 *     reminders.send(reminder);
 * }
 * </pre>
 *
 * <p>
 * With several topics, a ready job of an earlier topic is always taken before one of a
 * later topic. A method that cannot be served (no topic, a bad topic name, two payload
 * parameters, an unknown error handler, a return type it cannot await) fails application
 * start-up with a message naming the method.
 *
 * <p>
 * Spring AOT registers the method and its payload type for reflection (the runtime hints
 * a native image needs), so listeners need no hints of their own.
 *
 * @author delayqueue contributors
 */
@Target({ ElementType.METHOD, ElementType.ANNOTATION_TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Reflective(DelayedJobListenerReflectiveProcessor.class)
public @interface DelayedJobListener {

	/**
	 * Alias for {@link #topics()}.
	 * @return the topics
	 */
	@AliasFor("topics")
	String[] value() default {};

	/**
	 * The topics to consume, highest priority first. Placeholders are resolved, and so
	 * are expressions, which may give one topic, several separated by commas, or an array
	 * or a collection of them.
	 * @return the topics
	 */
	@AliasFor("value")
	String[] topics() default {};

	/**
	 * The listener's id, unique in the application; placeholders and expressions are
	 * resolved. By default the method's declaring class and name, followed by {@code #2},
	 * {@code #3} and so on for further listeners of the same method (beans of one class)
	 * or of its overloads.
	 * @return the id
	 */
	String id() default "";

	/**
	 * How many jobs run at once; placeholders and expressions (which may give a number)
	 * are resolved. By default the first topic's {@code concurrency} property.
	 * @return the concurrency, as text
	 */
	String concurrency() default "";

	/**
	 * Whether the listener starts with the application; placeholders and expressions
	 * (which may give a boolean) are resolved. Any value other than {@code "true"} or
	 * {@code "false"} fails start-up.
	 * @return {@code "true"} or {@code "false"}
	 */
	String autoStartup() default "true";

	/**
	 * The bean name of the
	 * {@code io.github.delayqueue.listener.DelayedJobListenerContainerFactory} whose
	 * settings the listener runs with, such as a longer shutdown timeout; placeholders
	 * and expressions (which may give the factory itself) are resolved. By default the
	 * starter's factory. A name that no such bean has fails start-up.
	 * @return the factory's bean name, or empty for the default
	 */
	String containerFactory() default "";

	/**
	 * The name of the {@link io.github.delayqueue.core.DelayedJobErrorHandler} bean that
	 * decides what becomes of this listener's failed jobs; placeholders and expressions
	 * (which may give the handler itself) are resolved. By default the application's one
	 * {@code DelayedJobErrorHandler} bean (the {@code @Primary} one of several), or else
	 * the topic's retry configuration. A name that no such bean has fails start-up.
	 * @return the bean name, or empty for the default
	 */
	String errorHandler() default "";

}
