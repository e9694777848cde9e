package io.github.delayqueue.internal.support;

/**
 * Tells the policy of each topic.
 *
 * @author delayqueue contributors
 */
@FunctionalInterface
public interface TopicPolicies {

	/**
	 * Return the policy of a topic.
	 * @param topic the topic
	 * @return its policy, the defaults where it has no settings of its own
	 */
	TopicPolicy forTopic(String topic);

}
