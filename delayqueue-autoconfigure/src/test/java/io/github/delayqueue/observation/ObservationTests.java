package io.github.delayqueue.observation;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.JobRequest;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import io.micrometer.common.KeyValue;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.tracing.Tracer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Sends and handler runs as the application's {@link ObservationRegistry} sees them:
 * names, contextual names, every key and the outcome, against a real Redis.
 */
@ExtendWith(RedisExtension.class)
class ObservationTests {

	private static final Duration PATIENCE = Duration.ofSeconds(30);

	// The test applications have Micrometer Tracing without a bridge, so Spring Boot's
	// no-op tracer: nothing traces, and the starter observes only when told to.
	private static final String OBSERVED = "delayqueue.observation.enabled=true";

	private static final Set<String> LOW_KEYS = Set.of("messaging.system", "messaging.operation",
			"messaging.destination.name", "delayqueue.listener.id", "error", "delayqueue.outcome");

	private static final Set<String> HIGH_KEYS = Set.of("messaging.message.id", "delayqueue.attempt",
			"messaging.batch.message_count");

	private final List<ConfigurableApplicationContext> contexts = new ArrayList<>();

	private final List<Observation.Context> stopped = new CopyOnWriteArrayList<>();

	private RedisTestServer server;

	@BeforeEach
	void setUp(RedisTestServer server) {
		server.flushAll();
		this.server = server;
	}

	@AfterEach
	void tearDown() {
		this.contexts.forEach(ConfigurableApplicationContext::close);
	}

	@Test
	void observesASendAndTheHandlerRunWithEveryKey() {
		TestObservationRegistry registry = recordingRegistry();
		DelayQueueOperations queue = start(registry, OBSERVED);

		String id = queue.send("observed.orders", "order-1");

		await().atMost(PATIENCE).until(() -> contexts(DelayQueueProcessContext.class).size() == 1);
		DelayQueueSendContext send = contexts(DelayQueueSendContext.class).get(0);
		assertThat(send.getName()).isEqualTo("delayqueue.send");
		assertThat(send.getContextualName()).isEqualTo("observed.orders send");
		assertKeys(send,
				Map.of("messaging.system", "redis", "messaging.operation", "publish", "messaging.destination.name",
						"observed.orders", "delayqueue.listener.id", "none", "error", "none", "delayqueue.outcome",
						"none"),
				Map.of("messaging.message.id", id, "delayqueue.attempt", "none", "messaging.batch.message_count", "1"));
		DelayQueueProcessContext process = contexts(DelayQueueProcessContext.class).get(0);
		assertThat(process.getName()).isEqualTo("delayqueue.process");
		assertThat(process.getContextualName()).isEqualTo("observed.orders process");
		assertKeys(process,
				Map.of("messaging.system", "redis", "messaging.operation", "process", "messaging.destination.name",
						"observed.orders", "delayqueue.listener.id", "observedListener", "error", "none",
						"delayqueue.outcome", "success"),
				Map.of("messaging.message.id", id, "delayqueue.attempt", "1", "messaging.batch.message_count", "1"));
		// The handler ran inside its observation.
		assertThat(bean(Handlers.class).observedInside).containsExactly("delayqueue.process");
		assertThat(registry).doesNotHaveAnyRemainingCurrentObservation();
	}

	@Test
	void reportsRetryThenDeadWithTheErrorOfEachRun() {
		TestObservationRegistry registry = recordingRegistry();
		DelayQueueOperations queue = start(registry, OBSERVED);

		String id = queue.send(JobRequest.builder("observed.failing", "doomed").maxAttempts(2).build());

		await().atMost(PATIENCE).until(() -> admin().stats("observed.failing").dead() == 1);
		await().atMost(PATIENCE).until(() -> contexts(DelayQueueProcessContext.class).size() == 2);
		List<DelayQueueProcessContext> runs = contexts(DelayQueueProcessContext.class);
		assertThat(runs).extracting(DelayQueueProcessContext::getOutcome).containsExactly("retry", "dead");
		assertThat(runs).extracting(DelayQueueProcessContext::getAttempt).containsExactly(1, 2);
		for (DelayQueueProcessContext run : runs) {
			assertThat(run.getJobId()).isEqualTo(id);
			assertThat(run.getError()).isInstanceOf(IllegalStateException.class);
			assertThat(run.getLowCardinalityKeyValue("error").getValue()).isEqualTo("IllegalStateException");
		}
	}

