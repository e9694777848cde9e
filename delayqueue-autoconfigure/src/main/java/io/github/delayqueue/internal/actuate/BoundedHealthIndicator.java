package io.github.delayqueue.internal.actuate;

import java.time.Duration;

import io.github.delayqueue.internal.support.DelayQueueThreads;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Another health indicator, waited for at most a bound: the starter wraps Spring Boot's
 * {@code redis} indicator in one, which otherwise waits for Redis as long as
 * {@code spring.data.redis.timeout} (60 seconds unless set), so that the whole health
 * endpoint answers down within seconds when Redis is gone, without shortening the timeout
 * of the application's own Redis commands. The indicator's check runs on a thread of its
 * own, one at a time; its details are the wrapped indicator's.
 *
 * @author delayqueue contributors
 */
public class BoundedHealthIndicator implements HealthIndicator, DisposableBean {

	/**
	 * How long a probe waits for the wrapped indicator unless told otherwise.
	 */
	public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(1);

	private final BoundedHealthCheck bounded;

	/**
	 * Bound an indicator.
	 * @param indicator the indicator
	 * @param timeout how long a probe waits for it
	 * @param threads where the thread that runs the indicator comes from
	 */
	public BoundedHealthIndicator(HealthIndicator indicator, Duration timeout, DelayQueueThreads threads) {
		this.bounded = new BoundedHealthCheck(threads, "delayqueue-bounded-health", timeout,
				"No answer within " + BoundedHealthCheck.format(timeout), indicator::health);
	}

	@Override
	public Health health() {
		return this.bounded.health();
	}

	@Override
	public void destroy() {
		this.bounded.close();
	}

}
