package io.github.delayqueue.autoconfigure;

import java.time.Duration;
import java.util.List;

import io.github.delayqueue.core.JobConstraints;
import io.github.delayqueue.internal.dashboard.DashboardOrigins;
import org.jspecify.annotations.Nullable;

/**
 * Checks the values of bound {@link DelayQueueProperties}, recording each invalid one
 * under its property's name, so that start-up names every mistake at once.
 *
 * @author delayqueue contributors
 */
final class DelayQueuePropertiesValidator {

	/**
	 * Largest {@code scheduler.batch-size}: one script call moving more jobs would block
	 * Redis for too long.
	 */
	static final int MAX_BATCH_SIZE = 10_000;

	private DelayQueuePropertiesValidator() {
	}

	/**
	 * Record every invalid value, topics and schedules included.
	 * @param properties the bound properties
	 * @param problems where invalid values are recorded
	 */
	static void check(DelayQueueProperties properties, ConfigurationProblems problems) {
		String keyPrefix = properties.getKeyPrefix();
		if (keyPrefix == null || keyPrefix.isBlank() || keyPrefix.matches(".*[{}\\s].*")) {
			problems.invalid("delayqueue.key-prefix", keyPrefix,
					"The key prefix must not be blank and must not contain braces or whitespace");
		}
		if (properties.getMaxPayloadSize() == null || properties.getMaxPayloadSize().toBytes() <= 0) {
			problems.invalid("delayqueue.max-payload-size", properties.getMaxPayloadSize(),
					"The size must be more than zero");
		}
		DelayQueueProperties.Scheduler scheduler = properties.getScheduler();
		if (scheduler.getBatchSize() < 1 || scheduler.getBatchSize() > MAX_BATCH_SIZE) {
			problems.invalid("delayqueue.scheduler.batch-size", scheduler.getBatchSize(),
					"The batch size must be between 1 and " + MAX_BATCH_SIZE
							+ "; one script call moving more jobs blocks Redis too long");
		}
		positive(problems, "delayqueue.command-timeout", properties.getCommandTimeout());
		positive(problems, "delayqueue.scheduler.max-sleep", scheduler.getMaxSleep());
		positive(problems, "delayqueue.scheduler.idle-max-sleep", scheduler.getIdleMaxSleep());
		positive(problems, "delayqueue.scheduler.orphan-check-interval", scheduler.getOrphanCheckInterval());
		positive(problems, "delayqueue.listener.poll-timeout", properties.getListener().getPollTimeout());
		positive(problems, "delayqueue.history.flush-interval", properties.getHistory().getFlushInterval());
		Duration linkLongDelays = properties.getObservation().getLinkLongDelays();
		if (linkLongDelays != null && (linkLongDelays.isNegative() || linkLongDelays.isZero())) {
			problems.invalid("delayqueue.observation.link-long-delays", linkLongDelays,
					"The duration must be more than zero; leave it unset to continue every send's trace");
		}
		checkDashboard(properties.getDashboard(), problems);
		Duration shutdownTimeout = properties.getListener().getShutdownTimeout();
		if (shutdownTimeout == null || shutdownTimeout.isNegative()) {
			problems.invalid("delayqueue.listener.shutdown-timeout", shutdownTimeout,
					"The duration must not be negative");
		}
		if (!JobConstraints.isValidTopic(properties.getHttpCallback().getTopic())) {
			problems.invalid("delayqueue.http-callback.topic", properties.getHttpCallback().getTopic(),
					PropertiesTopicPolicies.TOPIC_NAME_RULE);
		}
		PropertiesTopicPolicies.check(properties.getDefaults(), properties.getTopics(), problems);
		SchedulePropertiesBinder.check(properties.getSchedules(), problems);
	}

	private static void checkDashboard(DelayQueueProperties.Dashboard dashboard, ConfigurationProblems problems) {
		if (dashboard.getPath() == null || !dashboard.getPath().matches("(/[A-Za-z0-9._~-]+)+")) {
			problems.invalid("delayqueue.dashboard.path", dashboard.getPath(),
					"The path must start with '/' and hold segments of A-Z a-z 0-9 . _ ~ -, without a trailing '/'");
		}
		List<String> origins = dashboard.getAllowedOrigins();
		for (int i = 0; i < origins.size(); i++) {
			String origin = origins.get(i);
			if (origin == null || DashboardOrigins.normalize(origin) == null) {
				problems.invalid("delayqueue.dashboard.allowed-origins[" + i + "]", origin,
						"An origin is scheme://host or scheme://host:port with scheme http or https, and no path");
			}
		}
	}

	private static void positive(ConfigurationProblems problems, String name, @Nullable Duration value) {
		if (value == null || value.isNegative() || value.isZero()) {
			problems.invalid(name, value, "The duration must be more than zero");
		}
	}

}
