package io.github.delayqueue.internal.schedule;

import java.util.Collection;
import java.util.Set;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.BeansException;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextAware;
import org.springframework.context.ApplicationListener;

/**
 * Warns, once the application is ready and its listeners are registered, of each schedule
 * it declares whose jobs go to a topic that no listener of this application handles and
 * that is not listed as handled elsewhere: such jobs would wait in their topic, unseen,
 * until a listener of it runs.
 *
 * @author delayqueue contributors
 */
public final class UnhandledScheduleTopics
		implements ApplicationListener<ApplicationReadyEvent>, ApplicationContextAware {

	private static final Log logger = LogFactory.getLog(UnhandledScheduleTopics.class);

	private final DeclaredSchedules declared;

	private final Supplier<@Nullable Collection<String>> handledHere;

	private final Set<String> handledElsewhere;

	private @Nullable ApplicationContext context;

	/**
	 * Create the check.
	 * @param declared the schedules this application declares
	 * @param handledHere the topics of this application's listeners, or {@code null} when
	 * this instance runs none (then this application's listeners are unknown here, and
	 * nothing is checked)
	 * @param handledElsewhere the topics listeners of other applications handle
	 */
	public UnhandledScheduleTopics(DeclaredSchedules declared, Supplier<@Nullable Collection<String>> handledHere,
			Collection<String> handledElsewhere) {
		this.declared = declared;
		this.handledHere = handledHere;
		this.handledElsewhere = Set.copyOf(handledElsewhere);
	}

	@Override
	public void setApplicationContext(ApplicationContext context) throws BeansException {
		this.context = context;
	}

	@Override
	public void onApplicationEvent(ApplicationReadyEvent event) {
		// A child context's event reaches the parent's listeners too.
		if (this.context != null && event.getApplicationContext() != this.context) {
			return;
		}
		Collection<String> handled = this.handledHere.get();
		if (handled == null) {
			logger.debug("Not checking that schedules' topics have a listener: this instance runs no listeners");
			return;
		}
		Set<String> handledTopics = Set.copyOf(handled);
		for (DeclaredSchedules.Declared declaration : this.declared.declarations()) {
			ScheduleDefinition definition = declaration.definition();
			String topic = definition.topic();
			if (definition.enabled() && !handledTopics.contains(topic) && !this.handledElsewhere.contains(topic)) {
				logger.warn("Schedule '" + definition.id() + "' (" + declaration.where()
						+ ") puts its jobs into topic '" + topic
						+ "', which no listener of this application handles: they wait there until one does. "
						+ "Add a @DelayedJobListener(\"" + topic + "\"), or, if another application handles the topic, "
						+ "list it in delayqueue.listener.handled-elsewhere to silence this warning");
			}
		}
	}

}
