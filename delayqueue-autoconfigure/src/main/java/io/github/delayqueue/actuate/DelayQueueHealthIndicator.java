package io.github.delayqueue.actuate;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.github.delayqueue.listener.ListenerPresence;
import io.github.delayqueue.store.JobStore;
import org.jspecify.annotations.Nullable;

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
 * runs on a thread of its own: a probe answers within the bound (two seconds by default)
 * even when the client's command timeout ({@code spring.data.redis.timeout}, 60 seconds
 * by default) is far longer. While a check is stuck, later probes do not pile up more of
 * them: they answer down at once.
 *
 * @author delayqueue contributors
 */
public class DelayQueueHealthIndicator implements HealthIndicator, DisposableBean {

	/**
	 * How long a probe waits for Redis unless told otherwise.
	 */
	public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(2);

	private final JobStore store;

	private final ListenerPresence presence;

	// Read and written on the check's one thread only.
	private List<ListenerPresence.Instance> instances = List.of();

	private long instancesReadAt;

	private boolean instancesRead;

	private final Duration timeout;

	private final String notAnswered;

	// One thread, and a new check only once the last one finished: never more than one
	// check in flight.
	private final ExecutorService executor = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
			new LinkedBlockingQueue<>(), (task) -> {
				Thread thread = new Thread(task, "delayqueue-health");
				thread.setDaemon(true);
				return thread;
			});

	private @Nullable Check inFlight;

	/**
	 * Create the indicator with the {@linkplain #DEFAULT_TIMEOUT default timeout}.
	 * @param store where the topics are read
	 * @param presence tells which topics have listeners
	 */
	public DelayQueueHealthIndicator(JobStore store, ListenerPresence presence) {
		this(store, presence, DEFAULT_TIMEOUT);
	}

	/**
	 * Create the indicator.
	 * @param store where the topics are read
	 * @param presence tells which topics have listeners
	 * @param timeout how long a probe waits for Redis
	 */
	public DelayQueueHealthIndicator(JobStore store, ListenerPresence presence, Duration timeout) {
		this.store = store;
		this.presence = presence;
		this.timeout = timeout;
		this.notAnswered = "Redis did not answer within " + format(timeout);
	}

	@Override
	public Health health() {
		Check check = currentCheck();
		long remaining = this.timeout.toNanos() - (System.nanoTime() - check.startedAt());
		if (remaining <= 0) {
			return Health.down().withDetail("error", this.notAnswered).build();
		}
		try {
			return check.result().get(remaining, TimeUnit.NANOSECONDS);
		}
		catch (TimeoutException ex) {
			return Health.down().withDetail("error", this.notAnswered).build();
		}
		catch (ExecutionException ex) {
			return Health.down((ex.getCause() instanceof Exception cause) ? cause : ex).build();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return Health.down(ex).build();
		}
	}

	// Probes that arrive while a check runs share it rather than start another.
	private synchronized Check currentCheck() {
		Check check = this.inFlight;
		if (check == null || check.result().isDone()) {
			check = new Check(this.executor.submit(this::check), System.nanoTime());
			this.inFlight = check;
		}
		return check;
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
		this.executor.shutdownNow();
	}

	private static String format(Duration duration) {
		return (duration.toMillis() % 1000 == 0) ? duration.toSeconds() + "s" : duration.toMillis() + "ms";
	}

	private record Check(Future<Health> result, long startedAt) {

	}

}
