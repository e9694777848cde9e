package io.github.delayqueue.listener;

/**
 * Registers listeners in code: every bean of this type is called once the application's
 * singletons are created, alongside the {@code @DelayedJobListener} methods, and the
 * endpoints it registers start with them. Use it for listeners that configuration
 * decides, such as one per tenant or per configured topic.
 *
 * <pre class="code">
 * &#064;Bean
 * DelayedJobListenerConfigurer reminderListeners(ReminderSettings settings, Reminders reminders) {
 *     return (registrar) -&gt; settings.channels().forEach((channel) -&gt; registrar.registerEndpoint(
 *         DelayedJobListenerEndpoint.builder("reminders-" + channel)
 *             .topics("reminders." + channel)
 *             .handler(Reminder.class, (job) -&gt; reminders.send(channel, job.payload()))
 *             .build()));
 * }
 * </pre>
 *
 * A registration that cannot be served (a duplicate id, a method with two payload
 * parameters) fails application start-up with a message naming the listener.
 *
 * @author delayqueue contributors
 * @see DelayedJobListenerEndpoint
 */
@FunctionalInterface
public interface DelayedJobListenerConfigurer {

	/**
	 * Register listeners.
	 * @param registrar takes the endpoints
	 */
	void configureDelayedJobListeners(DelayedJobListenerEndpointRegistrar registrar);

}
