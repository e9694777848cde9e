package io.github.delayqueue.core;

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

}
