package io.github.delayqueue.test;

import java.time.Duration;
import java.time.Instant;

import io.github.delayqueue.core.JobInfo;
import io.github.delayqueue.core.JobState;
import org.assertj.core.api.AbstractAssert;
import org.jspecify.annotations.Nullable;

/**
 * AssertJ assertions on one job, as it stood when {@link TopicAssert#job(String)} read it
 * from Redis; a job that was done or cancelled by then is absent.
 *
 * <pre class="code">
 * delayQueue.assertThat("partner.notify").job(id)
 *     .isDelayed()
 *     .hasAttempts(1)
 *     .isDueIn(Duration.ofMinutes(1), Duration.ofSeconds(5));
 * </pre>
 *
 * @author delayqueue contributors
 */
public class JobAssert extends AbstractAssert<JobAssert, @Nullable JobInfo> {

	private final String topic;

	private final String jobId;

	private final Instant now;

	JobAssert(String topic, String jobId, @Nullable JobInfo job, Instant now) {
		super(job, JobAssert.class);
		this.topic = topic;
		this.jobId = jobId;
		this.now = now;
	}

	/**
	 * Verify that the job is gone: done or cancelled.
	 * @return this
	 */
	public JobAssert isGone() {
		if (this.actual != null) {
			failWithMessage("Expected job '%s' of topic '%s' to be gone, but it is %s", this.jobId, this.topic,
					this.actual.state());
		}
		return this;
	}

	/**
	 * Verify that the job waits for its due time.
	 * @return this
	 */
	public JobAssert isDelayed() {
		return isIn(JobState.DELAYED);
	}

	/**
	 * Verify that the job is due and waits for a listener.
	 * @return this
	 */
	public JobAssert isReady() {
		return isIn(JobState.READY);
	}

	/**
	 * Verify that a listener is handling the job.
	 * @return this
	 */
	public JobAssert isRunning() {
		return isIn(JobState.RUNNING);
	}

	/**
	 * Verify that the job went dead.
	 * @return this
	 */
	public JobAssert isDead() {
		return isIn(JobState.DEAD);
	}

	/**
	 * Verify how many deliveries of the job were made.
	 * @param attempts the expected number
	 * @return this
	 */
	public JobAssert hasAttempts(int attempts) {
		JobInfo job = present();
		if (job.attempts() != attempts) {
			failWithMessage("Expected job '%s' of topic '%s' to have had %d attempt(s), but it had %d", this.jobId,
					this.topic, attempts, job.attempts());
		}
		return this;
	}

	/**
	 * Verify that the job's last error contains a text.
	 * @param text the expected text
	 * @return this
	 */
	public JobAssert hasLastErrorContaining(String text) {
		JobInfo job = present();
		if (job.lastError() == null || !job.lastError().contains(text)) {
			failWithMessage("Expected the last error of job '%s' of topic '%s' to contain '%s', but it was %s",
					this.jobId, this.topic, text, job.lastError());
		}
		return this;
	}

	/**
	 * Verify how long the job has until it is due, by the Redis clock.
	 * @param expected the expected time until the due time
	 * @param tolerance how far the actual time may lie from it either way
	 * @return this
	 */
	public JobAssert isDueIn(Duration expected, Duration tolerance) {
		Duration actualDueIn = Duration.between(this.now, present().dueAt());
		if (actualDueIn.minus(expected).abs().compareTo(tolerance) > 0) {
			failWithMessage("Expected job '%s' of topic '%s' to be due in %s (within %s), but it is due in %s",
					this.jobId, this.topic, expected, tolerance, actualDueIn);
		}
		return this;
	}

	private JobAssert isIn(JobState state) {
		JobInfo job = present();
		if (job.state() != state) {
			failWithMessage("Expected job '%s' of topic '%s' to be %s, but it is %s (%s)", this.jobId, this.topic,
					state, job.state(), job);
		}
		return this;
	}

	private JobInfo present() {
		if (this.actual == null) {
			failWithMessage("Expected job '%s' of topic '%s' to be there, but it is gone (done or cancelled)",
					this.jobId, this.topic);
		}
		return this.actual;
	}

}
