package io.github.delayqueue.test;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.SmartLifecycle;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * Deletes every key of the test's own key prefix when the test's application context
 * closes, so that the Redis the tests use keeps nothing of the test. It stops after the
 * listeners, the schedulers and the history flush (which still write as they stop) and
 * before the Redis connection factory, which would refuse the deletes once stopped.
 *
 * @author delayqueue contributors
 */
final class TestKeysCleanup implements SmartLifecycle {

	private static final Log logger = LogFactory.getLog(TestKeysCleanup.class);

	private final QueueWipe wipe;

	private final int phase;

	private final boolean redisEndsWithTheJvm;

	private volatile boolean running;

	/**
	 * Create a clean-up that runs before a connection factory stops.
	 * @param wipe deletes the keys
	 * @param connectionFactory the factory the keys are deleted through
	 * @param redisEndsWithTheJvm whether the Redis was started for the tests (embedded,
	 * or a container), so that its keys end with the JVM anyway
	 */
	TestKeysCleanup(QueueWipe wipe, RedisConnectionFactory connectionFactory, boolean redisEndsWithTheJvm) {
		this.wipe = wipe;
		this.redisEndsWithTheJvm = redisEndsWithTheJvm;
		int factoryPhase = (connectionFactory instanceof SmartLifecycle lifecycle) ? lifecycle.getPhase() : 0;
		// Just above the factory: stopped right before it, after anything of a higher
		// phase.
		this.phase = (factoryPhase == Integer.MAX_VALUE) ? factoryPhase : factoryPhase + 1;
	}

	@Override
	public void start() {
		this.running = true;
	}

	@Override
	public void stop() {
		this.running = false;
		if (this.redisEndsWithTheJvm && jvmShuttingDown()) {
			// The contexts the test framework kept close as the JVM ends, while the Redis
			// started for the tests may be going down beside them: a wipe would wait for
			// it in vain, and its keys go with it.
			logger.debug("Not deleting the keys of the test's key prefix: the JVM ends, and the test Redis with it");
			return;
		}
		try {
			long deleted = this.wipe.all();
			if (logger.isDebugEnabled()) {
				logger.debug("Deleted the " + deleted + " keys of the test's key prefix");
			}
		}
		catch (RuntimeException ex) {
			logger.warn("Could not delete the keys of the test's key prefix", ex);
		}
	}

	private static boolean jvmShuttingDown() {
		Thread probe = new Thread(() -> {
		}, "delayqueue-test-shutdown-probe");
		try {
			Runtime.getRuntime().addShutdownHook(probe);
			Runtime.getRuntime().removeShutdownHook(probe);
			return false;
		}
		catch (IllegalStateException ex) {
			return true;
		}
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return this.phase;
	}

}
