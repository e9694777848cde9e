package io.github.delayqueue.internal.history;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.github.delayqueue.internal.support.DelayQueueThreads;
import io.github.delayqueue.listener.DelayedJobListenerEndpointRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.SmartLifecycle;

/**
 * Writes this instance's {@link ThroughputCounters} to the {@link ThroughputHistory}
 * every few seconds, one round trip per flush, and once more when the application stops,
 * after its listeners have finished. Counts a flush could not write are kept for the next
 * one.
 *
 * @author delayqueue contributors
 */
public class ThroughputFlusher implements SmartLifecycle {

	/**
	 * Stops after the listeners, so that the counts of their last jobs are written.
	 */
	public static final int PHASE = DelayedJobListenerEndpointRegistry.PHASE - 1;

	/**
	 * How often counts are written unless told otherwise.
	 */
	public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(5);

	private static final Log logger = LogFactory.getLog(ThroughputFlusher.class);

	private final ThroughputCounters counters;

	private final ThroughputHistory history;

	private final Duration interval;

	private final Object lifecycleMonitor = new Object();

	private @Nullable ScheduledExecutorService executor;

	private DelayQueueThreads threads = DelayQueueThreads.platform();

	/**
	 * Create a flusher.
	 * @param counters what this instance counted
	 * @param history where the counts go
	 * @param interval how often they are written
	 */
	public ThroughputFlusher(ThroughputCounters counters, ThroughputHistory history, Duration interval) {
		this.counters = counters;
		this.history = history;
		this.interval = interval;
	}

	/**
	 * Write the counts made since the last flush; keep them for the next one if Redis
	 * cannot take them now.
	 */
	public void flush() {
		Map<String, Map<Outcome, Long>> counts = this.counters.take();
		try {
			this.history.record(counts);
		}
		catch (RuntimeException ex) {
			this.counters.restore(counts);
			logger.debug("Cannot write the throughput history; keeping the counts for the next flush", ex);
		}
	}

	/**
	 * Set where the flusher's thread comes from, typically the starter's threads built by
	 * Spring Boot's task executor builder. A plain platform thread when not set.
	 * @param threads the threads
	 */
	public void setThreads(DelayQueueThreads threads) {
		this.threads = threads;
	}

	@Override
	public void start() {
		synchronized (this.lifecycleMonitor) {
			if (this.executor != null) {
				return;
			}
			ScheduledExecutorService started = this.threads.scheduler("delayqueue-history");
			long millis = this.interval.toMillis();
			started.scheduleWithFixedDelay(this::flush, millis, millis, TimeUnit.MILLISECONDS);
			this.executor = started;
		}
	}

	@Override
	public void stop() {
		ScheduledExecutorService stopped;
		synchronized (this.lifecycleMonitor) {
			stopped = this.executor;
			this.executor = null;
		}
		if (stopped != null) {
			stopped.shutdown();
			try {
				stopped.awaitTermination(this.interval.toMillis(), TimeUnit.MILLISECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			flush();
		}
	}

	@Override
	public boolean isRunning() {
		synchronized (this.lifecycleMonitor) {
			return this.executor != null;
		}
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

}
