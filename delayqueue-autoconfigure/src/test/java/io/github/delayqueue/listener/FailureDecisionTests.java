package io.github.delayqueue.listener;

import java.time.Duration;
import java.util.List;

import io.github.delayqueue.core.NonRetryableJobException;
import io.github.delayqueue.core.RetryJobException;
import io.github.delayqueue.internal.support.BackoffPolicy;
import io.github.delayqueue.internal.support.TopicPolicy;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fate of a failed delivery and the last error it leaves, without Redis.
 */
class FailureDecisionTests {

	private final TopicPolicy policy = new TopicPolicy(Duration.ofSeconds(60), 1, 3,
			new BackoffPolicy(Duration.ofSeconds(1), 2.0, Duration.ofHours(1), Duration.ZERO, List.of()),
			List.of(IllegalArgumentException.class.getName()), Duration.ofDays(7));

	@Test
	void retriesAfterTheBackoffWhileAttemptsAreLeft() {
		FailureDecision decision = FailureDecision.decide(this.policy, null, 2, new IllegalStateException("broken"));
		assertThat(decision.retry()).isTrue();
		assertThat(decision.delay()).isEqualTo(Duration.ofSeconds(2));
		assertThat(decision.attempt()).isEqualTo(2);
		assertThat(decision.maxAttempts()).isEqualTo(3);
		assertThat(decision.reason()).startsWith("java.lang.IllegalStateException: broken\n\tat ");
	}

	@Test
	void waitsAsLongAsARetryJobExceptionAsks() {
		FailureDecision decision = FailureDecision.decide(this.policy, null, 1,
				new RetryJobException("later", Duration.ofMinutes(3)));
		assertThat(decision.retry()).isTrue();
		assertThat(decision.delay()).isEqualTo(Duration.ofMinutes(3));
	}

	@Test
	void diesOnTheLastAttemptOfTheJobsOwnLimit() {
		FailureDecision decision = FailureDecision.decide(this.policy, 2, 2, new IllegalStateException("broken"));
		assertThat(decision.retry()).isFalse();
		assertThat(decision.nonRetryable()).isFalse();
		assertThat(decision.maxAttempts()).isEqualTo(2);
		assertThat(decision.reason())
			.startsWith("Failed 2 of 2 attempts; last: java.lang.IllegalStateException: broken\n\tat ");
	}

	@Test
	void diesAtOnceForNonRetryableFailuresDeclaredOrConfigured() {
		FailureDecision declared = FailureDecision.decide(this.policy, null, 1, new NonRetryableJobException("no"));
		FailureDecision configured = FailureDecision.decide(this.policy, null, 1, new NumberFormatException("x"));
		assertThat(declared.retry()).isFalse();
		assertThat(declared.nonRetryable()).isTrue();
		assertThat(configured.retry()).isFalse();
		assertThat(configured.nonRetryable()).isTrue();
		assertThat(configured.reason()).startsWith("java.lang.NumberFormatException: x\n\tat ");
	}

	@Test
	void describesAFailureWithItsFramesAndEveryCause() {
		Exception failure = new IllegalStateException("outer", new RuntimeException("middle", new Error("root")));
		String description = FailureDecision.describe(failure);
		assertThat(description).startsWith("java.lang.IllegalStateException: outer\n\tat " + getClass().getName())
			.contains("\nCaused by: java.lang.RuntimeException: middle\n\tat ")
			.contains("\nCaused by: java.lang.Error: root\n\tat ");
	}

	@Test
	void keepsTheRootCauseOfDeepTracesWithinTheBound() {
		Throwable root = deep(new IllegalStateException("the root cause"), 300);
		Throwable failure = deep(new RuntimeException("wrapper", root), 300);
		String description = FailureDecision.describe(failure);
		assertThat(description).hasSizeLessThanOrEqualTo(FailureDecision.MAX_ERROR_LENGTH)
			.contains("Caused by: java.lang.IllegalStateException: the root cause")
			.contains("\t... 288 more");
	}

	@Test
	void cutsTheDescriptionAtFourThousandCharacters() {
		String description = FailureDecision.describe(new IllegalStateException("x".repeat(10_000)));
		assertThat(description).hasSize(4000).startsWith("java.lang.IllegalStateException: xxx");
	}

	@Test
	void endsACauseChainThatLoopsBackOnItself() {
		IllegalStateException first = new IllegalStateException("first");
		RuntimeException second = new RuntimeException("second", first);
		first.initCause(second);
		String description = FailureDecision.describe(first);
		assertThat(description.split("Caused by: ", -1)).hasSize(2);
	}

	private static Throwable deep(Throwable failure, int frames) {
		StackTraceElement[] trace = new StackTraceElement[frames];
		for (int i = 0; i < frames; i++) {
			trace[i] = new StackTraceElement("com.example.Deep", "call" + i, "Deep.java", i + 1);
		}
		failure.setStackTrace(trace);
		return failure;
	}

}
