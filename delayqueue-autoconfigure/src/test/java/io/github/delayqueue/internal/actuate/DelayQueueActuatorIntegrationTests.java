package io.github.delayqueue.internal.actuate;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.InvalidJobException;
import io.github.delayqueue.core.JobInfo;
import io.github.delayqueue.core.JobRequest;
import io.github.delayqueue.core.JobState;
import io.github.delayqueue.internal.presence.ListenerPresence;
import io.github.delayqueue.internal.store.DelayQueueKeys;
import io.github.delayqueue.internal.store.DelayQueueScript;
import io.github.delayqueue.internal.store.JobClaims;
import io.github.delayqueue.internal.store.ScriptRunner;
import io.github.delayqueue.internal.store.TopicKeys;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The {@code delayqueue} endpoint, the meters and the health component of a real web
 * application on a random port, called over HTTP, against a real Redis.
 */
@ExtendWith(RedisExtension.class)
class DelayQueueActuatorIntegrationTests {

	private static ConfigurableApplicationContext context;

	private static ActuatorHttp http;

	private static DelayQueueOperations delayQueue;

	private static StringRedisTemplate redis;

	@BeforeAll
	static void startApplication(RedisTestServer server) {
		context = new SpringApplicationBuilder(ObservedApplication.class)
			.properties("server.port=0", "spring.data.redis.host=" + server.host(),
					"spring.data.redis.port=" + server.port(), "spring.data.redis.client-type=lettuce",
					"management.endpoints.web.exposure.include=delayqueue,health,metrics",
					"management.endpoint.health.show-details=always",
					"management.endpoint.delayqueue.access=unrestricted",
					"delayqueue.topics.flaky.retry.max-attempts=2", "delayqueue.topics.flaky.retry.backoff.delay=10ms",
					"delayqueue.topics.flaky.retry.backoff.jitter=0ms",
					"delayqueue.topics.timed.other.completed-retention=1h")
			.run();
		http = new ActuatorHttp(context.getEnvironment().getRequiredProperty("local.server.port", Integer.class));
		delayQueue = context.getBean(DelayQueueOperations.class);
		redis = new StringRedisTemplate(
				context.getBean(org.springframework.data.redis.connection.RedisConnectionFactory.class));
		redis.afterPropertiesSet();
	}

	@AfterAll
	static void stopApplication() {
		if (context != null) {
			context.close();
		}
	}

	@Test
	void showsTheCountsOfEveryTopicWithoutPayloads() {
		delayQueue.send("orders", "secret-order-payload");
		delayQueue.send("orders", "secret-order-payload", Duration.ofHours(1));
		delayQueue.send("mail.vip", "secret-mail-payload");

		ActuatorHttp.Response response = http.get("/delayqueue");

		assertThat(response.status()).isEqualTo(200);
		assertThat(response.json().at("/topics/orders/delayed").asLong()).isEqualTo(1);
		assertThat(response.json().at("/topics/orders/ready").asLong()).isEqualTo(1);
		assertThat(response.json().at("/topics/orders/running").asLong()).isZero();
		assertThat(response.json().at("/topics/orders/dead").asLong()).isZero();
		assertThat(response.json().path("topics").path("mail.vip").path("ready").asLong()).isEqualTo(1);
		assertThat(response.body()).doesNotContain("secret");
	}

	@Test
	void showsAPausedTopicInTheEndpointAndItsGauge() {
		delayQueue.send("paused.shown", "x", Duration.ofHours(1));
		context.getBean(DelayQueueAdmin.class).pause("paused.shown");

		assertThat(http.get("/delayqueue").json().at("/topics/paused.shown/paused").asBoolean()).isTrue();
		assertThat(http.get("/delayqueue/paused.shown").json().path("paused").asBoolean()).isTrue();
		await().atMost(Duration.ofSeconds(20))
			.untilAsserted(() -> assertThat(
					http.get("/metrics/delayqueue.topic.paused?tag=topic:paused.shown").measurement("VALUE"))
				.isEqualTo(1));
		context.getBean(DelayQueueAdmin.class).resume("paused.shown");
		assertThat(http.get("/delayqueue/paused.shown").json().path("paused").asBoolean()).isFalse();
		await().atMost(Duration.ofSeconds(20))
			.untilAsserted(() -> assertThat(
					http.get("/metrics/delayqueue.topic.paused?tag=topic:paused.shown").measurement("VALUE"))
				.isZero());
	}

