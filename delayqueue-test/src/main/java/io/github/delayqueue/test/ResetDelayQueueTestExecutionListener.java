package io.github.delayqueue.test;

import org.springframework.context.ApplicationContext;
import org.springframework.test.context.TestContext;
import org.springframework.test.context.TestContextAnnotationUtils;
import org.springframework.test.context.support.AbstractTestExecutionListener;

/**
 * Resets the {@link DelayQueueTester} before each test method of a test annotated with
 * {@link AutoConfigureDelayQueue}, unless its {@code resetBeforeEachTest} is
 * {@code false}: the test starts with no job in its key prefix and nothing recorded.
 *
 * @author delayqueue contributors
 */
final class ResetDelayQueueTestExecutionListener extends AbstractTestExecutionListener {

	private static final String RESET_PROPERTY = "delayqueue-test.reset-before-each-test";

	@Override
	public int getOrder() {
		// After dependency injection and before transactional and SQL script listeners.
		return 3500;
	}

	@Override
	public void beforeTestMethod(TestContext testContext) {
		if (!TestContextAnnotationUtils.hasAnnotation(testContext.getTestClass(), AutoConfigureDelayQueue.class)) {
			return;
		}
		ApplicationContext context = testContext.getApplicationContext();
		if (context.getEnvironment().getProperty(RESET_PROPERTY, Boolean.class, true)) {
			context.getBeanProvider(DelayQueueTester.class).ifAvailable(DelayQueueTester::reset);
		}
	}

}
