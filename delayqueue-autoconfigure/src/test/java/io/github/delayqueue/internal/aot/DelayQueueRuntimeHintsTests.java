package io.github.delayqueue.internal.aot;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

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
		assertThat(registeredFiles(DelayQueueRuntimeHints.SCRIPTS, "io/github/delayqueue/internal/store/scripts/"))
			.contains("claim.lua", "sweep.lua");
	}

	@Test
	void registersEveryLuaLibrary() throws IOException {
		assertThat(
				registeredFiles(DelayQueueRuntimeHints.LIBRARIES, "io/github/delayqueue/internal/store/scripts/lib/"))
			.contains("clock.lua", "timeline.lua");
	}

	private List<String> registeredFiles(String pattern, String folder) throws IOException {
		RuntimeHints hints = new RuntimeHints();
		new DelayQueueRuntimeHints().registerHints(hints, getClass().getClassLoader());
		List<String> names = new ArrayList<>();
		for (Resource resource : new PathMatchingResourcePatternResolver().getResources("classpath*:" + pattern)) {
			assertThat(RuntimeHintsPredicates.resource().forResource(folder + resource.getFilename())).accepts(hints);
			names.add(resource.getFilename());
		}
		return names;
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
