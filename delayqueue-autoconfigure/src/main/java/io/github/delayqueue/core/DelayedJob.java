package io.github.delayqueue.core;

import java.time.Instant;
import java.util.Map;

/**
 * A job as a listener method sees it: the converted payload and its delivery details.
 *
 * <pre class="code">
 * &#064;DelayedJobListener(topics = { "mail.vip", "mail" })
 * void mail(DelayedJob&lt;Mail&gt; job) {
 *     log.info("Sending {} (attempt {}, due {})", job.id(), job.attempt(), job.dueAt());
 *     mailer.send(job.payload());
 * }
 * </pre>
 *
 * @param <T> the payload type
 * @param id the job id
 * @param topic the topic it was taken from
 * @param payload the payload, converted to the listener's declared type
 * @param attempt this delivery's number, 1 for the first
 * @param dueAt when the job was due, by the Redis clock
 * @param headers the headers it was sent with
 * @author delayqueue contributors
 */
public record DelayedJob<T>(String id, String topic, T payload, int attempt, Instant dueAt,
		Map<String, String> headers) {

	/**
	 * Create a delivery, keeping an unmodifiable copy of the headers.
	 */
	public DelayedJob {
		headers = Map.copyOf(headers);
	}

}
