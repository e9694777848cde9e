package io.github.delayqueue.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import io.github.delayqueue.autoconfigure.DelayQueueProperties.TopicProperties;
import io.github.delayqueue.core.JobConstraints;
import io.github.delayqueue.internal.store.DelayQueueKeys;
import io.github.delayqueue.internal.store.JobHistoryPolicy;
import io.github.delayqueue.internal.support.BackoffPolicy;
import io.github.delayqueue.internal.support.TopicLimits;
import io.github.delayqueue.internal.support.TopicPolicies;
import io.github.delayqueue.internal.support.TopicPolicy;
import org.jspecify.annotations.Nullable;

/**
 * Topic policies from {@code delayqueue.defaults} and {@code delayqueue.topics}, checked
 * when created so that a bad value fails start-up naming its property.
 *
 * @author delayqueue contributors
 */
final class PropertiesTopicPolicies implements TopicPolicies {

	/**
	 * What a topic name may be, for messages about one that is not.
	 */
	static final String TOPIC_NAME_RULE = "Topic names use 1 to 128 characters of A-Z a-z 0-9 . _ -, starting with "
			+ "a letter or digit";

	/**
	 * The most events a job's timeline may keep.
	 */
	static final int MAX_TIMELINE_EVENTS = 1000;

	private final TopicProperties defaults;

	private final Map<String, TopicProperties> topics;

	private final Map<String, TopicPolicy> resolved = new ConcurrentHashMap<>();

	/**
	 * Create the policies, checking every value.
	 * @param defaults the defaults
	 * @param topics the per-topic settings, by topic name
	 * @throws InvalidDelayQueuePropertiesException naming every bad property
	 */
	PropertiesTopicPolicies(TopicProperties defaults, Map<String, TopicProperties> topics) {
		this.defaults = defaults;
		this.topics = Map.copyOf(topics);
		ConfigurationProblems problems = new ConfigurationProblems();
		check(defaults, topics, problems);
		problems.throwIfAny();
		topics.forEach((topic, settings) -> this.resolved.put(topic,
				resolve("delayqueue.topics." + topic, settings, defaults, new ConfigurationProblems())));
	}

	/**
	 * Record every bad value of the defaults and of the topics.
	 * @param defaults the defaults
	 * @param topics the per-topic settings, by topic name
	 * @param problems where bad values are recorded
	 */
	static void check(TopicProperties defaults, Map<String, TopicProperties> topics, ConfigurationProblems problems) {
		resolve("delayqueue.defaults", defaults, defaults, problems);
		topics.forEach((topic, settings) -> {
			if (!JobConstraints.isValidTopic(topic)) {
				problems.invalid("delayqueue.topics." + topic, topic, TOPIC_NAME_RULE);
			}
			// Only what the topic sets itself: a bad default is reported once, as a
			// default.
			resolve("delayqueue.topics." + topic, settings, TopicProperties.withDefaults(), problems);
		});
	}

	@Override
	public TopicPolicy forTopic(String topic) {
		TopicPolicy policy = this.resolved.get(topic);
		if (policy != null) {
			return policy;
		}
		return this.resolved.computeIfAbsent("",
				(key) -> resolve("delayqueue.defaults", this.defaults, this.defaults, new ConfigurationProblems()));
	}

	/**
	 * Return the topics that have settings of their own.
	 * @return the topic names
	 */
	public java.util.Set<String> configuredTopics() {
		return this.topics.keySet();
	}

	// Bad values are recorded and the policy is still built, so that checking goes on.
	private static TopicPolicy resolve(String prefix, TopicProperties topic, TopicProperties defaults,
			ConfigurationProblems problems) {
		Duration ttr = pick(topic, defaults, TopicProperties::getTtr);
		atLeastOneMillisecond(problems, prefix + ".ttr", ttr);
		int concurrency = pick(topic, defaults, TopicProperties::getConcurrency);
		atLeast(problems, prefix + ".concurrency", concurrency, 1);
		int maxAttempts = pick(topic, defaults, (t) -> t.getRetry().getMaxAttempts());
		atLeast(problems, prefix + ".retry.max-attempts", maxAttempts, 1);
		List<String> nonRetryable = pick(topic, defaults, (t) -> t.getRetry().getNonRetryable());
		Duration delay = pick(topic, defaults, (t) -> t.getRetry().getBackoff().getDelay());
		notNegative(problems, prefix + ".retry.backoff.delay", delay);
		double multiplier = pick(topic, defaults, (t) -> t.getRetry().getBackoff().getMultiplier());
		if (!(multiplier >= 1.0)) {
			problems.invalid(prefix + ".retry.backoff.multiplier", multiplier, "The multiplier must be at least 1");
		}
		Duration maxDelay = pick(topic, defaults, (t) -> t.getRetry().getBackoff().getMaxDelay());
		notNegative(problems, prefix + ".retry.backoff.max-delay", maxDelay);
		Duration jitter = pick(topic, defaults, (t) -> t.getRetry().getBackoff().getJitter());
		notNegative(problems, prefix + ".retry.backoff.jitter", jitter);
		List<Duration> schedule = pick(topic, defaults, (t) -> t.getRetry().getBackoff().getSchedule());
		for (int i = 0; i < schedule.size(); i++) {
			notNegative(problems, prefix + ".retry.backoff.schedule[" + i + "]", schedule.get(i));
		}
		Duration retention = pick(topic, defaults, (t) -> t.getDeadLetter().getRetention());
		notNegative(problems, prefix + ".dead-letter.retention", retention);
		int partitions = pick(topic, defaults, TopicProperties::getPartitions);
		if (partitions < 1 || partitions > DelayQueueKeys.MAX_PARTITIONS) {
			problems.invalid(prefix + ".partitions", partitions,
					"The number of partitions must be 1 to " + DelayQueueKeys.MAX_PARTITIONS);
		}
		Duration completedRetention = pick(topic, defaults, TopicProperties::getCompletedRetention);
		notNegative(problems, prefix + ".completed-retention", completedRetention);
		int completedMaxCount = pick(topic, defaults, TopicProperties::getCompletedMaxCount);
		atLeast(problems, prefix + ".completed-max-count", completedMaxCount, 1);
		return new TopicPolicy(ttr, concurrency, maxAttempts,
				new BackoffPolicy(delay, multiplier, maxDelay, jitter, schedule), nonRetryable, retention,
				Math.max(1, Math.min(partitions, DelayQueueKeys.MAX_PARTITIONS)),
				limits(prefix, topic, defaults, problems),
				history(prefix, topic, defaults, problems, completedRetention, completedMaxCount));
	}

