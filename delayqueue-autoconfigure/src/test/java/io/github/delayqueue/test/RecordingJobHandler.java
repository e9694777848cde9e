package io.github.delayqueue.test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.github.delayqueue.core.DelayedJob;
import io.github.delayqueue.core.NonRetryableJobException;

import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A job handler for reliability tests that writes what it did into Redis, so that a test
 * can count completions across consumer JVMs, including ones it killed. The payload says
 * how the handler behaves:
 * <ul>
 * <li>{@code ok}: completes at once;</li>
 * <li>{@code timed}: completes at once, first writing how late it started by the Redis
 * clock (Redis time minus the job's due time, in ms) into {@code <ledger>:lateness};</li>
 * <li>{@code work:<ms>}: completes after that long, so that a fault finds it busy;</li>
 * <li>{@code hang-once:<ms>}: on the first attempt runs that long (past its time to run),
 * then completes; later attempts complete at once;</li>
 * <li>{@code throw-once}: fails on the first attempt, completes on the next;</li>
 * <li>{@code always-throw}: fails on every attempt;</li>
 * <li>{@code fatal}: throws {@link NonRetryableJobException};</li>
 * <li>{@code refuse}: throws {@link IllegalArgumentException}, which tests configure as
 * non-retryable.</li>
 * </ul>
 * A completion is written as the field {@code "<id> attempt <n> on <instance>"} of the
 * hash {@code <ledger>:completions} before the handler returns, so a job with two fields
 * is a job whose handler ran to completion twice (each delivery has its own attempt
 * number).
 */
public final class RecordingJobHandler {

	private final StringRedisTemplate redis;

	private final String instance;

	private final CountDownLatch never = new CountDownLatch(1);

	public RecordingJobHandler(StringRedisTemplate redis, String instance) {
		this.redis = redis;
		this.instance = instance;
	}

	/**
	 * Return the key prefix of a topic's ledger.
	 * @param topic the topic
	 * @return the prefix
	 */
	public static String ledger(String topic) {
		return "reliability:" + topic;
	}

	public void handle(DelayedJob<String> job) throws InterruptedException {
		String ledger = ledger(job.topic());
		this.redis.opsForHash().increment(ledger + ":runs", job.id(), 1);
		this.redis.opsForHash().increment(ledger + ":instances", this.instance, 1);
		String payload = job.payload();
		if (payload.equals("timed")) {
			Long now = this.redis.execute((RedisCallback<Long>) (connection) -> connection.serverCommands().time());
			this.redis.opsForHash()
				.put(ledger + ":lateness", job.id(), String.valueOf(now - job.dueAt().toEpochMilli()));
		}
		else if (payload.startsWith("work:")) {
			work(Long.parseLong(payload.substring(5)));
		}
		else if (payload.startsWith("hang-once:") && job.attempt() == 1) {
			work(Long.parseLong(payload.substring(10)));
		}
		else if (payload.equals("throw-once") && job.attempt() == 1) {
			throw new IllegalStateException("failing on purpose on attempt 1");
		}
		else if (payload.equals("always-throw")) {
			throw new IllegalStateException("failing on purpose on attempt " + job.attempt());
		}
		else if (payload.equals("fatal")) {
			throw new NonRetryableJobException("cannot ever succeed");
		}
		else if (payload.equals("refuse")) {
			throw new IllegalArgumentException("refused on purpose");
		}
		// A set-like write, not a counter: a client that sends a command again after a
		// lost reply (Lettuce does, on reconnect) must not count one run twice.
		this.redis.opsForHash()
			.put(ledger + ":completions", job.id() + " attempt " + job.attempt() + " on " + this.instance, "1");
	}

	private void work(long millis) throws InterruptedException {
		// Simulated work: the handler is busy, which is what the injected faults need.
		this.never.await(millis, TimeUnit.MILLISECONDS);
	}

}
