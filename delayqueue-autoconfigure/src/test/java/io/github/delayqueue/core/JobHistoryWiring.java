package io.github.delayqueue.core;

import java.time.Duration;
import java.util.List;

import io.github.delayqueue.internal.store.DelayQueueKeys;
import io.github.delayqueue.internal.store.JobClaims;
import io.github.delayqueue.internal.store.JobClaims.ClaimedJob;
import io.github.delayqueue.internal.store.JobHistory;
import io.github.delayqueue.internal.store.JobHistoryPolicy;
import io.github.delayqueue.internal.store.JobStore;
import io.github.delayqueue.test.DelayQueueFixture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A template, an admin and the claims of a test's Redis that record a job history by one
 * policy for every topic, wired as the auto-configuration wires them.
 *
 * @param template sends, finds and cancels
 * @param admin reads pages and counts of kept jobs
 * @param claims claims and acknowledges as a listener does
 */
record JobHistoryWiring(DelayQueueTemplate template, DefaultDelayQueueAdmin admin, JobClaims claims) {

	static JobHistoryWiring of(DelayQueueFixture fixture, DelayQueueKeys keys, JobHistoryPolicy policy,
			String instance) {
		JobHistory history = new JobHistory((topic) -> policy, instance);
		JobStore store = new JobStore(fixture.scripts(), keys, fixture.codec());
		store.setJobHistory(history);
		JobClaims claims = new JobClaims(fixture.scripts(), keys);
		claims.setJobHistory(history);
		return new JobHistoryWiring(new DelayQueueTemplate(store, fixture.codec(), fixture.jsonMapper()),
				new DefaultDelayQueueAdmin(store), claims);
	}

	void send(String topic, String id) {
		this.template.send(JobRequest.builder(topic, "payload of " + id).id(id).build());
	}

	ClaimedJob claimOne(String topic) {
		List<ClaimedJob> jobs = this.claims.claim(topic, null, 1, Duration.ofMinutes(1)).jobs();
		assertThat(jobs).hasSize(1);
		return jobs.get(0);
	}

}
