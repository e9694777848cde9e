package io.github.delayqueue.internal.presence;

import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import io.github.delayqueue.internal.support.DelayQueueThreads;
import io.github.delayqueue.listener.DelayedJobListenerEndpointRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.SmartLifecycle;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.QueryTimeoutException;

/**
 * Publishes this instance's listeners to the {@link ListenerPresence} hash on a beat,
 * from when the listeners start until they stop, then removes the entry. The beat also
 * gives the {@link EmptyTopicPruner}, when there is one, its turn.
 * <p>
 * Redis being down at start or later breaks nothing: the beat logs one warning per outage
 * and tries again on its next turn.
 *
 * @author delayqueue contributors
 */
public class ListenerPresencePublisher implements SmartLifecycle {

	/**
	 * The lifecycle phase: just after the listener registry on start, just before it on
	 * stop.
	 */
	public static final int PHASE = DelayedJobListenerEndpointRegistry.PHASE + 1;

	private static final Log logger = LogFactory.getLog(ListenerPresencePublisher.class);

	private static final Duration STOP_TIMEOUT = Duration.ofSeconds(2);

	private final ListenerPresence presence;

	private final DelayedJobListenerEndpointRegistry registry;

	private final @Nullable EmptyTopicPruner pruner;

	private final String host = ListenerPresence.hostName();

	// Random per process, so that two processes on one host never share an entry; the
	// host name is there for people.
	private final String instanceId = this.host + ":"
			+ HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());

	private volatile @Nullable ScheduledExecutorService executor;

	private volatile boolean failing;

	private DelayQueueThreads threads = DelayQueueThreads.platform();

	/**
	 * Create a publisher.
	 * @param presence the hash to publish to
	 * @param registry this instance's listeners
	 * @param pruner the pruner of empty topics, or {@code null} for none
	 */
	public ListenerPresencePublisher(ListenerPresence presence, DelayedJobListenerEndpointRegistry registry,
			@Nullable EmptyTopicPruner pruner) {
		this.presence = presence;
		this.registry = registry;
		this.pruner = pruner;
	}

	/**
	 * Return the id of this instance's entry.
	 * @return the instance id
	 */
	public String getInstanceId() {
		return this.instanceId;
	}

	/**
	 * Set where the heartbeat's thread comes from, typically the starter's threads built
	 * by Spring Boot's task executor builder. A plain platform thread when not set.
	 * @param threads the threads
	 */
	public void setThreads(DelayQueueThreads threads) {
		this.threads = threads;
	}

	@Override
	public void start() {
		ScheduledExecutorService beat = this.threads.scheduler("delayqueue-presence");
		long interval = this.presence.getRefreshInterval().toMillis();
		beat.scheduleWithFixedDelay(this::beat, 0, interval, TimeUnit.MILLISECONDS);
		this.executor = beat;
	}

	/**
	 * Publish this instance's listeners once, then let the pruner take its turn.
	 */
	void beat() {
		try {
			List<ListenerPresence.Listener> listeners = this.registry.getListenerContainers()
				.stream()
				.map(ListenerPresence.Listener::of)
				.toList();
			// Only instances that run listeners take part; the others cost Redis nothing.
			if (!listeners.isEmpty()) {
				this.presence.publish(this.instanceId, this.host, listeners);
			}
			if (this.pruner != null) {
				this.pruner.pruneIfDue();
			}
			if (this.failing) {
				this.failing = false;
				logger.info("Listener presence published again to " + this.presence.getKey());
			}
		}
		catch (RuntimeException ex) {
			// One message per outage: the beat keeps failing until Redis is back.
			if (!this.failing) {
				this.failing = true;
				log(ex, "Cannot publish listener presence to " + this.presence.getKey() + "; retrying every "
						+ this.presence.getRefreshInterval().toSeconds() + "s: " + ex);
			}
		}
	}

	@Override
	public void stop() {
		ScheduledExecutorService beat = this.executor;
		if (beat == null) {
			return;
		}
		this.executor = null;
		// The removal runs on the beat's thread with a bound, so that a Redis that does
		// not answer cannot hold up shutdown for the client's whole command timeout.
		beat.execute(this::remove);
		beat.shutdown();
		try {
			if (!beat.awaitTermination(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
				beat.shutdownNow();
			}
		}
		catch (InterruptedException ex) {
			beat.shutdownNow();
			Thread.currentThread().interrupt();
		}
	}

	private void remove() {
		try {
			this.presence.remove(this.instanceId);
		}
		catch (RuntimeException ex) {
			log(ex, "Cannot remove listener presence from " + this.presence.getKey()
					+ "; readers will ignore it once it is stale: " + ex);
		}
	}

	// Redis being unreachable is already the listener containers' warning; a second one
	// for the same outage would only add noise.
	private static void log(RuntimeException ex, String message) {
		if (ex instanceof DataAccessResourceFailureException || ex instanceof QueryTimeoutException) {
			logger.info(message);
		}
		else {
			logger.warn(message);
		}
	}

	@Override
	public boolean isRunning() {
		return this.executor != null;
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

}
