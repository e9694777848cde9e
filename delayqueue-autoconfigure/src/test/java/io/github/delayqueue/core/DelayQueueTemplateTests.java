package io.github.delayqueue.core;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.github.delayqueue.internal.store.DelayQueueScript;
import io.github.delayqueue.internal.store.JobRecord;
import io.github.delayqueue.internal.store.TopicKeys;
import io.github.delayqueue.internal.support.JobEventListener;
import io.github.delayqueue.internal.support.JobIdGenerator;
import io.github.delayqueue.test.DelayQueueFixture;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.dao.DataAccessException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.within;

/**
 * The producer and management side of {@link DelayQueueTemplate} against a real Redis.
 */
@ExtendWith(RedisExtension.class)
class DelayQueueTemplateTests {

	private DelayQueueFixture fixture;

	private DelayQueueTemplate template;

	private DelayQueueAdmin admin;

	@BeforeEach
	void setUp(RedisTestServer server) {
		server.flushAll();
		this.fixture = new DelayQueueFixture(server);
		this.template = this.fixture.template();
		this.admin = this.fixture.admin();
	}

	@AfterEach
	void tearDown() {
		this.fixture.close();
	}

	@Test
	void sendsAJobDueNowStraightToReady() {
		String id = this.template.send("orders", new Order(42, "EUR"));

		JobInfo job = this.template.find("orders", id).orElseThrow();
		assertThat(job.state()).isEqualTo(JobState.READY);
		assertThat(job.payloadJson()).isEqualTo("{\"id\":42,\"currency\":\"EUR\"}");
		assertThat(job.attempts()).isZero();
		assertThat(job.dueAt()).isEqualTo(job.createdAt());
		assertThat(this.fixture.redis().opsForList().range("{dq:orders}:ready", 0, -1)).containsExactly(id);
	}

	@Test
	void sendsADelayedJobDueAfterItsDelayByTheRedisClock() {
		long before = this.fixture.redisTimeMillis();
		String id = this.template.send("orders", new Order(1, "EUR"), Duration.ofMinutes(5));
		long after = this.fixture.redisTimeMillis();

		JobInfo job = this.template.find("orders", id).orElseThrow();
		assertThat(job.state()).isEqualTo(JobState.DELAYED);
		assertThat(job.createdAt().toEpochMilli()).isBetween(before, after);
		assertThat(Duration.between(job.createdAt(), job.dueAt())).isEqualTo(Duration.ofMinutes(5));
		assertThat(this.fixture.redis().opsForZSet().score("{dq:orders}:delayed", id))
			.isEqualTo((double) job.dueAt().toEpochMilli());
	}

	@Test
	void sendsAtAnInstantAndTreatsAPastInstantAsNow() {
		Instant inAnHour = Instant.ofEpochMilli(this.fixture.redisTimeMillis()).plus(Duration.ofHours(1));
		String later = this.template.sendAt("orders", "later", inAnHour);
		String past = this.template.sendAt("orders", "past", Instant.parse("2001-01-01T00:00:00Z"));
		String longAgo = this.template.sendAt("orders", "long ago", Instant.MIN);

		assertThat(this.template.find("orders", later).orElseThrow().dueAt()).isEqualTo(inAnHour);
		JobInfo overdue = this.template.find("orders", past).orElseThrow();
		assertThat(overdue.state()).isEqualTo(JobState.READY);
		assertThat(overdue.dueAt()).isEqualTo(overdue.createdAt());
		assertThat(this.template.find("orders", longAgo).orElseThrow().state()).isEqualTo(JobState.READY);
	}

	@Test
	void keepsDueTimesOfEveryLengthInABatch() {
		// Records write times in base 36; after 2059 they take nine digits instead of
		// eight.
		Instant inAnHour = Instant.ofEpochMilli(this.fixture.redisTimeMillis()).plus(Duration.ofHours(1));
		Instant farAway = Instant.parse("2100-01-01T00:00:00.123Z");
		List<String> ids = this.template.sendAll(List.of(JobRequest.builder("orders", "a").dueAt(farAway).build(),
				JobRequest.builder("orders", "b").dueAt(inAnHour).build(),
				JobRequest.builder("orders", "c").dueAt(inAnHour).build(),
				JobRequest.builder("orders", "d").dueAt(farAway).build()));

		assertThat(ids).map((id) -> this.template.find("orders", id).orElseThrow().dueAt())
			.containsExactly(farAway, inAnHour, inAnHour, farAway);
	}

