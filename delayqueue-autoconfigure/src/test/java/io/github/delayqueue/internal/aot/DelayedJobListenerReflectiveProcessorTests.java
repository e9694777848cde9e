package io.github.delayqueue.internal.aot;

import java.util.List;
import java.util.Map;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayedJob;
import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.annotation.ReflectiveRuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.ReflectionHintsPredicates;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link DelayedJobListenerReflectiveProcessor}, reached as Spring AOT reaches
 * it: through the {@code @Reflective} meta-annotation on {@link DelayedJobListener}.
 */
class DelayedJobListenerReflectiveProcessorTests {

	private final ReflectionHintsPredicates reflection = RuntimeHintsPredicates.reflection();

	@Test
	void registersListenerMethodsForInvocation() {
		RuntimeHints hints = hintsFor(Listeners.class);
		assertThat(this.reflection.onMethodInvocation(Listeners.class, "onTimeout")).accepts(hints);
		assertThat(this.reflection.onMethodInvocation(Listeners.class, "onJob")).accepts(hints);
		assertThat(this.reflection.onMethodInvocation(Listeners.class, "notAListener")).rejects(hints);
	}

	@Test
	void registersPayloadParametersForBinding() {
		RuntimeHints hints = hintsFor(Listeners.class);
		assertThat(this.reflection.onMethodInvocation(OrderTimeout.class, "orderId")).accepts(hints);
		assertThat(this.reflection.onType(OrderTimeout.class)).accepts(hints);
	}

	@Test
	void registersTheTypeArgumentOfDelayedJobParametersForBinding() {
		RuntimeHints hints = hintsFor(Listeners.class);
		assertThat(this.reflection.onMethodInvocation(Mail.class, "to")).accepts(hints);
		assertThat(this.reflection.onType(DelayedJob.class)).rejects(hints);
	}

	@Test
	void registersTypesNamedInGenericPayloads() {
		RuntimeHints hints = hintsFor(Listeners.class);
		assertThat(this.reflection.onMethodInvocation(Line.class, "sku")).accepts(hints);
	}

	@Test
	void registersNothingForAClassWithoutListeners() {
		RuntimeHints hints = hintsFor(Mail.class);
		assertThat(hints.reflection().typeHints()).isEmpty();
	}

	private static RuntimeHints hintsFor(Class<?> beanClass) {
		RuntimeHints hints = new RuntimeHints();
		new ReflectiveRuntimeHintsRegistrar().registerRuntimeHints(hints, beanClass);
		return hints;
	}

	static class Listeners {

		@DelayedJobListener("orders.timeout")
		void onTimeout(OrderTimeout timeout) {
		}

		@DelayedJobListener("mail")
		void onJob(DelayedJob<Mail> job) {
		}

		@DelayedJobListener("orders.lines")
		void onLines(DelayedJob<Map<String, List<Line>>> job) {
		}

		void notAListener(String text) {
		}

	}

	record OrderTimeout(long orderId) {
	}

	record Mail(String to) {
	}

	record Line(String sku) {
	}

}
