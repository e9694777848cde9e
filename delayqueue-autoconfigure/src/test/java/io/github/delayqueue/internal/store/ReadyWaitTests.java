package io.github.delayqueue.internal.store;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import io.github.delayqueue.core.JobRequest;
import io.github.delayqueue.test.DelayQueueFixture;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Both kinds of blocking wait against a real Redis: the one on a connection of its own
 * from Lettuce's client, and the one on a connection of the factory, for factories whose
 * client cannot open one itself.
 */
@ExtendWith(RedisExtension.class)
class ReadyWaitTests {

	private DelayQueueFixture fixture;

	private RedisTestServer server;

	@BeforeEach
	void setUp(RedisTestServer server) {
		server.flushAll();
		this.server = server;
		this.fixture = new DelayQueueFixture(server);
	}

	@AfterEach
	void tearDown() {
		this.fixture.close();
	}

	@ParameterizedTest
	@EnumSource(Kind.class)
	void movesAReadyIdIntoTheClaimingListAndTimesOutWithNothing(Kind kind) {
		try (ReadyWait wait = kind.open(this.fixture)) {
			this.fixture.template().send(JobRequest.builder("waits", "x").id("job-1").build());
			assertThat(wait.awaitReady("waits", Duration.ofSeconds(2))).isEqualTo("job-1");
			assertThat(this.fixture.redis().opsForList().range("{dq:waits}:claiming", 0, -1)).containsExactly("job-1");
			assertThat(wait.awaitReady("waits", Duration.ofMillis(100))).isNull();
		}
	}

	@ParameterizedTest
	@EnumSource(Kind.class)
	void aCancelEndsTheBlockedWaitAtOnceAndEveryLaterOne(Kind kind) {
		try (ReadyWait wait = kind.open(this.fixture)) {
			CompletableFuture<String> waiting = CompletableFuture
				.supplyAsync(() -> wait.awaitReady("waits", Duration.ofSeconds(30)));
			await().atMost(Duration.ofSeconds(5)).until(() -> RedisExtension.blockedClients(this.server) == 1);
			wait.cancel();
			assertThat(waiting).succeedsWithin(Duration.ofSeconds(1)).isNull();
			assertThat(RedisExtension.blockedClients(this.server)).isZero();
			// Nothing was moved, and a later wait does not block.
			this.fixture.template().send(JobRequest.builder("waits", "x").id("job-2").build());
			assertThat(wait.awaitReady("waits", Duration.ofSeconds(30))).isNull();
			assertThat(this.fixture.redis().opsForList().range("{dq:waits}:ready", 0, -1)).containsExactly("job-2");
		}
	}

	@Test
	void asksForItsClientIdOncePerConnectionNotBeforeEveryWait() {
		try (ReadyWait wait = Kind.OWN_LETTUCE_CONNECTION.open(this.fixture)) {
			assertThat(wait.awaitReady("waits", Duration.ofMillis(100))).isNull();
			long asked = clientCommands();
			for (int i = 0; i < 3; i++) {
				assertThat(wait.awaitReady("waits", Duration.ofMillis(100))).isNull();
			}
			assertThat(clientCommands()).isEqualTo(asked);
		}
	}

	@Test
	void aCancelEndsAWaitResentOnANewConnectionAfterTheOldOneWasKilled() {
		try (ReadyWait wait = Kind.OWN_LETTUCE_CONNECTION.open(this.fixture)) {
			assertThat(wait.awaitReady("waits", Duration.ofMillis(100))).isNull();
			CompletableFuture<String> waiting = CompletableFuture
				.supplyAsync(() -> wait.awaitReady("waits", Duration.ofSeconds(30)));
			await().atMost(Duration.ofSeconds(5)).until(() -> this.server.blockedClients() == 1);
			String blocked = blockedClientId();
			this.server.command("CLIENT", "KILL", "ID", blocked);
			// Lettuce reconnects and sends the unanswered wait again.
			await().atMost(Duration.ofSeconds(10))
				.until(() -> this.server.blockedClients() == 1 && !blocked.equals(blockedClientId()));
			wait.cancel();
			assertThat(waiting).succeedsWithin(Duration.ofSeconds(1)).isNull();
			assertThat(this.server.blockedClients()).isZero();
		}
	}

	// CLIENT calls so far: Redis 6.2 counts every subcommand as one command, Redis 7
	// counts each apart.
	private long clientCommands() {
		long calls = 0;
		for (String line : this.server.command("INFO", "commandstats").split("\r\n")) {
			if (line.startsWith("cmdstat_client:") || line.startsWith("cmdstat_client|id:")) {
				calls += Long.parseLong(line.replaceAll("^[^:]*:calls=(\\d+),.*$", "$1"));
			}
		}
		return calls;
	}

	private String blockedClientId() {
		for (String line : this.server.command("CLIENT", "LIST").split("\n")) {
			if (line.contains("cmd=blmove")) {
				return line.replaceAll("^.*?id=(\\d+) .*$", "$1").trim();
			}
		}
		return "";
	}

	enum Kind {

		OWN_LETTUCE_CONNECTION((fixture) -> new JobClaims(fixture.scripts(), fixture.keys()).openReadyWait()),

		FACTORY_CONNECTION(
				(fixture) -> new SpringReadyWait(fixture.connectionFactory(), fixture.keys(), fixture.redis()));

		private final Function<DelayQueueFixture, ReadyWait> opener;

		Kind(Function<DelayQueueFixture, ReadyWait> opener) {
			this.opener = opener;
		}

		ReadyWait open(DelayQueueFixture fixture) {
			ReadyWait wait = this.opener.apply(fixture);
			assertThat(wait)
				.isInstanceOf((this == OWN_LETTUCE_CONNECTION) ? LettuceReadyWait.class : SpringReadyWait.class);
			return wait;
		}

	}

}