	@Test
	void keepsEverythingAJobRequestCarries() {
		String id = this.template.send(JobRequest.builder("orders", List.of("a|b", "c"))
			.id("order-7")
			.delay(Duration.ofSeconds(30))
			.header("tenant", "acme|eu")
			.header("trace", "t-1")
			.ttr(Duration.ofSeconds(9))
			.maxAttempts(2)
			.build());

		assertThat(id).isEqualTo("order-7");
		JobInfo job = this.template.find("orders", "order-7").orElseThrow();
		assertThat(job.headers()).containsExactlyInAnyOrderEntriesOf(Map.of("tenant", "acme|eu", "trace", "t-1"));
		assertThat(job.payloadJson()).isEqualTo("[\"a|b\",\"c\"]");
		JobRecord record = this.fixture.codec()
			.decode(this.fixture.redis().<String, String>opsForHash().get("{dq:orders}:jobs", "order-7"));
		assertThat(record.ttr()).isEqualTo(Duration.ofSeconds(9));
		assertThat(record.maxAttempts()).isEqualTo(2);
	}

	@Test
	void generatesShortTimeOrderedUniqueIds() {
		List<String> ids = new ArrayList<>();
		for (int i = 0; i < 1000; i++) {
			ids.add(this.template.send("orders", i));
		}
		assertThat(ids).doesNotHaveDuplicates().isSorted().allSatisfy((id) -> assertThat(id).hasSize(16));
	}

	@Test
	void refusesADuplicateIdAndLeavesThePendingJobUnchanged() {
		this.template.send(JobRequest.builder("orders", "first").id("same").delay(Duration.ofHours(1)).build());
		JobInfo before = this.template.find("orders", "same").orElseThrow();

		assertThatExceptionOfType(DuplicateJobException.class)
			.isThrownBy(() -> this.template.send(JobRequest.builder("orders", "second").id("same").build()))
			.withMessageContaining("'same'")
			.satisfies((ex) -> assertThat(ex.getJobIds()).containsExactly("same"));

		assertThat(this.template.find("orders", "same")).contains(before);
		assertThat(this.admin.stats("orders")).isEqualTo(new TopicStats("orders", 1, 0, 0, 0));
	}

	@Test
	void replacesADeadJobWithANewJobOfTheSameId() {
		this.template.sendAll(List.of(JobRequest.builder("orders", "first").id("order-7").build(),
				JobRequest.builder("orders", "first").id("order-8").build()));
		List<Object> claimed = claimAll("orders");
		for (int i = 1; i < claimed.size(); i += 3) {
			bury("orders", (String) claimed.get(i), String.valueOf(claimed.get(i + 1)), "boom");
		}
		assertThat(this.admin.stats("orders").dead()).isEqualTo(2);

		this.template.send(JobRequest.builder("orders", "second").id("order-7").delay(Duration.ofHours(1)).build());
		this.template.sendAll(List.of(JobRequest.builder("orders", "second").id("order-8").build()));

		JobInfo delayed = this.template.find("orders", "order-7").orElseThrow();
		assertThat(delayed.state()).isEqualTo(JobState.DELAYED);
		assertThat(delayed.payloadJson()).isEqualTo("\"second\"");
		assertThat(delayed.attempts()).isZero();
		assertThat(delayed.lastError()).isNull();
		assertThat(this.template.find("orders", "order-8").orElseThrow().state()).isEqualTo(JobState.READY);
		assertThat(this.admin.deadJobs("orders", 0, 10)).isEmpty();
		assertThat(this.admin.stats("orders")).isEqualTo(new TopicStats("orders", 1, 1, 0, 0));
	}

	@Test
	void drawsANewIdWhenAGeneratedOneIsAlreadyTaken() {
		Clock clock = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);
		this.template.setIdGenerator(new JobIdGenerator(clock, 7, 0));
		String first = this.template.send("orders", "first");
		// A second instance that drew the same instance number sends the same ids.
		this.template.setIdGenerator(new JobIdGenerator(clock, 7, 0));
		String second = this.template.send("orders", "second");

