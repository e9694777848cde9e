package io.github.delayqueue.test;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RedisTestServer}, the Redis every integration test runs against.
 */
@ExtendWith(RedisExtension.class)
class RedisTestServerTests {

	@Test
	void reportsTheVersionOfTheServerTheTestsRunAgainst(RedisTestServer server) {
		assertThat(server.version()).matches("\\d+\\.\\d+\\.\\d+");
	}

	@Test
	void usesTheBinaryChosenByTheEnvironment() {
		String chosen = System.getenv(RedisTestServer.SERVER_VARIABLE);
		String expected = (chosen == null || chosen.isBlank() || chosen.equals(RedisTestServer.EMBEDDED))
				? "redis-server" : chosen;
		assertThat(RedisTestServer.binary().toString()).contains(expected);
	}

}