	@Test
	void observesABatchOnceWithItsCountAndEveryJobCarriesItsContext() {
		TestObservationRegistry registry = recordingRegistry();
		DelayQueueOperations queue = start(registry, OBSERVED);

		queue.sendAll(List.of(JobRequest.builder("observed.later", "a").delay(Duration.ofHours(1)).build(),
				JobRequest.builder("observed.later", "b").delay(Duration.ofHours(1)).build(),
				JobRequest.builder("observed.other", "c").delay(Duration.ofHours(1)).build()));

		List<DelayQueueSendContext> sends = contexts(DelayQueueSendContext.class);
		assertThat(sends).hasSize(1);
		assertKeys(sends.get(0),
				Map.of("messaging.system", "redis", "messaging.operation", "publish", "messaging.destination.name",
						"multiple", "delayqueue.listener.id", "none", "error", "none", "delayqueue.outcome", "none"),
				Map.of("messaging.message.id", "none", "delayqueue.attempt", "none", "messaging.batch.message_count",
						"3"));
	}

	@Test
	void observesNothingWhenSwitchedOff() {
		TestObservationRegistry registry = recordingRegistry();
		DelayQueueOperations queue = start(registry, "delayqueue.observation.enabled=false");

		queue.send("observed.orders", "order-2");

		await().atMost(PATIENCE).until(() -> bean(Handlers.class).handled.size() == 1);
		assertThat(this.stopped).isEmpty();
	}

	@Test
	void observesNothingByDefaultWhenTheApplicationDoesNotTrace() {
		TestObservationRegistry registry = recordingRegistry();
		DelayQueueOperations queue = start(registry);
		assertThat(bean(Tracer.class)).isSameAs(Tracer.NOOP);

		queue.send("observed.orders", "order-4");
		queue.sendAll(List.of(JobRequest.builder("observed.orders", "order-5").build()));

		await().atMost(PATIENCE).until(() -> bean(Handlers.class).handled.size() == 2);
		assertThat(this.stopped).isEmpty();
		assertThat(bean(Handlers.class).observedInside).isEmpty();
	}

	@Test
	void meterNamesStayAndEachTimerHasOneSetOfTags() {
		MeterRegistry meters = new SimpleMeterRegistry();
		ObservationRegistry registry = ObservationRegistry.create();
		registry.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
		DelayQueueOperations queue = start(registry, OBSERVED);
		MeterRegistry applicationMeters = bean(MeterRegistry.class);

		queue.send("observed.orders", "order-3");
		queue.send(JobRequest.builder("observed.failing", "doomed").maxAttempts(1).build());

		await().atMost(PATIENCE)
			.until(() -> admin().stats("observed.failing").dead() == 1
					&& meters.find("delayqueue.process").timers().size() == 2);
		assertThat(meters.find("delayqueue.send").timers()).isNotEmpty();
		// The starter's own meters keep their names and live in the application's
		// registry.
		assertThat(applicationMeters.find("delayqueue.job.duration").timers()).isNotEmpty();
		assertThat(applicationMeters.find("delayqueue.job.lateness").timers()).isNotEmpty();
		for (String name : List.of("delayqueue.send", "delayqueue.process")) {
			Set<Set<String>> tagKeys = meters.find(name)
				.meters()
				.stream()
				.map((meter) -> meter.getId().getTags().stream().map((tag) -> tag.getKey()).collect(Collectors.toSet()))
				.collect(Collectors.toSet());
			assertThat(tagKeys).as(name).hasSize(1);
			assertThat(tagKeys.iterator().next()).containsAll(LOW_KEYS);
		}
		assertThat(meters.getMeters().stream().map(Meter::getId).map(Meter.Id::getName))
			.noneMatch((name) -> name.startsWith("delayqueue.job."));
	}

