package io.github.delayqueue.core;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * Thrown by a listener method when the service it called refused for now because of its
 * rate limit, for example with HTTP 429 and {@code Retry-After}: the job runs again after
 * that wait <em>without spending an attempt</em>, however often it happens, since the job
 * did not fail. With
 * {@code delayqueue.topics.<topic>.rate-limit.pause-topic-on-429: true} the whole topic
 * holds back for that wait on every instance, not only this job, so that the other jobs
 * of the topic do not knock at the same closed door.
 *
 * <pre class="code">
 * &#064;DelayedJobListener("partner.calls")
 * void notify(PartnerNotice notice) {
 *     PartnerAnswer answer = partner.post(notice);
 *     if (answer.status() == 429) {
 *         throw new RateLimitedException(answer.retryAfter());
 *     }
 * }
 * </pre>
 * <p>
 * HTTP callback jobs throw it by themselves on 429 and 503 answers with
 * {@code Retry-After}. It is a {@link RetryJobException} whose attempt is given back.
 *
 * @author delayqueue contributors
 */
public class RateLimitedException extends RetryJobException {

	/**
	 * Create an exception asking for the job to run again after a wait.
	 * @param retryAfter how long to wait, zero or more
	 */
	public RateLimitedException(Duration retryAfter) {
		this("Rate limited; retry after " + retryAfter, retryAfter, null);
	}

	/**
	 * Create an exception asking for the job to run again after a wait.
	 * @param message what refused, kept as the job's last error
	 * @param retryAfter how long to wait, zero or more
	 * @param cause the underlying failure
	 */
	public RateLimitedException(String message, Duration retryAfter, @Nullable Throwable cause) {
		super(message, retryAfter, cause);
	}

}
