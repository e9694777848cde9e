package io.github.delayqueue.core;

import java.time.Instant;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What {@link JobEvent#withoutValues()} hides.
 */
class JobEventTests {

	private static final Instant AT = Instant.parse("2026-11-26T10:00:00Z");

	private static final Instant DUE = Instant.parse("2026-11-26T10:00:30Z");

	@Test
	void hidesTheHostOfTheInstanceButKeepsItsProcessMark() {
		JobEvent claimed = new JobEvent(AT, JobEvent.Type.CLAIMED, "billing-7f9c.internal:4242", 1, null, null);

		assertThat(claimed.withoutValues())
			.isEqualTo(new JobEvent(AT, JobEvent.Type.CLAIMED, JobInfo.HIDDEN + ":4242", 1, null, null));
	}

	@Test
	void hidesTheMessageOfAFailureButKeepsTheClassOfItsException() {
		JobEvent failed = new JobEvent(AT, JobEvent.Type.FAILED, "billing-7f9c.internal:4242", 2, null,
				"java.lang.IllegalStateException: card 4111-1111-1111-1111 refused for alice@example.com");

		JobEvent hidden = failed.withoutValues();

		assertThat(hidden.detail()).isEqualTo("java.lang.IllegalStateException: " + JobInfo.HIDDEN);
		assertThat(hidden.instance()).isEqualTo(JobInfo.HIDDEN + ":4242");
		assertThat(hidden.at()).isEqualTo(AT);
		assertThat(hidden.type()).isEqualTo(JobEvent.Type.FAILED);
		assertThat(hidden.attempt()).isEqualTo(2);
	}

	@Test
	void hidesAllOfADetailWithoutAnExceptionClassName() {
		JobEvent failed = new JobEvent(AT, JobEvent.Type.FAILED, null, 1, null, "token t0ken refused");

		assertThat(failed.withoutValues().detail()).isEqualTo(JobInfo.HIDDEN);
	}

	@Test
	void keepsWhoAskedForARequeueOrACancel() {
		JobEvent requeued = new JobEvent(AT, JobEvent.Type.REQUEUED, null, 0, null, "dashboard");
		JobEvent cancelled = new JobEvent(AT, JobEvent.Type.CANCELLED, null, 0, null, "endpoint");

		assertThat(requeued.withoutValues()).isEqualTo(requeued);
		assertThat(cancelled.withoutValues()).isEqualTo(cancelled);
	}

	@Test
	void keepsTimesAndAStepWithoutInstanceOrDetailAsItIs() {
		JobEvent retried = new JobEvent(AT, JobEvent.Type.RETRIED, null, 1, DUE, null);

		assertThat(retried.withoutValues()).isEqualTo(retried);
	}

}
