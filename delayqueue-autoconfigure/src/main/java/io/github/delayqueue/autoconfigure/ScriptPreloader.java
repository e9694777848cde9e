package io.github.delayqueue.autoconfigure;

import io.github.delayqueue.internal.store.ScriptRunner;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.SmartLifecycle;

/**
 * Loads the delay queue's scripts into Redis while the application starts, on every
 * instance and before anything else of the starter or the web server starts, so that no
 * first call finds its script missing: that call would fail with {@code NOSCRIPT} and
 * send the script again, through exception paths no later call takes. When Redis cannot
 * be reached then, start-up goes on and each script loads on its first use.
 *
 * @author delayqueue contributors
 */
final class ScriptPreloader implements SmartLifecycle {

	/**
	 * Early: before the web server, the scheduler and the listeners start.
	 */
	static final int PHASE = Integer.MIN_VALUE + 1000;

	private static final Log logger = LogFactory.getLog(ScriptPreloader.class);

	private final ScriptRunner scripts;

	private volatile boolean running;

	ScriptPreloader(ScriptRunner scripts) {
		this.scripts = scripts;
	}

	@Override
	public void start() {
		try {
			this.scripts.loadAll();
		}
		catch (RuntimeException ex) {
			logger.debug("Could not load the delay queue's scripts at start-up; each loads on its first use", ex);
		}
		this.running = true;
	}

	@Override
	public void stop() {
		this.running = false;
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

}