	private static JobHistoryPolicy history(String prefix, TopicProperties topic, TopicProperties defaults,
			ConfigurationProblems problems, Duration completedRetention, int completedMaxCount) {
		JobHistoryPolicy history = new JobHistoryPolicy(completedRetention, completedMaxCount);
		int maxEvents = pick(topic, defaults, TopicProperties::getTimelineMaxEvents);
		if (maxEvents < 1 || maxEvents > MAX_TIMELINE_EVENTS) {
			problems.invalid(prefix + ".timeline-max-events", maxEvents,
					"A timeline keeps 1 to " + MAX_TIMELINE_EVENTS + " events");
		}
		boolean timeline = pick(topic, defaults, TopicProperties::getTimeline);
		return timeline ? history.withTimeline(Math.max(1, Math.min(maxEvents, MAX_TIMELINE_EVENTS))) : history;
	}

	private static TopicLimits limits(String prefix, TopicProperties topic, TopicProperties defaults,
			ConfigurationProblems problems) {
		Integer limit = pickOptional(topic, defaults, (t) -> t.getRateLimit().getLimit());
		Duration period = pick(topic, defaults, (t) -> t.getRateLimit().getPeriod());
		boolean pauseOn429 = pick(topic, defaults, (t) -> t.getRateLimit().getPauseTopicOn429());
		Integer globalConcurrency = pickOptional(topic, defaults, TopicProperties::getGlobalConcurrency);
		if (limit != null) {
			atLeast(problems, prefix + ".rate-limit.limit", limit, 1);
		}
		atLeastOneMillisecond(problems, prefix + ".rate-limit.period", period);
		if (globalConcurrency != null) {
			atLeast(problems, prefix + ".global-concurrency", globalConcurrency, 1);
		}
		Integer groupConcurrency = pickOptional(topic, defaults, (t) -> t.getGroup().getConcurrency());
		Integer groupLimit = pickOptional(topic, defaults, (t) -> t.getGroup().getRateLimit().getLimit());
		Duration groupPeriod = pick(topic, defaults, (t) -> t.getGroup().getRateLimit().getPeriod());
		if (groupConcurrency != null) {
			atLeast(problems, prefix + ".group.concurrency", groupConcurrency, 1);
		}
		if (groupLimit != null) {
			atLeast(problems, prefix + ".group.rate-limit.limit", groupLimit, 1);
		}
		atLeastOneMillisecond(problems, prefix + ".group.rate-limit.period", groupPeriod);
		return new TopicLimits((limit != null) ? Math.max(0, limit) : 0, period,
				(globalConcurrency != null) ? Math.max(0, globalConcurrency) : 0, pauseOn429,
				(groupConcurrency != null) ? Math.max(0, groupConcurrency) : 0,
				(groupLimit != null) ? Math.max(0, groupLimit) : 0, groupPeriod);
	}

	// For a property that may stay unset: null when neither the topic nor the defaults
	// set it.
	private static <T> @Nullable T pickOptional(TopicProperties topic, TopicProperties defaults,
			Function<TopicProperties, @Nullable T> property) {
		T value = property.apply(topic);
		return (value != null) ? value : property.apply(defaults);
	}

	private static <T> T pick(TopicProperties topic, TopicProperties defaults,
			Function<TopicProperties, @Nullable T> property) {
		T value = property.apply(topic);
		if (value == null) {
			value = property.apply(defaults);
		}
		if (value == null) {
			value = property.apply(TopicProperties.withDefaults());
		}
		if (value == null) {
			throw new IllegalStateException("No default for a topic property");
		}
		return value;
	}

	// Claims count a time to run in whole milliseconds: less than one would be none.
	private static void atLeastOneMillisecond(ConfigurationProblems problems, String name, Duration value) {
		if (value.toMillis() < 1) {
			problems.invalid(name, value, "The duration must be at least 1 ms");
		}
	}

	private static void notNegative(ConfigurationProblems problems, String name, Duration value) {
		if (value.isNegative()) {
			problems.invalid(name, value, "The duration must not be negative");
		}
	}

	private static void atLeast(ConfigurationProblems problems, String name, int value, int minimum) {
		if (value < minimum) {
			problems.invalid(name, value, "The value must be at least " + minimum);
		}
	}

}
