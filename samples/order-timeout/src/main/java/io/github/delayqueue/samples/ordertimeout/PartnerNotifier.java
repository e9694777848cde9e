package io.github.delayqueue.samples.ordertimeout;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayedJob;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.core.env.Environment;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.stereotype.Component;
import org.springframework.web.client.RestClient;

/**
 * Calls the partner's webhook for each closed order. A failed call throws, so the queue
 * retries it on the topic's backoff schedule and parks it as dead after the topic's
 * {@code max-attempts}.
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
		catch (RuntimeException ex) {
			logger.info("Partner call for order " + job.payload().orderId() + " failed on attempt " + job.attempt()
					+ ": " + ex.getMessage());
			throw ex;
		}
		this.delivered.incrementAndGet();
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
