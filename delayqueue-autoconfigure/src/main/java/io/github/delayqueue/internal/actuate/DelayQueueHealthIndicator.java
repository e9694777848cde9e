package io.github.delayqueue.internal.actuate;

import java.time.Duration;
import java.util.List;
import java.util.Set;

import io.github.delayqueue.internal.presence.ListenerPresence;
import io.github.delayqueue.internal.store.JobStore;
import io.github.delayqueue.internal.support.DelayQueueThreads;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Health of the delay queue: up when its Redis answers within a bound of its own, with
 * the number of topics and the topics that no instance listens to as details; down when
 * Redis fails or does not answer in time.
 * <p>
 * The check costs one Redis call, so that a probe stays cheap with any number of topics
 * (plus a read of the listeners' presence at most once per its refresh interval), and
 * runs on a thread of its own: a probe answers within the bound (one second by default)
 * even when the client's command timeout ({@code spring.data.redis.timeout}, 60 seconds
 * by default) is far longer. While a check is stuck, later probes do not pile up more of
 * them: they answer down at once.
 *
 * @author delayqueue contributors
 */
public class DelayQueueHealthIndicator implements HealthIndicator, DisposableBean {

	/**
	 * How long a probe waits for Redis unless told otherwise: with Spring Boot's
	 * {@code redis} component bounded alike ({@link BoundedHealthIndicator}), the whole
	 * health endpoint answers within two seconds whatever Redis does.
	 */
	public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(1);

	private final JobStore store;

	private final ListenerPresence presence;

	// Read and written on the check's one thread only.
	private List<ListenerPresence.Instance> instances = List.of();

	private long instancesReadAt;

	private boolean instancesRead;

	private final BoundedHealthCheck bounded;

	/**
	 * Create the indicator with the {@linkplain #DEFAULT_TIMEOUT default timeout}.
	 * @param store where the topics are read
	 * @param presence tells which topics have listeners
	 * @param threads where the thread that reads Redis comes from
	 */
	public DelayQueueHealthIndicator(JobStore store, ListenerPresence presence, DelayQueueThreads threads) {
		this(store, presence, DEFAULT_TIMEOUT, threads);
	}

	/**
	 * Create the indicator.
	 * @param store where the topics are read
	 * @param presence tells which topics have listeners
	 * @param timeout how long a probe waits for Redis
	 * @param threads where the thread that reads Redis comes from
	 */
	public DelayQueueHealthIndicator(JobStore store, ListenerPresence presence, Duration timeout,
			DelayQueueThreads threads) {
		this.store = store;
		this.presence = presence;
		this.bounded = new BoundedHealthCheck(threads, "delayqueue-health", timeout,
				"Redis did not answer within " + BoundedHealthCheck.format(timeout), this::check);
	}

	@Override
	public Health health() {
		return this.bounded.health();
	}

	/**
	 * Ask Redis once, on the indicator's own thread.
	 * @return the health
	 */
	protected Health check() {
		Set<String> topics = this.store.topics();
		long now = System.nanoTime();
		if (!this.instancesRead || now - this.instancesReadAt > this.presence.getRefreshInterval().toNanos()) {
			this.instances = this.presence.read();
			this.instancesReadAt = now;
			this.instancesRead = true;
		}
		return Health.up()
			.withDetail("topics", topics.size())
			.withDetail("topicsWithoutListeners", ListenerPresence.topicsWithoutListeners(topics, this.instances))
			.build();
	}

	@Override
	public void destroy() {
		this.bounded.close();
	}

}
