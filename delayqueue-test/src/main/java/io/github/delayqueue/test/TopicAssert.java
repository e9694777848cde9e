package io.github.delayqueue.test;

import java.util.List;

import io.github.delayqueue.core.JobInfo;
import io.github.delayqueue.core.TopicStats;
import org.assertj.core.api.AbstractAssert;
import org.assertj.core.api.Assertions;
import org.assertj.core.api.ListAssert;

/**
 * AssertJ assertions on one topic of the queue under test, each read from Redis (or from
 * what the test recorded) when it runs. Made by
 * {@link DelayQueueTester#assertThat(String)}.
 *
 * <pre class="code">
 * delayQueue.assertThat("partner.notify")
 *     .isIdle()
 *     .hasSent(1)
 *     .hasDead(1);
 * delayQueue.assertThat("partner.notify").deadJobs()
 *     .singleElement()
 *     .extracting(JobInfo::lastError).asString().contains("503");
 * </pre>
 *
 * @author delayqueue contributors
 */
public class TopicAssert extends AbstractAssert<TopicAssert, String> {

	private final DelayQueueTester tester;

	TopicAssert(String topic, DelayQueueTester tester) {
		super(topic, TopicAssert.class);
		this.tester = tester;
	}

	/**
	 * Verify that the topic has nothing to do now: no job due, ready or running.
	 * @return this
	 */
	public TopicAssert isIdle() {
		if (!this.tester.isIdle(this.actual)) {
			failWithMessage("Expected topic '%s' to be idle, but it has %s", this.actual, stats());
		}
		return this;
	}

	/**
	 * Verify how many jobs were sent to the topic since the test began.
	 * @param count the expected number
	 * @return this
	 */
	public TopicAssert hasSent(int count) {
		List<SentJob> sent = this.tester.sent(this.actual);
		if (sent.size() != count) {
			failWithMessage("Expected %d job(s) sent to topic '%s', but %d were: %s", count, this.actual, sent.size(),
					sent);
		}
		return this;
	}

	/**
	 * Verify the payloads of the jobs sent to the topic since the test began, in order.
	 * @param payloads the expected payloads, compared with {@code equals}
	 * @return this
	 */
	public TopicAssert hasSentPayloads(Object... payloads) {
		sentPayloads().containsExactly(payloads);
		return this;
	}

	/**
	 * Start assertions on the payloads of the jobs sent to the topic since the test
	 * began, in order.
	 * @return assertions on the list of payloads
	 */
	public ListAssert<Object> sentPayloads() {
		return Assertions.assertThat(this.tester.sentPayloads(this.actual, Object.class))
			.as("payloads sent to topic '%s'", this.actual);
	}

	/**
	 * Verify how many DELAYED jobs the topic holds.
	 * @param count the expected number
	 * @return this
	 */
	public TopicAssert hasDelayed(long count) {
		return hasCount("delayed", stats().delayed(), count);
	}

	/**
	 * Verify how many READY jobs the topic holds.
	 * @param count the expected number
	 * @return this
	 */
	public TopicAssert hasReady(long count) {
		return hasCount("ready", stats().ready(), count);
	}

	/**
	 * Verify how many DEAD jobs the topic holds.
	 * @param count the expected number
	 * @return this
	 */
	public TopicAssert hasDead(long count) {
		return hasCount("dead", stats().dead(), count);
	}

	/**
	 * Verify that the topic holds no DEAD job.
	 * @return this
	 */
	public TopicAssert hasNoDeadJobs() {
		List<JobInfo> dead = this.tester.deadJobs(this.actual);
		if (!dead.isEmpty()) {
			failWithMessage("Expected no dead job in topic '%s', but found %s", this.actual, dead);
		}
		return this;
	}

	/**
	 * Start assertions on the topic's dead jobs, oldest death first, each with its last
	 * error.
	 * @return assertions on the list of dead jobs
	 */
	public ListAssert<JobInfo> deadJobs() {
		return Assertions.assertThat(this.tester.deadJobs(this.actual)).as("dead jobs of topic '%s'", this.actual);
	}

	/**
	 * Start assertions on one job of the topic, as it stands now.
	 * @param jobId the job id
	 * @return assertions on the job
	 */
	public JobAssert job(String jobId) {
		return new JobAssert(this.actual, jobId, this.tester.find(this.actual, jobId).orElse(null), this.tester.now());
	}

	private TopicAssert hasCount(String state, long actualCount, long count) {
		if (actualCount != count) {
			failWithMessage("Expected %d %s job(s) in topic '%s', but found %d (%s)", count, state, this.actual,
					actualCount, stats());
		}
		return this;
	}

	private TopicStats stats() {
		return this.tester.admin().stats(this.actual);
	}

}
