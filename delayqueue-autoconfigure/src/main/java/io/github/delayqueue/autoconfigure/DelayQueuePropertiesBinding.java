package io.github.delayqueue.autoconfigure;

import java.util.Locale;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationPropertiesBindHandlerAdvisor;
import org.springframework.boot.context.properties.bind.AbstractBindHandler;
import org.springframework.boot.context.properties.bind.BindContext;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.core.env.Environment;

/**
 * What Spring Boot's binding of {@link DelayQueueProperties} lacks, added where Boot lets
 * an application extend its binding: topics keyed by their full, dotted names (Boot's map
 * binding would split {@code orders.timeout} at its dot) and schedules keyed by their
 * full ids alike, every unknown key named with the nearest known one, and every invalid
 * value reported, all at once. The properties stay a passive bean; start-up fails with an
 * {@link InvalidDelayQueuePropertiesException} that lists every problem.
 *
 * @author delayqueue contributors
 */
final class DelayQueuePropertiesBinding implements ConfigurationPropertiesBindHandlerAdvisor {

	private static final ConfigurationPropertyName ROOT = ConfigurationPropertyName.of("delayqueue");

	private static final ConfigurationPropertyName TOPICS = ConfigurationPropertyName.of("delayqueue.topics");

	private static final ConfigurationPropertyName SCHEDULES = ConfigurationPropertyName.of("delayqueue.schedules");

	private final Environment environment;

	/**
	 * Create the binding.
	 * @param environment where topics and unknown keys are read from
	 */
	DelayQueuePropertiesBinding(Environment environment) {
		this.environment = environment;
	}

	@Override
	public BindHandler apply(BindHandler bindHandler) {
		return new RootHandler(bindHandler);
	}

	/**
	 * Records each value under {@code delayqueue} that cannot be converted to its
	 * property's type and binds on, so that every such value is reported, not only the
	 * first.
	 */
	static class RecordingHandler extends AbstractBindHandler {

		private ConfigurationProblems problems;

		RecordingHandler(BindHandler parent, ConfigurationProblems problems) {
			super(parent);
			this.problems = problems;
		}

		ConfigurationProblems problems() {
			return this.problems;
		}

		void startOver() {
			this.problems = new ConfigurationProblems();
		}

		@Override
		public @Nullable Object onFailure(ConfigurationPropertyName name, Bindable<?> target, BindContext context,
				Exception error) throws Exception {
			if (!ROOT.isAncestorOf(name) || error instanceof InvalidDelayQueuePropertiesException) {
				return super.onFailure(name, target, context, error);
			}
			ConfigurationProperty property = context.getConfigurationProperty();
			Throwable cause = (error.getCause() != null) ? error.getCause() : error;
			if (property != null) {
				this.problems.invalid(property.getName().toString(), property.getValue(), reason(target, cause));
			}
			else {
				this.problems.add("Cannot bind " + name + ": " + cause.getMessage());
			}
			return null;
		}

	}

	// Spring's message for an unknown enum value names a Java class and the value as
	// typed; a user wants the values the property takes, as they would write them.
	static String reason(Bindable<?> target, Throwable cause) {
		Class<?> type = target.getType().resolve();
		if (type != null && type.isEnum()) {
			StringBuilder values = new StringBuilder("expected one of ");
			Object[] constants = type.getEnumConstants();
			for (int i = 0; i < constants.length; i++) {
				values.append((i > 0) ? ", " : "")
					.append(((Enum<?>) constants[i]).name().toLowerCase(Locale.ROOT).replace('_', '-'));
			}
			return values.toString();
		}
		return String.valueOf(cause.getMessage());
	}

	private final class RootHandler extends RecordingHandler {

		RootHandler(BindHandler parent) {
			super(parent, new ConfigurationProblems());
		}

		@Override
		public <T> @Nullable Bindable<T> onStart(ConfigurationPropertyName name, Bindable<T> target,
				BindContext context) {
			if (name.equals(ROOT)) {
				startOver();
			}
			// Bound below by full names.
			return (name.equals(TOPICS) || name.equals(SCHEDULES)) ? null : super.onStart(name, target, context);
		}

		@Override
		public void onFinish(ConfigurationPropertyName name, Bindable<?> target, BindContext context,
				@Nullable Object result) throws Exception {
			super.onFinish(name, target, context, result);
			if (!name.equals(ROOT)) {
				return;
			}
			Object bound = (result != null) ? result : (target.getValue() != null) ? target.getValue().get() : null;
			if (bound instanceof DelayQueueProperties properties) {
				ConfigurationProblems problems = problems();
				UnknownPropertyCheck.check(DelayQueuePropertiesBinding.this.environment, problems);
				properties
					.setTopics(TopicPropertiesBinder.bind(DelayQueuePropertiesBinding.this.environment, problems));
				properties.setSchedules(
						SchedulePropertiesBinder.bind(DelayQueuePropertiesBinding.this.environment, problems));
				DelayQueuePropertiesValidator.check(properties, problems);
				problems.throwIfAny();
			}
		}

	}

}
