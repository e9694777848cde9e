package io.github.delayqueue.test;

import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import org.jspecify.annotations.Nullable;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;
import org.springframework.test.context.TestContextAnnotationUtils;

/**
 * Gives every application context of a test annotated with
 * {@link AutoConfigureDelayQueue} a key prefix of its own: the configured one (or
 * {@code dq}) with {@code -test-} and a random suffix. The suffix is drawn when the
 * context is created, so contexts of the same configuration are still cached and shared
 * as usual.
 *
 * @author delayqueue contributors
 */
final class TestKeyPrefixContextCustomizerFactory implements ContextCustomizerFactory {

	/**
	 * The property that tells the test support the key prefix is the test's own, so its
	 * keys may all be deleted when the context closes.
	 */
	static final String OWN_KEY_PREFIX = "delayqueue-test.own-key-prefix";

	@Override
	public @Nullable ContextCustomizer createContextCustomizer(Class<?> testClass,
			List<ContextConfigurationAttributes> configAttributes) {
		return TestContextAnnotationUtils.hasAnnotation(testClass, AutoConfigureDelayQueue.class)
				? new TestKeyPrefixContextCustomizer() : null;
	}

	private static final class TestKeyPrefixContextCustomizer implements ContextCustomizer {

		@Override
		public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration mergedConfig) {
			ConfigurableEnvironment environment = context.getEnvironment();
			String base = environment.getProperty("delayqueue.key-prefix", "dq");
			byte[] suffix = new byte[4];
			ThreadLocalRandom.current().nextBytes(suffix);
			String prefix = base + "-test-" + HexFormat.of().formatHex(suffix);
			environment.getPropertySources()
				.addFirst(new MapPropertySource("delayqueueTestKeyPrefix",
						Map.of("delayqueue.key-prefix", prefix, OWN_KEY_PREFIX, "true")));
		}

		@Override
		public boolean equals(@Nullable Object other) {
			return other != null && other.getClass() == getClass();
		}

		@Override
		public int hashCode() {
			return getClass().hashCode();
		}

	}

}