		assertThat(second).isNotEqualTo(first);
		assertThat(this.template.find("orders", first).orElseThrow().payloadJson()).isEqualTo("\"first\"");
		assertThat(this.template.find("orders", second).orElseThrow().payloadJson()).isEqualTo("\"second\"");
	}

	@Test
	void refusesAGeneratedIdThatClashesFourTimesAndNamesIt() {
		Clock clock = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);
		this.template.setIdGenerator(new JobIdGenerator(clock, 7, 0));
		List<String> taken = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			taken.add(this.template.send("orders", i));
		}
		this.template.setIdGenerator(new JobIdGenerator(clock, 7, 0));

		assertThatExceptionOfType(DuplicateJobException.class).isThrownBy(() -> this.template.send("orders", "late"))
			.withMessageContaining("'orders'")
			.withMessageContaining("'" + taken.get(3) + "'")
			.satisfies((ex) -> assertThat(ex.getJobIds()).containsExactly(taken.get(3)));
		assertThat(this.admin.stats("orders").ready()).isEqualTo(4);
	}

	@Test
	void tellsItsListenersOfEachJobWritten() {
		List<String> events = new ArrayList<>();
		this.template.setEventListener(new JobEventListener() {

			@Override
			public void jobsSent(String topic, int count) {
				events.add("sent " + topic + " " + count);
			}

		});
		this.template.setDueTimeListener((topic, dueAtMillis) -> events.add("due " + topic + " " + dueAtMillis));
		this.template.send("now", "x");
		String delayed = this.template.send("later", "y", Duration.ofMinutes(5));
		assertThatExceptionOfType(DuplicateJobException.class)
			.isThrownBy(() -> this.template.send(JobRequest.builder("later", "z").id(delayed).build()));

		long due = this.template.find("later", delayed).orElseThrow().dueAt().toEpochMilli();
		assertThat(events).containsExactly("sent now 1", "sent later 1", "due later " + due);
	}

	@Test
	void reportsTheRedisErrorWhenRedisRefusesASend() {
		this.fixture.redis().opsForValue().set("{dq:orders}:jobs", "not a hash");

		assertThatExceptionOfType(DataAccessException.class).isThrownBy(() -> this.template.send("orders", "x"))
			.havingRootCause()
			.withMessageContaining("WRONGTYPE");
	}

	@Test
	void refusesInvalidInputBeforeWritingAnything() {
		this.template.setMaxPayloadBytes(64);
		List<Runnable> invalid = List.of(() -> this.template.send("", "x"), () -> this.template.send("-orders", "x"),
				() -> this.template.send("orders/eu", "x"), () -> this.template.send("o".repeat(129), "x"),
				() -> this.template.send(JobRequest.builder("orders", "x").id(" ").build()),
				() -> this.template.send(JobRequest.builder("orders", "x").id("i".repeat(257)).build()),
				() -> this.template.send("orders", "x", Duration.ofSeconds(-1)),
				() -> this.template.send("orders", "x", Duration.ofSeconds(Long.MAX_VALUE)),
				() -> this.template.sendAt("orders", "x", Instant.MAX),
				() -> this.template
					.send(JobRequest.builder("orders", "x").ttr(Duration.ofSeconds(Long.MAX_VALUE)).build()),
				() -> this.template.send(JobRequest.builder("orders", "x").header(null, "v").build()),
				() -> this.template.send(JobRequest.builder("orders", "x").header("h", null).build()),
				() -> this.template.send("orders", "x".repeat(100)), () -> this.template.send("orders", null),
				() -> this.template.send("orders", new Unserializable()),
				() -> this.template.send(JobRequest.builder("orders", "x").ttr(Duration.ZERO).build()),
				() -> this.template.send(JobRequest.builder("orders", "x").maxAttempts(0).build()),
				() -> this.template
					.send(JobRequest.builder("orders", "x").delay(Duration.ofSeconds(1)).dueAt(Instant.now()).build()),
				() -> this.template.sendAll(List.of(JobRequest.builder("orders", "a").id("twice").build(),
						JobRequest.builder("orders", "b").id("twice").build())),
				() -> this.template.sendAll(List.of(JobRequest.builder("orders", "fine").build(),
						JobRequest.builder("bad topic", "x").build())));
		for (Runnable send : invalid) {
			assertThatExceptionOfType(InvalidJobException.class).isThrownBy(send::run);
		}
		assertThat(this.fixture.redis().keys("*")).isEmpty();
	}

	@Test
	void namesTheCulpritWhenRefusing() {
		this.template.setMaxPayloadBytes(10);
		assertThatExceptionOfType(InvalidJobException.class).isThrownBy(() -> this.template.send("a b", "x"))
			.withMessageContaining("'a b'");
		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(() -> this.template.send("orders", "far too long"))
			.withMessageContaining("delayqueue.max-payload-size")
			.withMessageContaining("14 bytes");
		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(() -> this.template.send("orders", "x", Duration.ofMillis(-5)))
			.withMessageContaining("PT-0.005S");
	}

	@Test
	void refusesAHeaderNameThatIsNotATokenBeforeWritingAnything() {
		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(() -> this.template
				.send(JobRequest.builder("orders", "x").id("quoted").header("x\"delayqueue-group", "g").build()))
			.withMessageContaining("Header name 'x\"delayqueue-group' of job 'quoted' for topic 'orders'");
		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(() -> this.template.sendAll(List.of(JobRequest.builder("orders", "fine").build(),
					JobRequest.builder("orders", "x").id("spaced").header("a b", "v").build())))
			.withMessageContaining("Header name 'a b' of job 'spaced'");
		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(() -> this.template.sendAllWithResults(
					List.of(JobRequest.builder("orders", "x").id("empty").header("", "v").afterCommit().build())))
			.withMessageContaining("Header name '' of job 'empty'");
		assertThat(this.fixture.redis().keys("*")).isEmpty();
	}

	@Test
	void countsHeadersTowardTheLargestPayloadBeforeWritingAnything() {
		// The template's limit is 1 MiB unless set: a header value of 2 MiB was let in.
		String large = "v".repeat(2 * 1024 * 1024);
		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(
					() -> this.template.send(JobRequest.builder("orders", "x").id("big").header("h", large).build()))
			.withMessageContaining(
					"Payload and headers of job 'big' for topic 'orders' are " + (3 + 1 + large.length()) + " bytes")
			.withMessageContaining("delayqueue.max-payload-size allows " + 1024 * 1024);
		this.template.setMaxPayloadBytes(64);
		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(() -> this.template.sendAll(List.of(JobRequest.builder("orders", "x").build(),
					JobRequest.builder("orders", "x").header("name", "v".repeat(58)).build())))
			.withMessageContaining("are 65 bytes (payload 3 bytes as JSON, header names and values 62 bytes)");
		assertThat(this.fixture.redis().keys("*")).isEmpty();
		String id = this.template.send(JobRequest.builder("orders", "x").header("name", "v".repeat(57)).build());
		assertThat(this.template.find("orders", id).orElseThrow().headers()).containsKey("name");
	}

	@Test
	void refusesATimeToRunUnderOneMillisecondAtSendNamingTtr() {
		for (Duration ttr : List.of(Duration.ofNanos(1), Duration.ofNanos(999_999))) {
			assertThatExceptionOfType(InvalidJobException.class)
				.isThrownBy(() -> this.template.send(JobRequest.builder("orders", "x").id("short").ttr(ttr).build()))
				.withMessageContaining("ttr")
				.withMessageContaining("'short'")
				.withMessageContaining(ttr.toString());
		}
		assertThat(this.fixture.redis().keys("*")).isEmpty();
		String id = this.template.send(JobRequest.builder("orders", "x").ttr(Duration.ofMillis(1)).build());
		assertThat(this.template.find("orders", id)).isPresent();
	}

	@Test
	void sendsABatchInOrderAcrossTopics() {
		List<JobRequest> requests = new ArrayList<>();
		for (int i = 0; i < 2500; i++) {
			requests.add(JobRequest.builder((i % 2 == 0) ? "even" : "odd", i).delay(Duration.ofMinutes(i % 3)).build());
		}
		List<String> ids = this.template.sendAll(requests);

		assertThat(ids).hasSize(2500).doesNotHaveDuplicates();
		assertThat(this.template.find("odd", ids.get(7)).orElseThrow().payloadJson()).isEqualTo("7");
		TopicStats even = this.admin.stats("even");
		assertThat(even.delayed() + even.ready()).isEqualTo(1250);
		assertThat(this.admin.topics()).containsExactly("even", "odd");
	}

	@Test
	void refusesOnlyTheDuplicatesOfABatchAndNamesThem() {
		this.template.send(JobRequest.builder("a", "old").id("taken").build());
		this.template.send(JobRequest.builder("c", "old").id("also-taken").build());
		List<String> sent = new ArrayList<>();
		assertThatExceptionOfType(DuplicateJobException.class)
			.isThrownBy(() -> this.template.sendAll(List.of(JobRequest.builder("a", "new").id("taken").build(),
					JobRequest.builder("a", "other").id("free").build(), JobRequest.builder("b", "x").id("b1").build(),
					JobRequest.builder("c", "new").id("also-taken").build(), JobRequest.builder("c", "y").build())))
			.withMessageContaining("topic 'a' [taken]")
			.withMessageContaining("topic 'c' [also-taken]")
			.satisfies((ex) -> {
				assertThat(ex.getTopic()).isEqualTo("a");
				assertThat(ex.getJobIds()).containsExactly("taken", "also-taken");
				sent.addAll(ex.getSentJobIds());
			});
		assertThat(sent).hasSize(3).startsWith("free", "b1");
		assertThat(this.template.find("c", sent.get(2)).orElseThrow().payloadJson()).isEqualTo("\"y\"");
		assertThat(this.template.find("a", "free")).isPresent();
		assertThat(this.template.find("b", "b1")).isPresent();
		assertThat(this.template.find("a", "taken").orElseThrow().payloadJson()).isEqualTo("\"old\"");
	}

	@Test
	void cancelsDelayedAndReadyJobsOnly() {
		String delayed = this.template.send("orders", "d", Duration.ofHours(1));
		String ready = this.template.send("orders", "r");
		String running = this.template.send("orders", "x");
		claimAll("orders");

		assertThat(this.template.cancel("orders", delayed)).isTrue();
		assertThat(this.template.cancel("orders", ready)).isFalse();
		assertThat(this.template.cancel("orders", running)).isFalse();
		assertThat(this.template.cancel("orders", "missing")).isFalse();
		assertThat(this.template.find("orders", delayed)).isEmpty();
		assertThat(this.admin.stats("orders")).isEqualTo(new TopicStats("orders", 0, 0, 2, 0));
	}

	@Test
	void cancelsAReadyJob() {
		String ready = this.template.send("orders", "r");
		assertThat(this.template.cancel("orders", ready)).isTrue();
		assertThat(this.admin.stats("orders")).isEqualTo(new TopicStats("orders", 0, 0, 0, 0));
		// Its id stays in the ready list as a ghost, which the next claim drops.
		assertThat(claimAll("orders")).hasSize(1);
		assertThat(this.fixture.redis().keys("{dq:orders}*")).isEmpty();
	}

	@Test
	void reschedulesDelayedAndReadyJobsByTheRedisClock() {
		String delayed = this.template.send("orders", "d", Duration.ofHours(1));
		String ready = this.template.send("orders", "r");

		long before = this.fixture.redisTimeMillis();
		assertThat(this.template.reschedule("orders", delayed, Duration.ofSeconds(10))).isTrue();
		assertThat(this.template.reschedule("orders", ready, Duration.ofMinutes(2))).isTrue();

		JobInfo first = this.template.find("orders", delayed).orElseThrow();
		assertThat(first.dueAt().toEpochMilli()).isCloseTo(before + 10_000, within(1000L));
		JobInfo second = this.template.find("orders", ready).orElseThrow();
		assertThat(second.state()).isEqualTo(JobState.DELAYED);
		assertThat(second.dueAt().toEpochMilli()).isCloseTo(before + 120_000, within(1000L));
		assertThat(this.template.reschedule("orders", delayed, Duration.ZERO)).isTrue();
		assertThat(this.template.find("orders", delayed).orElseThrow().state()).isEqualTo(JobState.READY);
		assertThat(this.template.reschedule("orders", "missing", Duration.ZERO)).isFalse();
	}

	@Test
	void doesNotRescheduleARunningJob() {
		String id = this.template.send("orders", "x");
		claimAll("orders");
		assertThat(this.template.reschedule("orders", id, Duration.ofSeconds(5))).isFalse();
		assertThat(this.template.find("orders", id).orElseThrow().state()).isEqualTo(JobState.RUNNING);
	}

	@Test
	void findsNothingForUnknownJobs() {
		assertThat(this.template.find("orders", "nope")).isEmpty();
		assertThat(this.admin.stats("orders")).isEqualTo(new TopicStats("orders", 0, 0, 0, 0));
	}

	@Test
	void pagesRequeuesAndPurgesDeadJobs() {
		List<String> ids = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			ids.add(this.template.send("mail", "m" + i));
		}
		List<Object> claimed = claimAll("mail");
		for (int i = 1; i < claimed.size(); i += 3) {
			bury("mail", (String) claimed.get(i), String.valueOf(claimed.get(i + 1)), "boom " + claimed.get(i));
		}

		List<JobInfo> page = this.admin.deadJobs("mail", 1, 2);
		assertThat(page).hasSize(2).allSatisfy((job) -> {
			assertThat(job.state()).isEqualTo(JobState.DEAD);
			assertThat(job.attempts()).isEqualTo(1);
			assertThat(job.lastError()).isEqualTo("boom " + job.id());
		});
		assertThat(this.admin.deadJobs("mail", 0, 10)).extracting(JobInfo::id).containsExactlyElementsOf(ids);

		assertThat(this.admin.requeueDead("mail", ids.get(0))).isTrue();
		assertThat(this.admin.requeueDead("mail", ids.get(0))).isFalse();
		JobInfo requeued = this.template.find("mail", ids.get(0)).orElseThrow();
		assertThat(requeued.state()).isEqualTo(JobState.READY);
		assertThat(requeued.attempts()).isZero();

		assertThat(this.admin.purgeDead("mail")).isEqualTo(4);
		assertThat(this.admin.stats("mail")).isEqualTo(new TopicStats("mail", 0, 1, 0, 0));
		assertThat(this.fixture.redis().<String, String>opsForHash().keys("{dq:mail}:jobs"))
			.containsExactly(ids.get(0));
		assertThat(this.fixture.redis().<String, String>opsForHash().keys("{dq:mail}:errors"))
			.containsExactly(ids.get(0));
	}

	@Test
	void requeuesManyDeadJobsInBatches() {
		List<String> ids = new ArrayList<>();
		for (int i = 0; i < 1200; i++) {
			ids.add("j" + i);
		}
		this.template.sendAll(ids.stream().map((id) -> JobRequest.builder("bulk", id).id(id).build()).toList());
		List<Object> claimed = claimAll("bulk");
		for (int i = 1; i < claimed.size(); i += 3) {
			bury("bulk", (String) claimed.get(i), String.valueOf(claimed.get(i + 1)), "x");
		}
		assertThat(this.admin.stats("bulk").dead()).isEqualTo(1200);
		assertThat(this.admin.requeueDead("bulk")).isEqualTo(1200);
		assertThat(this.admin.stats("bulk")).isEqualTo(new TopicStats("bulk", 0, 1200, 0, 0));
	}

	@Test
	void keepsWorkingAfterRedisForgetsItsScripts(RedisTestServer server) {
		this.template.send("orders", "before");
		server.command("SCRIPT", "FLUSH");
		String single = this.template.send("orders", "after");
		server.command("SCRIPT", "FLUSH");
		List<String> batch = this.template.sendAll(List.of(JobRequest.builder("a", 1).build(),
				JobRequest.builder("b", 2).delay(Duration.ofHours(1)).build()));
		assertThat(this.template.find("orders", single)).isPresent();
		assertThat(this.template.find("a", batch.get(0))).isPresent();
		assertThat(this.template.find("b", batch.get(1)).orElseThrow().state()).isEqualTo(JobState.DELAYED);
	}

	@Test
	void listsEveryTopicThatHadJobs() {
		this.template.send("a", 1);
		this.template.send("b.c", 2, Duration.ofHours(1));
		assertThat(this.admin.topics()).isEqualTo(Set.of("a", "b.c"));
	}

	// The claim script's reply shape, {now, id, attempt, record, ...}, for every ready
	// job of a topic; one claim takes at most a thousand.
	private List<Object> claimAll(String topic) {
		TopicKeys k = this.fixture.keys().topic(topic);
		List<Object> all = new ArrayList<>();
		List<Object> reply;
		do {
			reply = this.fixture.scripts()
				.run(DelayQueueScript.CLAIM, List.of(k.ready(), k.claiming(), k.running(), k.jobs(), k.attempts(),
						k.claimReceipt("test"), k.ghosts()), "", "1000", "60000", String.valueOf(System.nanoTime()));
			all.addAll(all.isEmpty() ? reply : reply.subList(1, reply.size()));
		}
		while (reply.size() > 1);
		return all;
	}

	private void bury(String topic, String id, String attempt, String error) {
		TopicKeys k = this.fixture.keys().topic(topic);
		assertThat(this.fixture.scripts()
			.run(DelayQueueScript.BURY,
					List.of(k.running(), k.dead(), k.attempts(), k.errors(), k.jobs(), k.delayed(), k.ready(),
							k.successors()),
					id, attempt, error, "-1", "", topic)
			.get(0)).isEqualTo(1L);
	}

	record Order(int id, String currency) {
	}

	static class Unserializable {

		public Object getSelf() {
			throw new IllegalStateException("cannot be read");
		}

	}

}
