package io.github.delayqueue.internal.store;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import io.github.delayqueue.core.JobRequest;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The compact encoding of stored jobs.
 */
class JobRecordCodecTests {

	private final JobRecordCodec codec = new JobRecordCodec(JsonMapper.builder().build());

	@Test
	void encodesDefaultsAsEmptyFieldsSoThatAPendingJobCostsLittle() {
		assertThat(this.codec.encodeTail(null, null, Map.of(), "{\"a\":1}")).isEqualTo("||||{\"a\":1}");
	}

	@Test
	void roundTripsEveryFieldIncludingSeparatorsInHeadersAndPayload() {
		String tail = this.codec.encodeTail(Duration.ofSeconds(9), 3, Map.of("k|ey", "va|lue"), "\"a|b\"");
		JobRecord record = this.codec.decode("rs|1jk|" + tail);
		assertThat(record).isEqualTo(new JobRecord(Instant.ofEpochMilli(1000), Instant.ofEpochMilli(2000),
				Duration.ofSeconds(9), 3, Map.of("k|ey", "va|lue"), "\"a|b\""));
	}

	@Test
	void refusesGarbageWithAClearMessage() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.codec.decode("garbage"))
			.withMessageContaining("Malformed job record");
		assertThatIllegalArgumentException().isThrownBy(() -> this.codec.decode("x!|y||||||"))
			.withMessageContaining("Malformed job record");
	}

	@Test
	void storesTheGroupInItsOwnFieldAndGivesItBackAsItsHeader() {
		String tail = this.codec.encodeTail(null, null, Map.of("tenant", "a", JobRecordCodec.GROUP_HEADER, "acme"),
				"1");
		assertThat(tail).isEqualTo("||acme|{\"tenant\":\"a\"}|1");
		String record = "rs|1jk|" + tail;
		assertThat(JobRecordCodec.groupOf(record)).isEqualTo("acme");
		assertThat(this.codec.decode(record).headers())
			.containsExactlyInAnyOrderEntriesOf(Map.of("tenant", "a", JobRequest.GROUP_HEADER, "acme"));
		assertThat(this.codec.encodeTail(null, null, Map.of(JobRecordCodec.GROUP_HEADER, "acme"), "1"))
			.isEqualTo("||acme||1");
		assertThat(this.codec.decode("rs|1jk|||acme||1").headers())
			.containsExactly(Map.entry("delayqueue-group", "acme"));
	}

	@Test
	void neverReadsTheGroupFromTheHeaders() {
		String record = "rs|1jk|" + this.codec.encodeTail(null, null, Map.of("x\"delayqueue-group", "a b{}"), "1");
		assertThat(JobRecordCodec.groupOf(record)).isNull();
		assertThat(this.codec.decode(record).headers()).containsExactly(Map.entry("x\"delayqueue-group", "a b{}"));
		assertThat(JobRecordCodec.groupOf("rs|1jk||||{\"delayqueue-group\":\"acme\"}|1")).isNull();
	}

	@Test
	void readsTheTimeToRunAlone() {
		assertThat(JobRecordCodec.ttrOf("rs|1jk|"
				+ this.codec.encodeTail(Duration.ofSeconds(9), 3, Map.of(JobRecordCodec.GROUP_HEADER, "g"), "1")))
			.isEqualTo(Duration.ofSeconds(9));
		assertThat(JobRecordCodec.ttrOf("rs|1jk||||{}|1")).isNull();
	}

	@Test
	void refusesAGroupThatWouldSplitTheRecord() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.codec.encodeTail(null, null, Map.of(JobRecordCodec.GROUP_HEADER, "a|b"), "1"))
			.withMessageContaining("'a|b'");
	}

}
