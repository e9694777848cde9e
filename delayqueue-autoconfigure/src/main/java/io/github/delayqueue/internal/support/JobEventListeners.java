package io.github.delayqueue.internal.support;

import java.time.Duration;
import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Passes each job event on to every registered {@link JobEventListener}, so that one
 * failing listener cannot disturb the queue or the others.
 *
 * @author delayqueue contributors
 */
public final class JobEventListeners implements JobEventListener {

	private static final Log logger = LogFactory.getLog(JobEventListeners.class);

	private final List<JobEventListener> listeners;

	/**
	 * Create a composite.
	 * @param listeners the listeners to call
	 */
	public JobEventListeners(List<JobEventListener> listeners) {
		this.listeners = List.copyOf(listeners);
	}

	/**
	 * Return a composite that tells nobody.
	 * @return an empty composite
	 */
	public static JobEventListeners none() {
		return new JobEventListeners(List.of());
	}

	@Override
	public void jobsSent(String topic, int count) {
		each((listener) -> listener.jobsSent(topic, count));
	}

	@Override
	public void deferredOperationFailed(String topic, String operation, int count) {
		each((listener) -> listener.deferredOperationFailed(topic, operation, count));
	}

	@Override
	public void jobStarted(String topic, Duration lateness) {
		each((listener) -> listener.jobStarted(topic, lateness));
	}

	@Override
	public void jobCompleted(String topic, Duration runTime) {
		each((listener) -> listener.jobCompleted(topic, runTime));
	}

	@Override
	public void jobFailed(String topic, Duration runTime, Throwable failure) {
		each((listener) -> listener.jobFailed(topic, runTime, failure));
	}

	@Override
	public void jobRetried(String topic) {
		each((listener) -> listener.jobRetried(topic));
	}

	@Override
	public void jobsDead(String topic, int count) {
		each((listener) -> listener.jobsDead(topic, count));
	}

	@Override
	public void jobsExpired(String topic, int count) {
		each((listener) -> listener.jobsExpired(topic, count));
	}

	private void each(java.util.function.Consumer<JobEventListener> event) {
		for (JobEventListener listener : this.listeners) {
			try {
				event.accept(listener);
			}
			catch (RuntimeException ex) {
				logger.warn("Job event listener " + listener + " failed", ex);
			}
		}
	}

}
