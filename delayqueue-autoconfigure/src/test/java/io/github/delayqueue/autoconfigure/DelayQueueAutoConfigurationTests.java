package io.github.delayqueue.autoconfigure;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.DelayQueueTemplate;
import io.github.delayqueue.internal.scheduler.DelayedJobScheduler;
import io.github.delayqueue.internal.support.TopicPolicy;
import io.github.delayqueue.listener.DelayedJobListenerEndpointRegistry;
import io.github.delayqueue.test.DelayQueueContextRunner;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The auto-configuration's beans and conditions, and the stored payload format, against a
 * real Redis. Configuration that needs no Redis is tested in
 * {@link DelayQueuePropertiesTests}.
 */
@ExtendWith(RedisExtension.class)
class DelayQueueAutoConfigurationTests {

	private ApplicationContextRunner runner;

	@BeforeEach
	void setUp(RedisTestServer server) {
		this.runner = DelayQueueContextRunner.create(server);
	}

	@Test
	void providesTheTemplateTheSchedulerAndTheListenerInfrastructure() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(DelayQueueTemplate.class)
				.hasSingleBean(DelayedJobScheduler.class)
				.hasSingleBean(DelayedJobListenerEndpointRegistry.class)
				.hasBean("delayQueueWakeUpContainer");
			assertThat(context.getBean(DelayedJobScheduler.class).isRunning()).isTrue();
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			String id = queue.send("autoconfigured", "hello");
			assertThat(queue.find("autoconfigured", id)).isPresent();
		});
	}

	@Test
	void backsOffWhenTheApplicationDefinesItsOwnBeans() {
		this.runner.withUserConfiguration(OwnBeans.class).run((context) -> {
			assertThat(context).hasSingleBean(DelayQueueOperations.class)
				.hasBean("ownOperations")
				.doesNotHaveBean("delayQueueTemplate")
				.hasSingleBean(DelayedJobScheduler.class)
				.hasBean("ownScheduler");
		});
	}

	@Test
	void leavesTheListenersOutWhenTheyAreDisabled() {
		this.runner.withPropertyValues("delayqueue.listener.enabled=false").run((context) -> {
			assertThat(context).hasSingleBean(DelayQueueTemplate.class)
				.hasSingleBean(DelayedJobScheduler.class)
				.doesNotHaveBean(DelayedJobListenerEndpointRegistry.class);
		});
	}

	@Test
	void storesAndReadsPayloadsAlikeWhateverSpringJacksonPropertiesSay() {
		AtomicReference<String> plain = new AtomicReference<>();
		this.runner.withUserConfiguration(OrderListener.class)
			.run((context) -> plain.set(sendAndReceiveAnOrder(context)));
		this.runner.withUserConfiguration(OrderListener.class)
			.withPropertyValues("spring.jackson.property-naming-strategy=SNAKE_CASE")
			.run((context) -> {
				assertThat(context.getBean(JsonMapper.class).writeValueAsString(new Order(1, "EUR")))
					.as("the application's own mapper follows spring.jackson.*")
					.contains("order_id");
				assertThat(sendAndReceiveAnOrder(context)).isEqualTo(plain.get());
			});
	}

	@Test
	void readsPayloadsWhoseStoredJsonHasAFieldTheClassNoLongerHas() {
		this.runner.withUserConfiguration(OrderListener.class).run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			queue.send("json.orders", Map.of("orderId", 7, "currency", "EUR", "removedField", "gone"));
			OrderListener listener = context.getBean(OrderListener.class);
			assertThat(listener.orders.poll(30, TimeUnit.SECONDS)).isEqualTo(new Order(7, "EUR"));
		});
	}

	@Test
	void usesTheApplicationsDelayQueueJsonMapperWhenItDefinesOne() {
		this.runner.withUserConfiguration(SnakeCaseMapper.class).run((context) -> {
			assertThat(context.getBean(DelayQueueAutoConfiguration.JSON_MAPPER_BEAN_NAME))
				.isSameAs(context.getBean(SnakeCaseMapper.class).mapper);
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			String id = queue.send("json.own", new Order(3, "USD"));
			assertThat(queue.find("json.own", id))
				.hasValueSatisfying((job) -> assertThat(job.payloadJson()).contains("\"order_id\":3"));
		});
	}

	private String sendAndReceiveAnOrder(AssertableApplicationContext context) throws InterruptedException {
		DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
		String id = queue.send("json.orders", new Order(42, "EUR"), Duration.ofHours(1));
		String stored = queue.find("json.orders", id).orElseThrow().payloadJson();
		assertThat(stored).contains("\"orderId\":42");
		queue.send("json.orders", new Order(42, "EUR"));
		assertThat(context.getBean(OrderListener.class).orders.poll(30, TimeUnit.SECONDS))
			.isEqualTo(new Order(42, "EUR"));
		queue.cancel("json.orders", id);
		return stored;
	}

	record Order(long orderId, String currency) {
	}

	static class OrderListener {

		final BlockingQueue<Order> orders = new LinkedBlockingQueue<>();

		@DelayedJobListener("json.orders")
		void onOrder(Order order) {
			this.orders.add(order);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class SnakeCaseMapper {

		final JsonMapper mapper = JsonMapper.builder()
			.propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
			.build();

		@Bean
		JsonMapper delayQueueJsonMapper() {
			return this.mapper;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnBeans {

		@Bean
		DelayQueueOperations ownOperations(io.github.delayqueue.internal.store.JobStore store,
				io.github.delayqueue.internal.store.JobRecordCodec codec) {
			return new DelayQueueTemplate(store, codec, JsonMapper.builder().build());
		}

		@Bean
		DelayedJobScheduler ownScheduler(io.github.delayqueue.internal.store.ScriptRunner scripts,
				io.github.delayqueue.internal.store.DelayQueueKeys keys,
				io.github.delayqueue.internal.store.JobStore store) {
			return new DelayedJobScheduler(scripts, keys, store, (topic) -> TopicPolicy.defaults(), 10,
					Duration.ofSeconds(1));
		}

	}

}
