package io.github.delayqueue.listener;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadPoolExecutor;

import io.github.delayqueue.core.DeadJob;
import io.github.delayqueue.core.DeadJobListener;
import io.github.delayqueue.internal.store.DelayQueueKeys;
import io.github.delayqueue.internal.store.JobStore;
import io.github.delayqueue.internal.store.StoredJob;
import io.github.delayqueue.internal.support.DelayQueueThreads;
import io.github.delayqueue.internal.support.ExpiredDeadJobsListener;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Tells the application's {@link DeadJobListener}s of each job that became dead on this
 * instance: at once, on the burying thread, for a handler's failure; on a thread of its
 * own, after reading the jobs, for those the scheduler made dead when their time to run
 * elapsed, so that the scheduler keeps its time. A listener that throws is logged and
 * changes nothing. Internal: created by the auto-configuration.
 *
 * @author delayqueue contributors
 */
public final class DeadJobNotifier implements ExpiredDeadJobsListener {

	private static final Log logger = LogFactory.getLog(DeadJobNotifier.class);

	private static final DeadJobNotifier NONE = new DeadJobNotifier(List.of(), null, DelayQueueThreads.platform());

	private final List<DeadJobListener> listeners;

	private final @Nullable JobStore store;

	private final DelayQueueThreads threads;

	private @Nullable ThreadPoolExecutor executor;

	/**
	 * Create a notifier.
	 * @param listeners the listeners, in order
	 * @param store reads the jobs the scheduler made dead, or {@code null} where this
	 * notifier only hears of handlers' failures
	 * @param threads where the thread that tells the listeners comes from
	 */
	public DeadJobNotifier(List<DeadJobListener> listeners, @Nullable JobStore store, DelayQueueThreads threads) {
		this.listeners = List.copyOf(listeners);
		this.store = store;
		this.threads = threads;
	}

	/**
	 * Return a notifier that tells nobody.
	 * @return the notifier
	 */
	public static DeadJobNotifier none() {
		return NONE;
	}

	/**
	 * Tell every listener of a job that became dead, on the calling thread.
	 * @param job the job
	 */
	public void jobDied(DeadJob job) {
		for (DeadJobListener listener : this.listeners) {
			try {
				listener.jobDied(job);
			}
			catch (RuntimeException ex) {
				logger.warn("Dead job listener " + listener + " failed for job '" + job.id() + "' of topic '"
						+ job.topic() + "'", ex);
			}
		}
	}

	@Override
	public void jobsDied(String queue, List<String> ids) {
		if (this.listeners.isEmpty() || this.store == null) {
			return;
		}
		executor().execute(() -> {
			String topic = DelayQueueKeys.topicOf(queue);
			for (String id : ids) {
				readAndTell(topic, id);
			}
		});
	}

	private void readAndTell(String topic, String id) {
		Optional<StoredJob> stored;
		try {
			stored = this.store.find(topic, id);
		}
		catch (RuntimeException ex) {
			logger.warn("Could not read job '" + id + "' of topic '" + topic
					+ "', dead after its time to run elapsed; its dead-job listeners are not told", ex);
			return;
		}
		stored.ifPresentOrElse(
				(job) -> jobDied(new DeadJob(job.id(), job.topic(), job.attempts(), DeadJob.Cause.TIME_TO_RUN_ELAPSED,
						(job.lastError() != null) ? job.lastError() : "Time to run elapsed", null, job.headers(),
						job.payloadJson())),
				() -> logger.debug("Job '" + id + "' of topic '" + topic
						+ "' died when its time to run elapsed and was gone before its listeners were told"));
	}

	// One thread, started at the first death and ended when idle, so that an instance
	// whose jobs never die by their time to run has none.
	private synchronized ThreadPoolExecutor executor() {
		if (this.executor == null) {
			this.executor = this.threads.pool("delayqueue-dead-jobs-", 1, Duration.ofSeconds(10), true);
		}
		return this.executor;
	}

}
