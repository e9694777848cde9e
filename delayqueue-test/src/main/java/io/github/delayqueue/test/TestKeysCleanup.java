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

	private volatile boolean running;

	/**
	 * Create a clean-up that runs before a connection factory stops.
	 * @param wipe deletes the keys
	 * @param connectionFactory the factory the keys are deleted through
	 */
	TestKeysCleanup(QueueWipe wipe, RedisConnectionFactory connectionFactory) {
		this.wipe = wipe;
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

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return this.phase;
	}

}