	@Test
	void showsATopicWithItsListenersOnEveryInstance() {
		delayQueue.send("timed.listed", "x", Duration.ofHours(1));

		await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
			ActuatorHttp.Response response = http.get("/delayqueue/timed.listed");
			assertThat(response.status()).isEqualTo(200);
			assertThat(response.json().path("topic").asString()).isEqualTo("timed.listed");
			assertThat(response.json().path("delayed").asLong()).isEqualTo(1);
			assertThat(response.json().path("ready").asLong()).isZero();
			assertThat(response.json().path("consumers").asInt()).isEqualTo(1);
			assertThat(response.json().path("listeners")).hasSize(1);
			assertThat(response.json().at("/listeners/0/id").asString()).isEqualTo("listedListener");
			// Host names show as show-values allows: never, by default.
			assertThat(response.json().at("/listeners/0/instance").asString()).startsWith(JobInfo.HIDDEN + ":");
			assertThat(response.json().at("/listeners/0/host").asString()).isEqualTo(JobInfo.HIDDEN);
			assertThat(response.json().at("/listeners/0/concurrency").asInt()).isEqualTo(3);
			assertThat(response.json().at("/listeners/0/running").asBoolean()).isTrue();
		});
		ActuatorHttp.Response unheard = http.get("/delayqueue/unheard.of");
		assertThat(unheard.json().path("listeners")).isEmpty();
		assertThat(unheard.json().path("consumers").asInt()).isZero();
	}

	@Test
	void showsTheGroupsWaitingForTheirTurnWithTheirNamesHidden() {
		for (int i = 0; i < 3; i++) {
			delayQueue.send(JobRequest.builder("grouped.reports", "r" + i).group("tenant-secret-a").build());
		}
		delayQueue.send(JobRequest.builder("grouped.reports", "r3").group("tenant-secret-b").build());
		delayQueue.send(JobRequest.builder("grouped.reports", "r4").group("tenant-secret-b").build());
		// No listener runs for the topic: one claim lines its ready jobs up by group.
		context.getBean(JobClaims.class).claim("grouped.reports", null, 1, Duration.ofSeconds(60));

		ActuatorHttp.Response response = http.get("/delayqueue/grouped.reports");
		assertThat(response.json().path("ready").asLong()).isEqualTo(4);
		assertThat(response.json().at("/groups/waiting").asLong()).isEqualTo(2);
		assertThat(response.json().at("/groups/largest/0/group").asString()).isEqualTo(JobInfo.HIDDEN);
		assertThat(response.json().at("/groups/largest/0/waiting").asLong()).isEqualTo(2);
		// No group bounds are set: none runs under one, none is held back.
		assertThat(response.json().at("/groups/largest/0/running").asLong()).isZero();
		assertThat(response.json().at("/groups/largest/0/held").isBoolean()).isTrue();
		assertThat(response.json().at("/groups/largest/0/held").asBoolean()).isFalse();
		assertThat(response.json().at("/groups/largest/1/waiting").asLong()).isEqualTo(1);
		assertThat(response.body()).doesNotContain("tenant-secret");
		assertThat(http.get("/delayqueue/orders").json().at("/groups/waiting").asLong()).isZero();
	}

	@Test
	void showsAJobItsTopicKeepsAfterItCompletedWithoutItsValues() {
		delayQueue.send(JobRequest.builder("timed.other", "secret-kept-payload")
			.id("kept-1")
			.header("Authorization", "Bearer secret-token")
			.build());

		await().atMost(Duration.ofSeconds(20))
			.untilAsserted(() -> assertThat(http.get("/delayqueue/timed.other/kept-1").json().path("state").asString())
				.isEqualTo("COMPLETED"));

		ActuatorHttp.Response job = http.get("/delayqueue/timed.other/kept-1");
		assertThat(job.json().path("finishedBy").asString()).isNotEmpty();
		assertThat(job.json().path("finishedAt").asString()).isNotEmpty();
		assertThat(job.json().path("attempts").asInt()).isEqualTo(1);
		assertThat(job.body()).doesNotContain("secret");
		ActuatorHttp.Response page = http.get("/delayqueue/timed.other?state=completed");
		assertThat(page.json().path("total").asLong()).isEqualTo(1);
		assertThat(page.json().at("/jobs/0/id").asString()).isEqualTo("kept-1");
		delayQueue.send(JobRequest.builder("timed.listed", "not kept").id("unkept-1").build());
		await().atMost(Duration.ofSeconds(20))
			.until(() -> context.getBean(TimedJobs.class).handled.contains("not kept")
					&& http.get("/delayqueue/timed.listed/unkept-1").status() == 404);
	}

	@Test
	void listsTheTopicsThatNoInstanceListensTo() {
		delayQueue.send("timd", "a typo of timed", Duration.ofHours(1));
		delayQueue.send("timed", "later", Duration.ofHours(1));

		await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
			ActuatorHttp.Response response = http.get("/delayqueue");
			assertThat(response.json().path("topicsWithoutListeners").valueStream().map((t) -> t.asString()))
				.contains("timd")
				.doesNotContain("timed", "timed.listed", "flaky");
			assertThat(response.json().at("/topics/timed/consumers").asInt()).isEqualTo(1);
			assertThat(response.json().at("/topics/timed/listeners/0/id").asString()).isEqualTo("timedListener");
			assertThat(response.json().at("/topics/timd/consumers").asInt()).isZero();
		});
		// Health reads the presence at most once per refresh interval (15 s).
		await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
			ActuatorHttp.Response health = http.get("/health/delayQueue");
			assertThat(health.json().at("/details/topicsWithoutListeners").valueStream().map((t) -> t.asString()))
				.contains("timd")
				.doesNotContain("timed");
		});
	}

	@Test
	void publishesTheListenersOfThisInstanceToRedis() {
		await().atMost(Duration.ofSeconds(20))
			.untilAsserted(() -> assertThat(redis.opsForHash().values("dq:listeners"))
				.anySatisfy((entry) -> assertThat((String) entry).contains("\"listedListener\"", "\"timed.other\"",
						"\"concurrency\":3", "\"at\":", "\"host\":")));
	}

	@Test
	void ignoresAndRemovesTheEntriesOfInstancesThatStoppedRefreshingThem() {
		redis.opsForHash()
			.put("dq:listeners", "ghost:0001",
					"{\"host\":\"gone\",\"at\":1000,\"listeners\":[{\"id\":\"ghost\",\"topics\":[\"haunted\"],"
							+ "\"concurrency\":1,\"running\":true}]}");
		redis.opsForHash().put("dq:listeners", "garbled:0002", "not json");

		ActuatorHttp.Response response = http.get("/delayqueue/haunted");

		assertThat(response.json().path("listeners")).isEmpty();
		assertThat(redis.opsForHash().hasKey("dq:listeners", "ghost:0001")).isFalse();
		assertThat(redis.opsForHash().hasKey("dq:listeners", "garbled:0002")).isFalse();
	}

	@Test
	void showsOneJobWithItsPayloadAndHeaderValuesHidden() {
		String id = delayQueue.send(JobRequest.builder("invoices", new Invoice(7, "EUR"))
			.id("invoice-7")
			.header("Authorization", "Bearer secret-token")
			.delay(Duration.ofHours(1))
			.build());

		ActuatorHttp.Response response = http.get("/delayqueue/invoices/" + id);

		assertThat(response.status()).isEqualTo(200);
		assertThat(response.json().path("id").asString()).isEqualTo("invoice-7");
		assertThat(response.json().path("topic").asString()).isEqualTo("invoices");
		assertThat(response.json().path("state").asString()).isEqualTo(JobState.DELAYED.name());
		assertThat(response.json().path("attempts").asInt()).isZero();
		assertThat(response.json().at("/headers/Authorization").asString()).isEqualTo("******");
		assertThat(response.json().path("payloadJson").asString()).isEqualTo("******");
		assertThat(response.body()).doesNotContain("secret-token").doesNotContain("EUR");
	}

	@Test
	void answersNotFoundForAnUnknownJob() {
		delayQueue.send("invoices", "x");

		ActuatorHttp.Response response = http.get("/delayqueue/invoices/no-such-job");

		assertThat(response.status()).isEqualTo(404);
		assertThat(response.json().path("message").asString()).contains("no-such-job", "invoices");
	}

	@Test
	void refusesAnInvalidTopicNameSayingWhy() {
		ActuatorHttp.Response response = http.get("/delayqueue/-bad");

		assertThat(response.status()).isEqualTo(400);
		assertThat(response.json().path("message").asString()).contains("Invalid topic name '-bad'");
		assertThat(http.post("/delayqueue/-bad", "{\"action\":\"purge-dead\"}").json().path("message").asString())
			.contains("Invalid topic name '-bad'");
	}

	@Test
	void cancelsAPendingJob() {
		String id = delayQueue.send("refunds", "check", Duration.ofMinutes(10));
		assertThat(redis.opsForZSet().score("{dq:refunds}:delayed", id)).isNotNull();

		ActuatorHttp.Response response = http.delete("/delayqueue/refunds/" + id);

		assertThat(response.status()).isEqualTo(200);
		assertThat(response.json().path("cancelled").asBoolean()).isTrue();
		assertThat(redis.opsForZSet().score("{dq:refunds}:delayed", id)).isNull();
		assertThat(redis.opsForHash().hasKey("{dq:refunds}:jobs", id)).isFalse();
		assertThat(http.get("/delayqueue/refunds/" + id).status()).isEqualTo(404);
		assertThat(http.delete("/delayqueue/refunds/" + id).json().path("cancelled").asBoolean()).isFalse();
	}

	@Test
	void requeuesDeadJobs() {
		delayQueue.send("partner.calls", "a");
		delayQueue.send("partner.calls", "b");
		buryEverythingReady("partner.calls");
		assertThat(redis.opsForZSet().zCard("{dq:partner.calls}:dead")).isEqualTo(2);

		ActuatorHttp.Response response = http.post("/delayqueue/partner.calls", "{\"action\":\"requeue-dead\"}");

		assertThat(response.status()).isEqualTo(200);
		assertThat(response.json().path("requeued").asLong()).isEqualTo(2);
		assertThat(redis.opsForZSet().zCard("{dq:partner.calls}:dead")).isZero();
		assertThat(redis.opsForList().size("{dq:partner.calls}:ready")).isEqualTo(2);
		assertThat(http.get("/delayqueue/partner.calls").json().path("ready").asLong()).isEqualTo(2);
	}

	@Test
	void requeuesOneDeadJob() {
		delayQueue.send(JobRequest.builder("partner.one", "a").id("dead-a").build());
		delayQueue.send(JobRequest.builder("partner.one", "b").id("dead-b").build());
		buryEverythingReady("partner.one");

		ActuatorHttp.Response response = http.post("/delayqueue/partner.one",
				"{\"action\":\"requeue-dead\",\"jobId\":\"dead-b\"}");

		assertThat(response.status()).isEqualTo(200);
		assertThat(response.json().path("requeued").asLong()).isEqualTo(1);
		assertThat(redis.opsForZSet().range("{dq:partner.one}:dead", 0, -1)).containsExactly("dead-a");
		assertThat(redis.opsForList().range("{dq:partner.one}:ready", 0, -1)).containsExactly("dead-b");
	}

	@Test
	void purgesOneDeadJobThenAllOfThem() {
		for (String id : List.of("p1", "p2", "p3")) {
			delayQueue.send(JobRequest.builder("partner.purged", id).id(id).build());
		}
		buryEverythingReady("partner.purged");

		ActuatorHttp.Response one = http.post("/delayqueue/partner.purged",
				"{\"action\":\"purge-dead\",\"jobId\":\"p2\"}");

		assertThat(one.status()).isEqualTo(200);
		assertThat(one.json().path("purged").asLong()).isEqualTo(1);
		assertThat(redis.opsForZSet().range("{dq:partner.purged}:dead", 0, -1)).containsExactlyInAnyOrder("p1", "p3");
		assertThat(redis.opsForHash().hasKey("{dq:partner.purged}:jobs", "p2")).isFalse();
		assertThat(redis.opsForHash().hasKey("{dq:partner.purged}:jobs", "p1")).isTrue();

		ActuatorHttp.Response all = http.post("/delayqueue/partner.purged", "{\"action\":\"purge-dead\"}");

		assertThat(all.json().path("purged").asLong()).isEqualTo(2);
		assertThat(redis.opsForZSet().zCard("{dq:partner.purged}:dead")).isZero();
		assertThat(redis.opsForHash().size("{dq:partner.purged}:jobs")).isZero();
	}

	@Test
	void answersNotFoundWithAMessageForAJobThatIsNotDead() {
		delayQueue.send(JobRequest.builder("partner.alive", "a").id("alive").delay(Duration.ofHours(1)).build());

		ActuatorHttp.Response requeue = http.post("/delayqueue/partner.alive",
				"{\"action\":\"requeue-dead\",\"jobId\":\"alive\"}");
		ActuatorHttp.Response purge = http.post("/delayqueue/partner.alive",
				"{\"action\":\"purge-dead\",\"jobId\":\"alive\"}");

		assertThat(requeue.status()).isEqualTo(404);
		assertThat(requeue.json().path("message").asString()).isEqualTo("No dead job 'alive' in topic 'partner.alive'");
		assertThat(purge.status()).isEqualTo(404);
		assertThat(redis.opsForZSet().score("{dq:partner.alive}:delayed", "alive")).isNotNull();
	}

	@Test
	void listsDeadJobsPageByPage() {
		for (int i = 1; i <= 3; i++) {
			delayQueue.send(JobRequest.builder("partner.listed", "secret-" + i).id("listed-" + i).build());
		}
		buryEverythingReady("partner.listed");

		ActuatorHttp.Response first = http.get("/delayqueue/partner.listed?state=dead&offset=0&count=2");
		ActuatorHttp.Response second = http.get("/delayqueue/partner.listed?state=dead&offset=2&count=2");

		assertThat(first.status()).isEqualTo(200);
		assertThat(first.json().path("total").asLong()).isEqualTo(3);
		assertThat(first.json().path("state").asString()).isEqualTo("dead");
		assertThat(first.json().path("jobs")).hasSize(2);
		// Error messages show as show-values allows: never, by default.
		assertThat(first.json().at("/jobs/0/lastError").asString()).isEqualTo(JobInfo.HIDDEN);
		DelayQueueEndpoint showing = new DelayQueueEndpoint(delayQueue, context.getBean(DelayQueueAdmin.class),
				new ListenerPresence(redis, "dq"), Show.ALWAYS, Set.of());
		DelayQueueEndpoint.JobsDescriptor shown = (DelayQueueEndpoint.JobsDescriptor) showing
			.topic(SecurityContext.NONE, "partner.listed", "dead", 0, 2);
		assertThat(shown.jobs().get(0).lastError()).isEqualTo("failed for the test");
		assertThat(first.json().at("/jobs/0/attempts").asInt()).isEqualTo(1);
		assertThat(first.json().at("/jobs/0/dueAt").asString()).isNotEmpty();
		assertThat(second.json().path("jobs")).hasSize(1);
		assertThat(List.of(first.json().at("/jobs/0/id").asString(), first.json().at("/jobs/1/id").asString(),
				second.json().at("/jobs/0/id").asString()))
			.containsExactlyInAnyOrder("listed-1", "listed-2", "listed-3");
		assertThat(first.body() + second.body()).doesNotContain("secret");
		assertThat(http.get("/delayqueue/partner.listed?state=dead").json().path("jobs")).hasSize(3);
	}

	@Test
	void showsWhenEachDeadJobDiedBesideItsOldDueTime() {
		delayQueue.send(JobRequest.builder("partner.died", "x").id("died-1").build());
		buryEverythingReady("partner.died");
		// The dead set's score is the time of death, by the Redis clock; set to a known
		// instant here, long after the job was due.
		Instant died = Instant.now().plus(Duration.ofDays(3)).truncatedTo(ChronoUnit.MILLIS);
		redis.opsForZSet().add("{dq:partner.died}:dead", "died-1", died.toEpochMilli());

		ActuatorHttp.Response page = http.get("/delayqueue/partner.died?state=dead");
		ActuatorHttp.Response job = http.get("/delayqueue/partner.died/died-1");

		assertThat(Instant.parse(page.json().at("/jobs/0/diedAt").asString())).isEqualTo(died);
		assertThat(Instant.parse(page.json().at("/jobs/0/dueAt").asString())).isBefore(died.minus(Duration.ofDays(2)));
		assertThat(Instant.parse(job.json().path("diedAt").asString())).isEqualTo(died);
		delayQueue.send("partner.died", "y", Duration.ofHours(1));
		String delayed = http.get("/delayqueue/partner.died?state=delayed").json().path("jobs").get(0).toString();
		assertThat(delayed).contains("\"dueAt\"").doesNotContain("diedAt\":\"");
	}

	@Test
	void listsAPageOfDelayedJobsSoonestFirst() {
		String later = delayQueue.send("delayed.listed", "secret-later", Duration.ofHours(2));
		String sooner = delayQueue.send("delayed.listed", "secret-sooner", Duration.ofHours(1));

		ActuatorHttp.Response page = http.get("/delayqueue/delayed.listed?state=delayed&count=10");

		assertThat(page.status()).isEqualTo(200);
		assertThat(page.json().path("state").asString()).isEqualTo("delayed");
		assertThat(page.json().path("total").asLong()).isEqualTo(2);
		assertThat(List.of(page.json().at("/jobs/0/id").asString(), page.json().at("/jobs/1/id").asString()))
			.containsExactly(sooner, later);
		assertThat(page.body()).doesNotContain("secret");
	}

	@Test
	void refusesABadPageOrStateSayingWhy() {
		ActuatorHttp.Response state = http.get("/delayqueue/partner.listed?state=gone");
		ActuatorHttp.Response count = http.get("/delayqueue/partner.listed?state=dead&count=0");

		assertThat(state.status()).isEqualTo(400);
		assertThat(state.json().path("message").asString()).contains("'gone'")
			.contains("delayed, ready, running, dead, completed or cancelled");
		assertThat(count.status()).isEqualTo(400);
		assertThat(count.json().path("message").asString()).contains("count 1 to 1000");
	}

	@Test
	void refusesAnUnknownOrMissingActionSayingWhy() {
		ActuatorHttp.Response unknown = http.post("/delayqueue/partner.calls", "{\"action\":\"purge-everything\"}");
		ActuatorHttp.Response missing = http.post("/delayqueue/partner.calls", "{}");

		assertThat(unknown.status()).isEqualTo(400);
		assertThat(unknown.json().path("message").asString()).startsWith("Unknown action 'purge-everything'");
		assertThat(missing.status()).isEqualTo(400);
		assertThat(missing.json().path("message").asString()).startsWith("No action given");
	}

	@Test
	void refusesAJobIdTheEndpointCouldNotAddress() {
		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(() -> delayQueue.send(JobRequest.builder("invoices", "x").id("a/b").build()))
			.withMessageContaining("must not contain '/'");
	}

	@Test
	void countsSentJobsPerTopic() {
		delayQueue.send("metered", 1);
		delayQueue.sendAll(List.of(JobRequest.builder("metered", 2).build(),
				JobRequest.builder("metered", 3).delay(Duration.ofHours(1)).build(),
				JobRequest.builder("metered.other", 4).build()));

		ActuatorHttp.Response sent = http.get("/metrics/delayqueue.jobs.sent?tag=topic:metered");

		assertThat(sent.status()).isEqualTo(200);
		assertThat(sent.measurement("COUNT")).isEqualTo(3);
		assertThat(http.get("/metrics/delayqueue.jobs.sent?tag=topic:metered.other").measurement("COUNT")).isEqualTo(1);
		// The gauges show the counts of the latest background refresh.
		await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
			assertThat(
					http.get("/metrics/delayqueue.queue.size?tag=topic:metered&tag=state:ready").measurement("VALUE"))
				.isEqualTo(2);
			assertThat(
					http.get("/metrics/delayqueue.queue.size?tag=topic:metered&tag=state:delayed").measurement("VALUE"))
				.isEqualTo(1);
		});
	}

	@Test
	void recordsLatenessAndDurationOfJobsRunByAListener() {
		delayQueue.send("timed", "tick", Duration.ofMillis(300));

		TimedJobs jobs = context.getBean(TimedJobs.class);
		await().atMost(Duration.ofSeconds(20)).until(() -> jobs.handled.contains("tick"));
		await().atMost(Duration.ofSeconds(20))
			.untilAsserted(() -> assertThat(
					http.get("/metrics/delayqueue.jobs.completed?tag=topic:timed").measurement("COUNT"))
				.isEqualTo(1));
		ActuatorHttp.Response lateness = http.get("/metrics/delayqueue.job.lateness?tag=topic:timed");
		assertThat(lateness.measurement("COUNT")).isEqualTo(1);
		assertThat(lateness.measurement("TOTAL_TIME")).isGreaterThanOrEqualTo(0).isLessThan(10);
		ActuatorHttp.Response duration = http
			.get("/metrics/delayqueue.job.duration?tag=topic:timed&tag=outcome:success");
		assertThat(duration.measurement("COUNT")).isEqualTo(1);
	}

	@Test
	void countsFailuresRetriesAndDeadJobsOfAFailingListener() {
		delayQueue.send("flaky", "always fails");

		await().atMost(Duration.ofSeconds(20))
			.untilAsserted(
					() -> assertThat(http.get("/metrics/delayqueue.jobs.dead?tag=topic:flaky").measurement("COUNT"))
						.isEqualTo(1));
		assertThat(http.get("/metrics/delayqueue.jobs.failed?tag=topic:flaky").measurement("COUNT")).isEqualTo(2);
		assertThat(http.get("/metrics/delayqueue.jobs.retried?tag=topic:flaky").measurement("COUNT")).isEqualTo(1);
		assertThat(
				http.get("/metrics/delayqueue.job.duration?tag=topic:flaky&tag=outcome:failure").measurement("COUNT"))
			.isEqualTo(2);
		await().atMost(Duration.ofSeconds(20))
			.untilAsserted(() -> assertThat(
					http.get("/metrics/delayqueue.queue.size?tag=topic:flaky&tag=state:dead").measurement("VALUE"))
				.isEqualTo(1));
	}

	@Test
	void reportsHealthWithTheNumberOfTopics() {
		delayQueue.send("healthy", "x", Duration.ofHours(1));

		ActuatorHttp.Response response = http.get("/health/delayQueue");

		assertThat(response.status()).isEqualTo(200);
		assertThat(response.json().path("status").asString()).isEqualTo("UP");
		assertThat(response.json().at("/details/topics").asInt())
			.isEqualTo(context.getBean(DelayQueueAdmin.class).topics().size());
		assertThat(response.json().at("/details/healthy").isMissingNode()).isTrue();
	}

	private static void buryEverythingReady(String topic) {
		ScriptRunner scripts = context.getBean(ScriptRunner.class);
		TopicKeys k = context.getBean(DelayQueueKeys.class).topic(topic);
		List<Object> claimed = scripts.run(DelayQueueScript.CLAIM, List.of(k.ready(), k.claiming(), k.running(),
				k.jobs(), k.attempts(), k.claimReceipt("test"), k.ghosts()), "", "100", "60000",
				String.valueOf(System.nanoTime()));
		for (int i = 1; i + 2 < claimed.size(); i += 3) {
			scripts.run(DelayQueueScript.BURY,
					List.of(k.running(), k.dead(), k.attempts(), k.errors(), k.jobs(), k.delayed(), k.ready(),
							k.successors()),
					(String) claimed.get(i), String.valueOf(claimed.get(i + 1)), "failed for the test", "-1", "",
					topic);
		}
	}

	record Invoice(int number, String currency) {
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class ObservedApplication {

		@Bean
		TimedJobs timedJobs() {
			return new TimedJobs();
		}

	}

	static class TimedJobs {

		final List<String> handled = new CopyOnWriteArrayList<>();

		@DelayedJobListener(topics = "timed", id = "timedListener")
		void handle(String payload) {
			this.handled.add(payload);
		}

		@DelayedJobListener(topics = "flaky", id = "flakyListener")
		void fail(String payload) {
			throw new IllegalStateException("Failing on purpose: " + payload);
		}

		@DelayedJobListener(topics = { "timed.listed", "timed.other" }, id = "listedListener", concurrency = "3")
		void listed(String payload) {
			this.handled.add(payload);
		}

	}

}
