package io.github.delayqueue.internal.store;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.delayqueue.core.DefaultDelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueTemplate;
import io.github.delayqueue.core.JobRequest;
import io.github.delayqueue.core.JobState;
import io.github.delayqueue.core.TopicOverview;
import io.github.delayqueue.core.TopicStats;
import io.github.delayqueue.test.DelayQueueFixture;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Looking a job up by id, counting a topic and reading its pause take a fixed number of
 * round trips to Redis, however many partitions and topics there are; and requests that
 * name topics that do not exist leave nothing behind on this instance.
 */
@ExtendWith(RedisExtension.class)
class LookupRoundTripsTests {

	private static final int PARTITIONS = 64;

	private DelayQueueFixture fixture;

	private RedisTestServer server;

	private ScriptRunner scripts;

	private DelayQueueKeys keys;

	private JobStore store;

	private DelayQueueTemplate template;

	private DelayQueueAdmin admin;

	@BeforeEach
	void setUp(RedisTestServer server) {
		server.flushAll();
		this.server = server;
		this.fixture = new DelayQueueFixture(server);
		this.scripts = this.fixture.scripts();
		this.keys = new DelayQueueKeys(DelayQueueFixture.PREFIX, (topic) -> PARTITIONS);
		this.store = new JobStore(this.scripts, this.keys, this.fixture.codec());
		this.template = new DelayQueueTemplate(this.store, this.fixture.codec(), this.fixture.jsonMapper());
		this.admin = new DefaultDelayQueueAdmin(this.store);
		// As a scheduler does at start-up: the round trips counted are the operations'.
		this.scripts.loadAll();
	}

	@AfterEach
	void tearDown() {
		this.fixture.close();
	}

	@Test
	void findsCancelsAndReschedulesAJobOutsideItsPartitionInThreeRoundTrips() {
		// Sent while the topic had one partition: the job sits in the topic's own queue,
		// which is not where its id maps to under sixty-four.
		String id = sentUnpartitioned("moved", "order-1");
		assertThat(this.keys.queueOf("moved", id)).isNotEqualTo("moved");

		assertThat(roundTrips(() -> this.template.find("moved", id)))
			.hasValueSatisfying((job) -> assertThat(job.state()).isEqualTo(JobState.DELAYED));
		assertThat(this.lastRoundTrips).isEqualTo(3);
		assertThat(roundTrips(() -> this.template.reschedule("moved", id, Duration.ofHours(2)))).isTrue();
		assertThat(this.lastRoundTrips).isEqualTo(3);
		assertThat(roundTrips(() -> this.template.cancel("moved", id))).isTrue();
		assertThat(this.lastRoundTrips).isEqualTo(3);
		assertThat(roundTrips(() -> this.template.find("moved", id))).isEmpty();
		assertThat(this.lastRoundTrips).isEqualTo(3);
	}

	@Test
	void countsAPartitionedTopicAndReadsItsPauseInOneRoundTripEach() {
		for (int i = 0; i < 200; i++) {
			this.template.send("counted", i, Duration.ofHours(1));
		}
		this.template.send("counted", "ready");

		assertThat(roundTrips(() -> this.admin.stats("counted"))).isEqualTo(new TopicStats("counted", 200, 1, 0, 0));
		assertThat(this.lastRoundTrips).isEqualTo(1);
		assertThat(roundTrips(() -> this.admin.isPaused("counted"))).isFalse();
		assertThat(this.lastRoundTrips).isEqualTo(1);
	}

	@Test
	void readsEveryTopicsCountsPauseAndDueLagInOneRoundTrip() {
		DelayQueueAdmin admin = new DefaultDelayQueueAdmin(this.store);
		List<String> topics = new ArrayList<>();
		for (int t = 0; t < 5; t++) {
			String topic = "topic-" + t;
			topics.add(topic);
			for (int i = 0; i <= t; i++) {
				this.template.send(topic, i, Duration.ofHours(1));
			}
		}
		Instant beforeSend = Instant.ofEpochMilli(this.fixture.redisTimeMillis());
		this.template.send("topic-3", "ready");
		this.admin.pause("topic-4");

		List<TopicOverview> overview = roundTrips(() -> admin.overview(topics));

		assertThat(this.lastRoundTrips).isEqualTo(1);
		assertThat(overview).extracting(TopicOverview::stats)
			.containsExactly(new TopicStats("topic-0", 1, 0, 0, 0), new TopicStats("topic-1", 2, 0, 0, 0),
					new TopicStats("topic-2", 3, 0, 0, 0), new TopicStats("topic-3", 4, 1, 0, 0),
					new TopicStats("topic-4", 5, 0, 0, 0));
		assertThat(overview).extracting(TopicOverview::paused).containsExactly(false, false, false, false, true);
		assertThat(overview.get(3).oldestReadyDueAt()).isBetween(beforeSend, beforeSend.plusSeconds(5));
		assertThat(overview.get(0).oldestReadyDueAt()).isNull();
	}

