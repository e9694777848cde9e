package io.github.delayqueue.autoconfigure;

import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.BindContext;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.core.env.Environment;

/**
 * Records each value that cannot be converted to its property's type and binds on, so
 * that every such value is reported, not only the first one.
 *
 * @author delayqueue contributors
 */
final class BindFailureRecorder implements BindHandler {

	private static final List<ConfigurationPropertyName> BOUND_APART = List
		.of(ConfigurationPropertyName.of("delayqueue.topics"), ConfigurationPropertyName.of("delayqueue.schedules"));

	private final ConfigurationProblems problems;

	private final List<ConfigurationPropertyName> skipped;

	/**
	 * Create a recorder.
	 * @param problems where values that cannot be converted are recorded
	 */
	BindFailureRecorder(ConfigurationProblems problems) {
		this(problems, List.of());
	}

	private BindFailureRecorder(ConfigurationProblems problems, List<ConfigurationPropertyName> skipped) {
		this.problems = problems;
		this.skipped = skipped;
	}

	/**
	 * Record every value under {@code delayqueue} outside its topics and schedules that
	 * cannot be converted. {@link DelayQueueProperties} is bound ignoring them, so that
	 * they can all be reported here together; topics and schedules are bound, and
	 * checked, by {@link KeyedPropertiesBinder}.
	 * @param environment the environment
	 * @param problems where values that cannot be converted are recorded
	 */
	static void recordUnconvertibleValues(Environment environment, ConfigurationProblems problems) {
		Binder.get(environment)
			.bind("delayqueue", Bindable.of(DelayQueueProperties.class),
					new BindFailureRecorder(problems, BOUND_APART));
	}

	@Override
	public <T> @Nullable Bindable<T> onStart(ConfigurationPropertyName name, Bindable<T> target, BindContext context) {
		return this.skipped.contains(name) ? null : target;
	}

	@Override
	public @Nullable Object onFailure(ConfigurationPropertyName name, Bindable<?> target, BindContext context,
			Exception error) {
		ConfigurationProperty property = context.getConfigurationProperty();
		Throwable cause = (error.getCause() != null) ? error.getCause() : error;
		if (property != null) {
			this.problems.invalid(property.getName().toString(), property.getValue(), cause.getMessage());
		}
		else {
			this.problems.add("Cannot bind " + name + ": " + cause.getMessage());
		}
		return null;
	}

}
