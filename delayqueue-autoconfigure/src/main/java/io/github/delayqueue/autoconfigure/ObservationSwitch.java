package io.github.delayqueue.autoconfigure;

import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Tracer;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.util.ClassUtils;

/**
 * Decides which {@link ObservationRegistry} the starter observes its sends and handler
 * runs with. Unless {@code delayqueue.observation.enabled} says otherwise, only an
 * application that traces gets them: a trace from send to handle is what they are for,
 * and without a tracer they would only add a timer beside the starter's own meters, at a
 * cost measured at about a tenth of a single send's rate and 13 to 25 % of the drain's in
 * an application with Actuator.
 *
 * @author delayqueue contributors
 */
final class ObservationSwitch {

	private static final boolean TRACING_PRESENT = ClassUtils.isPresent("io.micrometer.tracing.Tracer",
			ObservationSwitch.class.getClassLoader());

	private ObservationSwitch() {
	}

	/**
	 * Return the registry to observe with.
	 * @param settings the observation settings
	 * @param registry the application's registry, if any
	 * @param beanFactory where the application's tracer, if any, is found
	 * @return the registry, {@link ObservationRegistry#NOOP} when nothing is observed
	 */
	static ObservationRegistry registry(DelayQueueProperties.Observation settings,
			ObjectProvider<ObservationRegistry> registry, ListableBeanFactory beanFactory) {
		Boolean enabled = settings.getEnabled();
		boolean observed = (enabled != null) ? enabled : tracing(beanFactory);
		return observed ? registry.getIfUnique(() -> ObservationRegistry.NOOP) : ObservationRegistry.NOOP;
	}

	private static boolean tracing(ListableBeanFactory beanFactory) {
		return TRACING_PRESENT && Tracers.hasTracer(beanFactory);
	}

	// Apart, so that the class loads only when Micrometer Tracing is on the classpath.
	private static final class Tracers {

		// Spring Boot defines the no-op tracer when Micrometer Tracing is present without
		// a bridge: nothing is traced then.
		static boolean hasTracer(ListableBeanFactory beanFactory) {
			return beanFactory.getBeanProvider(Tracer.class).stream().anyMatch((tracer) -> tracer != Tracer.NOOP);
		}

	}

}
