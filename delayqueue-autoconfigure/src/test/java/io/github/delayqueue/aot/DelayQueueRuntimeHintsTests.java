package io.github.delayqueue.aot;

import java.io.IOException;

import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.beans.factory.aot.AotServices;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link DelayQueueRuntimeHints}.
 */
class DelayQueueRuntimeHintsTests {

	@Test
	void registersEveryLuaScript() throws IOException {
		RuntimeHints hints = new RuntimeHints();
		new DelayQueueRuntimeHints().registerHints(hints, getClass().getClassLoader());
		Resource[] scripts = new PathMatchingResourcePatternResolver()
			.getResources("classpath*:" + DelayQueueRuntimeHints.SCRIPTS);
		assertThat(scripts).extracting(Resource::getFilename).contains("claim.lua", "prelude.lua", "sweep.lua");
		for (Resource script : scripts) {
			assertThat(RuntimeHintsPredicates.resource()
				.forResource("io/github/delayqueue/store/scripts/" + script.getFilename())).accepts(hints);
		}
	}

	@Test
	void registersTheVersionThatHttpCallbacksSend() {
		RuntimeHints hints = new RuntimeHints();
		new DelayQueueRuntimeHints().registerHints(hints, getClass().getClassLoader());
		assertThat(new PathMatchingResourcePatternResolver().getResource("classpath:" + DelayQueueRuntimeHints.VERSION)
			.exists()).isTrue();
		assertThat(RuntimeHintsPredicates.resource().forResource(DelayQueueRuntimeHints.VERSION)).accepts(hints);
	}

	@Test
	void isRegisteredInAotFactories() {
		assertThat(AotServices.factories().load(RuntimeHintsRegistrar.class))
			.hasAtLeastOneElementOfType(DelayQueueRuntimeHints.class);
	}

}
