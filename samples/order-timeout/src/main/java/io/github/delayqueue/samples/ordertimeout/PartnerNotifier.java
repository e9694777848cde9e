package io.github.delayqueue.samples.ordertimeout;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayedJob;
import io.github.delayqueue.core.RateLimitedException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.core.env.Environment;
import org.springframework.http.HttpHeaders;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.stereotype.Component;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.RestClient;

/**
 * Calls the partner's webhook for each closed order. A failed call throws, so the queue
 * retries it on the topic's backoff schedule and parks it as dead after the topic's
 * {@code max-attempts}. The topic's rate limit (see {@code application.yml}) keeps the
 * calls of every instance together under the partner's limit; should the partner still
 * answer 429, the call runs again after its {@code Retry-After} without spending an
 * attempt.
 *
 * @author delayqueue contributors
 */
@Component
public class PartnerNotifier {

	private static final Log logger = LogFactory.getLog(PartnerNotifier.class);

	private final RestClient restClient;

	private final Environment environment;

	private final AtomicLong delivered = new AtomicLong();

	private final AtomicLong retried = new AtomicLong();

	public PartnerNotifier(Environment environment) {
		JdkClientHttpRequestFactory requestFactory = new JdkClientHttpRequestFactory();
		requestFactory.setReadTimeout(Duration.ofSeconds(5));
		this.restClient = RestClient.builder().requestFactory(requestFactory).build();
		this.environment = environment;
	}

	@DelayedJobListener(OrderClosed.TOPIC)
	void notifyPartner(DelayedJob<OrderClosed> job) {
		if (job.attempt() == 2) {
			this.retried.incrementAndGet();
		}
		// Read on each call: the default URL names this application's own port, known
		// only once the web server runs.
		String url = this.environment.getRequiredProperty("partner.url");
		try {
			this.restClient.post().uri(url).body(job.payload()).retrieve().toBodilessEntity();
		}
		catch (HttpClientErrorException.TooManyRequests ex) {
			throw new RateLimitedException("Partner asked to wait", retryAfter(ex.getResponseHeaders()), ex);
		}
		catch (RuntimeException ex) {
			logger.info("Partner call for order " + job.payload().orderId() + " failed on attempt " + job.attempt()
					+ ": " + ex.getMessage());
			throw ex;
		}
		this.delivered.incrementAndGet();
	}

	// Retry-After in seconds; a date or nothing waits a second.
	private static Duration retryAfter(@Nullable HttpHeaders headers) {
		String value = (headers != null) ? headers.getFirst(HttpHeaders.RETRY_AFTER) : null;
		if (value != null && value.matches("\\d{1,9}")) {
			return Duration.ofSeconds(Long.parseLong(value));
		}
		return Duration.ofSeconds(1);
	}

	/**
	 * Return how many notifications the partner accepted.
	 * @return the count
	 */
	public long delivered() {
		return this.delivered.get();
	}

	/**
	 * Return how many notifications needed at least one retry.
	 * @return the count
	 */
	public long retried() {
		return this.retried.get();
	}

}
