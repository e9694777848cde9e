package io.github.delayqueue.internal.store;

import java.util.function.Function;

/**
 * Tells the scripts that end or move a job what each topic keeps of it (finished jobs,
 * timelines), see {@link JobHistoryPolicy}, and names the instance that ended or moved
 * it. Keeps nothing unless built with policies.
 *
 * @author delayqueue contributors
 */
public final class JobHistory {

	/**
	 * Keeps nothing of any topic.
	 */
	public static final JobHistory OFF = new JobHistory((topic) -> JobHistoryPolicy.OFF, "");

	private final Function<String, JobHistoryPolicy> policies;

	private final String instance;

	/**
	 * Create the history settings.
	 * @param policies each topic's policy, by topic name
	 * @param instance names this instance in what is kept (host and a process mark); a
	 * {@code |} in it is replaced, as the kept record separates its fields with it
	 */
	public JobHistory(Function<String, JobHistoryPolicy> policies, String instance) {
		this.policies = policies;
		this.instance = instance.replace('|', '/');
	}

	/**
	 * Return the policy of a topic.
	 * @param topic the topic
	 * @return its policy
	 */
	public JobHistoryPolicy policy(String topic) {
		return this.policies.apply(topic);
	}

	/**
	 * Return the timeline argument of the scripts that move a queue's jobs on this
	 * instance, see {@link JobHistoryPolicy#timelineArgument(TopicKeys, String)}.
	 * @param keys the keys of the queue
	 * @return the argument, empty when the queue's topic records no timeline
	 */
	public String timelineArgument(TopicKeys keys) {
		return policy(DelayQueueKeys.topicOf(keys.topic())).timelineArgument(keys, this.instance);
	}

	/**
	 * Return the argument the scripts that finish a job read:
	 * {@code keep ms:most jobs:instance}, or empty when the topic keeps no finished job.
	 * @param topic the topic
	 * @return the argument
	 */
	String finishedArgument(String topic) {
		JobHistoryPolicy policy = policy(topic);
		if (!policy.keepsFinished()) {
			return "";
		}
		return policy.completedRetention().toMillis() + ":" + policy.completedMaxCount() + ":" + this.instance;
	}

}