	private void assertKeys(Observation.Context context, Map<String, String> low, Map<String, String> high) {
		assertThat(context.getLowCardinalityKeyValues().stream().map(KeyValue::getKey))
			.containsExactlyInAnyOrderElementsOf(LOW_KEYS);
		assertThat(context.getHighCardinalityKeyValues().stream().map(KeyValue::getKey))
			.containsExactlyInAnyOrderElementsOf(HIGH_KEYS);
		low.forEach(
				(key, value) -> assertThat(context.getLowCardinalityKeyValue(key).getValue()).as(key).isEqualTo(value));
		high.forEach((key, value) -> assertThat(context.getHighCardinalityKeyValue(key).getValue()).as(key)
			.isEqualTo(value));
	}

	private <T> List<T> contexts(Class<T> type) {
		return this.stopped.stream().filter(type::isInstance).map(type::cast).toList();
	}

	// The test registry checks that every observation is started, scoped and stopped
	// once; this handler keeps the stopped ones.
	private TestObservationRegistry recordingRegistry() {
		TestObservationRegistry registry = TestObservationRegistry.create();
		registry.observationConfig().observationHandler(new ObservationHandler<>() {

			@Override
			public boolean supportsContext(Observation.Context context) {
				return context instanceof DelayQueueSendContext || context instanceof DelayQueueProcessContext;
			}

			@Override
			public void onStop(Observation.Context context) {
				ObservationTests.this.stopped.add(context);
			}

		});
		return registry;
	}

	private DelayQueueOperations start(ObservationRegistry registry, String... properties) {
		List<String> all = new ArrayList<>(List.of("spring.data.redis.host=" + this.server.host(),
				"spring.data.redis.port=" + this.server.port(), "delayqueue.history.enabled=false"));
		all.addAll(List.of(properties));
		ConfigurableApplicationContext context = new SpringApplicationBuilder(ObservedApplication.class)
			.web(WebApplicationType.NONE)
			.initializers((applicationContext) -> applicationContext.getBeanFactory()
				.registerSingleton("observationRegistry", registry))
			.properties(all.toArray(String[]::new))
			.run();
		this.contexts.add(context);
		return context.getBean(DelayQueueOperations.class);
	}

	private DelayQueueAdmin admin() {
		return this.contexts.get(this.contexts.size() - 1).getBean(DelayQueueAdmin.class);
	}

	private <T> T bean(Class<T> type) {
		return this.contexts.get(0).getBean(type);
	}

	static class Handlers {

		final List<String> handled = new CopyOnWriteArrayList<>();

		final List<String> observedInside = new CopyOnWriteArrayList<>();

		private final ObservationRegistry registry;

		Handlers(ObservationRegistry registry) {
			this.registry = registry;
		}

		@DelayedJobListener(id = "observedListener", topics = "observed.orders")
		void order(String payload) {
			Observation current = this.registry.getCurrentObservation();
			if (current != null) {
				this.observedInside.add(current.getContext().getName());
			}
			this.handled.add(payload);
		}

		@DelayedJobListener(id = "failingListener", topics = "observed.failing")
		void fail(String payload) {
			throw new IllegalStateException("fails on purpose");
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class ObservedApplication {

		@Bean
		Handlers handlers(ObservationRegistry registry) {
			return new Handlers(registry);
		}

		@Bean
		MeterRegistry meterRegistry() {
			return new SimpleMeterRegistry();
		}

	}

}
