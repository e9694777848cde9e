package io.github.delayqueue.core;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The rules of {@link JobConstraints}.
 */
class JobConstraintsTests {

	@Test
	void acceptsTopicsOfLettersDigitsDotsUnderscoresAndDashesStartingWithALetterOrDigit() {
		assertThat(JobConstraints.isValidTopic("a")).isTrue();
		assertThat(JobConstraints.isValidTopic("7")).isTrue();
		assertThat(JobConstraints.isValidTopic("Z")).isTrue();
		assertThat(JobConstraints.isValidTopic("orders.timeout_v2-EU")).isTrue();
		assertThat(JobConstraints.isValidTopic("a" + "-".repeat(127))).isTrue();
		assertThat(JobConstraints.isValidTopic("o".repeat(128))).isTrue();
	}

	@Test
	void refusesEveryOtherTopic() {
		assertThat(JobConstraints.isValidTopic(null)).isFalse();
		assertThat(JobConstraints.isValidTopic("")).isFalse();
		assertThat(JobConstraints.isValidTopic("o".repeat(129))).isFalse();
		for (String topic : new String[] { "-a", ".a", "_a", " a", "a b", "a/b", "a:b", "{a}", "a*", "é", "aé", "a\n",
				"a\u0000", "a@", "a[", "a`", "a{" }) {
			assertThat(JobConstraints.isValidTopic(topic)).as(topic).isFalse();
		}
	}

	@Test
	void namesTheRefusedTopic() {
		assertThatExceptionOfType(InvalidJobException.class).isThrownBy(() -> JobConstraints.checkTopic("a b"))
			.withMessageContaining("'a b'");
	}

	@Test
	void refusesJobIdsWithAPathSeparatorNamingIt() {
		assertThatExceptionOfType(InvalidJobException.class).isThrownBy(() -> JobConstraints.checkId("t", "a/b"))
			.withMessageContaining("must not contain '/'");
		assertThatExceptionOfType(InvalidJobException.class).isThrownBy(() -> JobConstraints.checkId("t", "a\\b"))
			.withMessageContaining("must not contain '\\'");
		assertThat(JobConstraints.checkId("t", "order:42.a_b-c")).isEqualTo("order:42.a_b-c");
	}

	@Test
	void acceptsHeaderNamesThatAreHttpTokensTheRecordSeparatorIncluded() {
		JobConstraints.checkHeaders("t", "j", Map.of("X-Trace_id.2", "v", "!#$%&'*+-.^_`|~", "v", "traceparent", ""));
	}

	@Test
	void refusesHeaderNamesThatAreNotTokensNamingThem() {
		for (String name : new String[] { "", " ", "x\"delayqueue-group", "a b", "a:b", "a\\b", "{a}", "a,b", "a;b",
				"a=b", "a/b", "a\n", "a\u0000", "é", "a@b", "(a)", "[a]", "a?", "<a>" }) {
			assertThatExceptionOfType(InvalidJobException.class)
				.isThrownBy(() -> JobConstraints.checkHeaders("orders", "job-1", Map.of(name, "v")))
				.as(name)
				.withMessageContaining("Header name '" + name + "'")
				.withMessageContaining("'job-1'")
				.withMessageContaining("'orders'");
		}
	}

	@Test
	void countsHeaderNamesAndValuesWithThePayloadAgainstTheLimit() {
		JobConstraints.checkSize("t", "j", "\"12345678\"", Map.of("ab", "cdefgh"), 18);
		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(() -> JobConstraints.checkSize("t", "j", "\"12345678\"", Map.of("ab", "cdefghi"), 18))
			.withMessageContaining("are 19 bytes (payload 10 bytes as JSON, header names and values 9 bytes)")
			.withMessageContaining("delayqueue.max-payload-size allows 18");
		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(() -> JobConstraints.checkSize("t", "j", "\"12345678\"", Map.of(), 9))
			.withMessageContaining("is 10 bytes as JSON")
			.withMessageContaining("delayqueue.max-payload-size allows 9");
	}

	@Test
	void countsHeadersInUtf8Bytes() {
		// Two characters of three bytes each: a limit counted in characters would let
		// them in.
		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(() -> JobConstraints.checkSize("t", "j", "1", Map.of("h", "\u20ac\u20ac"), 7))
			.withMessageContaining("are 8 bytes");
		JobConstraints.checkSize("t", "j", "1", Map.of("h", "\u20ac\u20ac"), 8);
	}

	@Test
	void boundsDelaysToTheLongestDelay() {
		assertThat(JobConstraints.checkDelay("t", "j", Duration.ZERO)).isZero();
		assertThat(JobConstraints.checkDelay("t", "j", DelayQueueTemplate.MAX_DELAY))
			.isEqualTo(DelayQueueTemplate.MAX_DELAY);
		for (Duration delay : new Duration[] { null, Duration.ofMillis(-1), DelayQueueTemplate.MAX_DELAY.plusMillis(1),
				Duration.ofMillis(Long.MAX_VALUE), Duration.ofSeconds(Long.MAX_VALUE) }) {
			assertThatExceptionOfType(InvalidJobException.class)
				.isThrownBy(() -> JobConstraints.checkDelay("orders", "job-1", delay))
				.as(String.valueOf(delay))
				.withMessageContaining("'job-1'")
				.withMessageContaining("must be between zero and 365250 days, was " + delay);
		}
	}

}