	@Test
	void findsAJobInAnyTopicInTwoRoundTripsAndOneScriptPerTopicWhereItsIdMaps() {
		DelayQueueAdmin admin = new DefaultDelayQueueAdmin(this.store);
		for (int t = 0; t < 10; t++) {
			this.template.send("topic-" + t, t, Duration.ofHours(1));
		}
		String id = this.template.send(JobRequest.builder("topic-7", "wanted").id("wanted").build());

		assertThat(roundTrips(() -> admin.findInAnyTopic(id))).hasValueSatisfying((job) -> {
			assertThat(job.topic()).isEqualTo("topic-7");
			assertThat(job.state()).isEqualTo(JobState.READY);
		});
		assertThat(this.lastRoundTrips).isEqualTo(2);
		assertThat(this.lastScripts).isEqualTo(10);
		assertThat(roundTrips(() -> admin.findInAnyTopic("nowhere"))).isEmpty();
		assertThat(this.lastRoundTrips).isEqualTo(4);
		String moved = sentUnpartitioned("moved", "order-1");
		assertThat(roundTrips(() -> admin.findInAnyTopic(moved))).hasValueSatisfying((job) -> {
			assertThat(job.topic()).isEqualTo("moved");
			assertThat(job.state()).isEqualTo(JobState.DELAYED);
		});
		assertThat(this.lastRoundTrips).isEqualTo(4);
	}

	@Test
	void tellsATopicPausedWhenAnyOfItsPartitionsIsAndResumesThemAll() {
		this.template.send("half", "x");
		List<String> queues = this.keys.queues("half");
		// A pause that reached one partition only, as an instance failing half-way would
		// leave it.
		this.fixture.redis().opsForValue().set(this.keys.topic(queues.get(PARTITIONS - 1)).paused(), "1");

		assertThat(this.admin.isPaused("half")).isTrue();
		this.admin.resume("half");
		assertThat(this.admin.isPaused("half")).isFalse();
		this.admin.pause("half");
		for (String queue : queues) {
			assertThat(this.fixture.redis().hasKey(this.keys.topic(queue).paused())).as(queue).isTrue();
		}
		assertThat(this.admin.isPaused("half")).isTrue();
	}

	@Test
	void remembersNothingOfTopicsThatRequestsNameButThatDoNotExist() {
		DelayQueueAdmin admin = new DefaultDelayQueueAdmin(this.store);
		this.template.send("known", "x", Duration.ofHours(1));
		int remembered = this.keys.remembered();

		for (int i = 0; i < 100; i++) {
			String topic = "no.such.topic-" + i;
			assertThat(this.template.find(topic, "id")).isEmpty();
			assertThat(this.admin.stats(topic).pending()).isZero();
			assertThat(this.admin.isPaused(topic)).isFalse();
			assertThat(this.admin.jobs(topic, JobState.READY, 0, 10)).isEmpty();
			assertThat(this.admin.jobs(topic, JobState.DEAD, 0, 10)).isEmpty();
			assertThat(this.template.cancel(topic, "id")).isFalse();
			assertThat(this.template.reschedule(topic, "id", Duration.ZERO)).isFalse();
			assertThat(this.admin.requeueDead(topic)).isZero();
			assertThat(this.admin.purgeDead(topic, "id")).isFalse();
			this.admin.resume(topic);
			assertThat(admin.overview(topic).stats().pending()).isZero();
		}
		assertThat(admin.findInAnyTopic("id")).isEmpty();

		assertThat(this.keys.remembered()).isEqualTo(remembered);
		assertThat(this.admin.topics()).containsExactly("known");
	}

	private long lastRoundTrips;

	private long lastScripts;

	private <T> T roundTrips(Supplier<T> operation) {
		long before = this.scripts.roundTrips();
		long scriptsBefore = scriptsRun();
		T result = operation.get();
		this.lastRoundTrips = this.scripts.roundTrips() - before;
		this.lastScripts = scriptsRun() - scriptsBefore;
		return result;
	}

	private long scriptsRun() {
		Matcher calls = Pattern.compile("cmdstat_evalsha:calls=(\\d+)")
			.matcher(this.server.command("INFO", "commandstats"));
		return calls.find() ? Long.parseLong(calls.group(1)) : 0;
	}

	private String sentUnpartitioned(String topic, String id) {
		JobStore unpartitioned = new JobStore(this.scripts, new DelayQueueKeys(DelayQueueFixture.PREFIX),
				this.fixture.codec());
		return new DelayQueueTemplate(unpartitioned, this.fixture.codec(), this.fixture.jsonMapper())
			.send(JobRequest.builder(topic, "payload").id(id).delay(Duration.ofHours(1)).build());
	}

}
