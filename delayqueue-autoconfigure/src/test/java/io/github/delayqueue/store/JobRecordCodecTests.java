package io.github.delayqueue.store;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

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
		assertThat(this.codec.encodeTail(null, null, Map.of(), "{\"a\":1}")).isEqualTo("|||{\"a\":1}");
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
		assertThatIllegalArgumentException().isThrownBy(() -> this.codec.decode("x!|y|||||"))
			.withMessageContaining("Malformed job record");
	}

}
