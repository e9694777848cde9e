package io.github.delayqueue.core;

import java.time.Instant;
import java.util.Optional;

import io.github.delayqueue.internal.store.StateCounts;
import io.github.delayqueue.internal.store.StoredEvent;
import io.github.delayqueue.internal.store.StoredJob;

/**
 * Turns what the store reads into the types applications see, so that the store needs
 * none of them.
 *
 * @author delayqueue contributors
 */
final class StoredJobs {

	private StoredJobs() {
	}

	static JobInfo info(StoredJob job) {
		return new JobInfo(job.id(), job.topic(), state(job.state()), job.attempts(), job.dueAt(), job.createdAt(),
				job.lastError(), job.headers(), job.payloadJson(), job.diedAt(), job.finishedAt(), job.finishedBy());
	}

	static Optional<JobInfo> info(Optional<StoredJob> job) {
		return job.map(StoredJobs::info);
	}

	static JobEvent event(StoredEvent event) {
		return new JobEvent(Instant.ofEpochMilli(event.atMillis()), JobEvent.Type.valueOf(event.type().name()),
				event.instance(), event.attempt(),
				(event.dueAtMillis() >= 0) ? Instant.ofEpochMilli(event.dueAtMillis()) : null, event.detail());
	}

	static TopicStats stats(StateCounts counts) {
		return new TopicStats(counts.topic(), counts.delayed(), counts.ready(), counts.running(), counts.dead());
	}

	static JobState state(StoredJob.State state) {
		return JobState.valueOf(state.name());
	}

	static StoredJob.State state(JobState state) {
		return StoredJob.State.valueOf(state.name());
	}

}
