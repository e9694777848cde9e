package io.github.delayqueue.test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import io.github.delayqueue.core.DuplicateJobException;
import io.github.delayqueue.core.InvalidJobException;
import io.github.delayqueue.core.JobRequest;
import io.github.delayqueue.core.JobState;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The recording for plain unit tests: what it records, what it refuses as the real one
 * does, and how it answers cancels and look-ups from its record.
 */
class RecordingDelayQueueOperationsTests {

	private final Instant now = Instant.parse("2026-11-26T10:00:00Z");

	private final RecordingDelayQueueOperations delayQueue = new RecordingDelayQueueOperations(
			Clock.fixed(this.now, ZoneOffset.UTC), JsonMapper.builder().build());

	@Test
	void recordsEverySendInOrderWithWhatWasAskedFor() {
		String first = this.delayQueue.send("orders.timeout", new Reminder(1), Duration.ofMinutes(30));
		String second = this.delayQueue.sendAt("orders.timeout", new Reminder(2), this.now.plusSeconds(60));
		List<String> batch = this.delayQueue.sendAll(List.of(JobRequest.builder("mail", "hello").id("mail-1").build(),
				JobRequest.builder("mail", "again").header("origin", "test").build()));

		assertThat(this.delayQueue.sent().payloads("orders.timeout", Reminder.class)).containsExactly(new Reminder(1),
				new Reminder(2));
		assertThat(this.delayQueue.sent("orders.timeout")).extracting(SentJob::id).containsExactly(first, second);
		assertThat(this.delayQueue.sent("orders.timeout").get(0).delay()).isEqualTo(Duration.ofMinutes(30));
		assertThat(this.delayQueue.sent("orders.timeout").get(1).dueAt()).isEqualTo(this.now.plusSeconds(60));
		assertThat(batch.get(0)).isEqualTo("mail-1");
		assertThat(this.delayQueue.sent("mail").get(1).headers()).containsEntry("origin", "test");
		assertThat(this.delayQueue.sent().all()).hasSize(4);
	}

	@Test
	void refusesWhatTheRealOneRefusesBeforeRecordingIt() {
		assertThatExceptionOfType(InvalidJobException.class).isThrownBy(() -> this.delayQueue.send("bad topic!", "x"))
			.withMessageContaining("bad topic!");
		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(() -> this.delayQueue.send("mail", "x", Duration.ofSeconds(-1)))
			.withMessageContaining("PT-1S");
		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(() -> this.delayQueue.send("mail", "x", Duration.ofDays(365_251)))
			.withMessageContaining("PT8766024H");
		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(() -> this.delayQueue.send(JobRequest.builder("mail", "x").header("a b", "v").build()))
			.withMessageContaining("Header name 'a b'");
		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(() -> this.delayQueue.send("mail", new Unwritable()))
			.withMessageContaining(Unwritable.class.getName());
		this.delayQueue.send(JobRequest.builder("mail", "once").id("mail-1").build());
		assertThatExceptionOfType(DuplicateJobException.class)
			.isThrownBy(() -> this.delayQueue.send(JobRequest.builder("mail", "twice").id("mail-1").build()));
		assertThat(this.delayQueue.sent().all()).extracting(SentJob::payload).containsExactly("once");
	}

	@Test
	void answersCancelsReschedulesAndLookUpsFromItsRecord() {
		String id = this.delayQueue.send("orders.timeout", new Reminder(7), Duration.ofMinutes(30));

		assertThat(this.delayQueue.find("orders.timeout", id)).hasValueSatisfying((job) -> {
			assertThat(job.state()).isEqualTo(JobState.DELAYED);
			assertThat(job.dueAt()).isEqualTo(this.now.plus(Duration.ofMinutes(30)));
			assertThat(job.payloadJson()).isEqualTo("{\"order\":7}");
		});
		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(() -> this.delayQueue.reschedule("orders.timeout", id, Duration.ofSeconds(Long.MAX_VALUE)))
			.withMessageContaining("365250 days");
		assertThat(this.delayQueue.reschedule("orders.timeout", id, Duration.ZERO)).isTrue();
		assertThat(this.delayQueue.find("orders.timeout", id)).map((job) -> job.state()).contains(JobState.READY);
		assertThat(this.delayQueue.cancel("orders.timeout", id)).isTrue();
		assertThat(this.delayQueue.cancel("orders.timeout", id)).isFalse();
		assertThat(this.delayQueue.find("orders.timeout", id)).isEmpty();
		assertThat(this.delayQueue.reschedule("orders.timeout", id, Duration.ZERO)).isFalse();
		assertThat(this.delayQueue.sent("orders.timeout")).hasSize(1);
	}

	record Reminder(int order) {

	}

	static final class Unwritable {

		private final Object self = this;

		public Object getSelf() {
			return this.self;
		}

	}

}
