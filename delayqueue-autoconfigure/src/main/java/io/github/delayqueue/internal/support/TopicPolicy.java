package io.github.delayqueue.internal.support;

import java.time.Duration;
import java.util.List;

import io.github.delayqueue.internal.store.JobHistoryPolicy;

/**
 * The settings that govern one topic: how long a delivery may run, how many run at once,
 * how failures are retried, how long dead jobs are kept and over how many partitions its
 * jobs spread.
 *
 * @param ttr how long a delivery may run before it is delivered again
 * @param concurrency how many jobs a listener runs at once
 * @param maxAttempts deliveries in all, the first one included
 * @param backoff the wait between attempts
 * @param nonRetryable exception class names that make a job dead at once
 * @param deadRetention how long dead jobs are kept
 * @param partitions how many queues, each with its own Redis hash tag, the topic's jobs
 * are spread over: 1 to 1024
 * @param limits the topic's rate limit and global concurrency across every instance
 * @param history what the topic keeps of its jobs' past
 * @author delayqueue contributors
 */
public record TopicPolicy(Duration ttr, int concurrency, int maxAttempts, BackoffPolicy backoff,
		List<String> nonRetryable, Duration deadRetention, int partitions, TopicLimits limits,
		JobHistoryPolicy history) {

	/**
	 * Create a topic policy, keeping an unmodifiable copy of the non-retryable exception
	 * class names.
	 */
	public TopicPolicy {
		nonRetryable = List.copyOf(nonRetryable);
	}

	/**
	 * Create the policy of a topic without limits across instances that keeps nothing of
	 * its jobs' past.
	 * @param ttr how long a delivery may run before it is delivered again
	 * @param concurrency how many jobs a listener runs at once
	 * @param maxAttempts deliveries in all, the first one included
	 * @param backoff the wait between attempts
	 * @param nonRetryable exception class names that make a job dead at once
	 * @param deadRetention how long dead jobs are kept
	 * @param partitions how many queues the topic's jobs are spread over
	 */
	public TopicPolicy(Duration ttr, int concurrency, int maxAttempts, BackoffPolicy backoff, List<String> nonRetryable,
			Duration deadRetention, int partitions) {
		this(ttr, concurrency, maxAttempts, backoff, nonRetryable, deadRetention, partitions, TopicLimits.NONE,
				JobHistoryPolicy.OFF);
	}

	/**
	 * Create the policy of a topic that keeps nothing of its jobs' past.
	 * @param ttr how long a delivery may run before it is delivered again
	 * @param concurrency how many jobs a listener runs at once
	 * @param maxAttempts deliveries in all, the first one included
	 * @param backoff the wait between attempts
	 * @param nonRetryable exception class names that make a job dead at once
	 * @param deadRetention how long dead jobs are kept
	 * @param partitions how many queues the topic's jobs are spread over
	 * @param limits the topic's rate limit and global concurrency across every instance
	 */
	public TopicPolicy(Duration ttr, int concurrency, int maxAttempts, BackoffPolicy backoff, List<String> nonRetryable,
			Duration deadRetention, int partitions, TopicLimits limits) {
		this(ttr, concurrency, maxAttempts, backoff, nonRetryable, deadRetention, partitions, limits,
				JobHistoryPolicy.OFF);
	}

	/**
	 * Create the policy of an unpartitioned topic.
	 * @param ttr how long a delivery may run before it is delivered again
	 * @param concurrency how many jobs a listener runs at once
	 * @param maxAttempts deliveries in all, the first one included
	 * @param backoff the wait between attempts
	 * @param nonRetryable exception class names that make a job dead at once
	 * @param deadRetention how long dead jobs are kept
	 */
	public TopicPolicy(Duration ttr, int concurrency, int maxAttempts, BackoffPolicy backoff, List<String> nonRetryable,
			Duration deadRetention) {
		this(ttr, concurrency, maxAttempts, backoff, nonRetryable, deadRetention, 1, TopicLimits.NONE);
	}

	/**
	 * Return the policy used when nothing is configured.
	 * @return the default policy
	 */
	public static TopicPolicy defaults() {
		return new TopicPolicy(Duration.ofSeconds(60), 1, 5,
				new BackoffPolicy(Duration.ofSeconds(1), 2.0, Duration.ofHours(1), Duration.ofMillis(100), List.of()),
				List.of(), Duration.ofDays(7));
	}

}
