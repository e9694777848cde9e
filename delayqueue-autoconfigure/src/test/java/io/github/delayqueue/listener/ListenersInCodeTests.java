package io.github.delayqueue.listener;

import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.DelayedJob;
import io.github.delayqueue.core.FailureAction;
import io.github.delayqueue.core.JobInfo;
import io.github.delayqueue.core.JobState;
import io.github.delayqueue.test.DelayQueueContextRunner;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.BeanInitializationException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.util.ReflectionUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * Listeners registered in code, by a {@link DelayedJobListenerConfigurer} bean or at run
 * time, consuming jobs from a real Redis as annotated methods do.
 */
@ExtendWith(RedisExtension.class)
class ListenersInCodeTests {

	private ApplicationContextRunner runner;

	@BeforeEach
	void setUp(RedisTestServer server) {
		server.flushAll();
		this.runner = DelayQueueContextRunner.create(server);
	}

	@Test
	void runsAHandlerThatAConfigurerRegisters() {
		this.runner.withUserConfiguration(HandlerConfigurer.class).run((context) -> {
			context.getBean(DelayQueueOperations.class).send("code.orders", new Order(7, "EUR"));
			Recorder recorder = context.getBean(Recorder.class);
			await().atMost(Duration.ofSeconds(10)).until(() -> recorder.jobs.size() == 1);
			DelayedJob<?> job = recorder.jobs.peek();
			assertThat(job.payload()).isEqualTo(new Order(7, "EUR"));
			assertThat(job.topic()).isEqualTo("code.orders");
			DelayedJobListenerContainer container = context.getBean(DelayedJobListenerEndpointRegistry.class)
				.getListenerContainer("orders-in-code");
			assertThat(container.getTopics()).containsExactly("code.orders");
			assertThat(container.getConcurrency()).isEqualTo(3);
		});
	}

	@Test
	void convertsGenericPayloadsForAHandler() {
		this.runner.withUserConfiguration(GenericHandlerConfigurer.class).run((context) -> {
			context.getBean(DelayQueueOperations.class).send("code.items", List.of(new Order(1, "EUR")));
			Recorder recorder = context.getBean(Recorder.class);
			await().atMost(Duration.ofSeconds(10)).until(() -> recorder.jobs.size() == 1);
			assertThat(recorder.jobs.peek().payload()).isEqualTo(List.of(new Order(1, "EUR")));
		});
	}

	@Test
	void retriesAJobWhoseHandlerThrows() {
		this.runner.withUserConfiguration(FailingOnceConfigurer.class)
			.withPropertyValues("delayqueue.topics.code.flaky.retry.backoff.delay=50ms")
			.run((context) -> {
				context.getBean(DelayQueueOperations.class).send("code.flaky", "x");
				Recorder recorder = context.getBean(Recorder.class);
				await().atMost(Duration.ofSeconds(10)).until(() -> recorder.jobs.size() == 2);
				assertThat(recorder.jobs).extracting(DelayedJob::attempt).containsExactly(1, 2);
			});
	}

	@Test
	void letsAnEndpointsOwnErrorHandlerDecide() {
		this.runner.withUserConfiguration(OwnErrorHandlerConfigurer.class).run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			String id = queue.send("code.dead", "x");
			Recorder recorder = context.getBean(Recorder.class);
			await().atMost(Duration.ofSeconds(10))
				.until(() -> queue.find("code.dead", id).map(JobInfo::state).orElse(null) == JobState.DEAD);
			assertThat(recorder.jobs).extracting(DelayedJob::attempt).containsExactly(1);
			assertThat(recorder.payloads).containsExactly("failing on purpose");
		});
	}

	@Test
	void runsABeanMethodThatAConfigurerRegisters() {
		this.runner.withUserConfiguration(MethodConfigurer.class).run((context) -> {
			context.getBean(DelayQueueOperations.class).send("code.method", new Order(3, "USD"));
			Recorder recorder = context.getBean(Recorder.class);
			await().atMost(Duration.ofSeconds(10)).until(() -> recorder.payloads.size() == 1);
			assertThat(recorder.payloads).containsExactly(new Order(3, "USD"));
		});
	}

	@Test
	void runsAnEndpointRegisteredAtRunTime() {
		this.runner.withUserConfiguration(RecorderConfiguration.class).run((context) -> {
			Recorder recorder = context.getBean(Recorder.class);
			DelayedJobListenerEndpointRegistry registry = context.getBean(DelayedJobListenerEndpointRegistry.class);
			registry.register(DelayedJobListenerEndpoint.builder("late")
				.topics("code.late")
				.handler(String.class, recorder.jobs::add)
				.build());
			assertThat(registry.getListenerContainer("late").isRunning()).isTrue();
			context.getBean(DelayQueueOperations.class).send("code.late", "hello");
			await().atMost(Duration.ofSeconds(10)).until(() -> recorder.jobs.size() == 1);
			assertThat(recorder.jobs.peek().payload()).isEqualTo("hello");
		});
	}

	@Test
	void failsStartUpNamingAListenerWhoseIdIsTaken() {
		this.runner.withUserConfiguration(HandlerConfigurer.class, SameIdConfigurer.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).isInstanceOf(BeanInitializationException.class)
				.hasMessageContaining(
						"Listener 'orders-in-code' registered by DelayedJobListenerConfigurer bean 'sameId'")
				.hasMessageContaining("already has the id 'orders-in-code'");
		});
	}

	@Test
	void failsStartUpNamingAListenerWhoseMethodCannotBeServed() {
		this.runner.withUserConfiguration(TwoPayloadsConfigurer.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).isInstanceOf(BeanInitializationException.class)
				.hasMessage(
						"DelayedJobListenerConfigurer bean 'twoPayloads' registered a listener that cannot be served")
				.rootCause()
				.hasMessageStartingWith("Listener 'two-payloads' cannot be served")
				.hasMessageContaining("more than one payload parameter");
		});
	}

	@Test
	void refusesAnEndpointThatCannotBeServedWhenBuilt() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> DelayedJobListenerEndpoint.builder("no-topic").handler(String.class, (job) -> {
			}).build())
			.withMessage("Listener 'no-topic' names no topic");
		assertThatIllegalArgumentException().isThrownBy(
				() -> DelayedJobListenerEndpoint.builder("bad").topics("no spaces").handler(String.class, (job) -> {
				}).build())
			.withMessageStartingWith("Listener 'bad' names an invalid topic 'no spaces'");
		assertThatIllegalArgumentException().isThrownBy(
				() -> DelayedJobListenerEndpoint.builder("twice").topics("a", "a").handler(String.class, (job) -> {
				}).build())
			.withMessage("Listener 'twice' names a topic twice: [a, a]");
		assertThatIllegalArgumentException().isThrownBy(() -> DelayedJobListenerEndpoint.builder("none")
			.topics("a")
			.concurrency(0)
			.handler(String.class, (job) -> {
			})
			.build()).withMessage("Listener 'none' has concurrency 0; it must be at least 1");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> DelayedJobListenerEndpoint.builder("idle").topics("a").build())
			.withMessageContaining("Listener 'idle' has nothing to handle its jobs");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> DelayedJobListenerEndpoint.builder(" ").topics("a").handler(String.class, (job) -> {
			}).build())
			.withMessageContaining("needs an id");
	}

	record Order(long id, String currency) {
	}

	static class Recorder {

		final Queue<DelayedJob<?>> jobs = new ConcurrentLinkedQueue<>();

		final Queue<Object> payloads = new ConcurrentLinkedQueue<>();

	}

	@Configuration(proxyBeanMethods = false)
	static class RecorderConfiguration {

		@Bean
		Recorder recorder() {
			return new Recorder();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class HandlerConfigurer extends RecorderConfiguration {

		@Bean
		DelayedJobListenerConfigurer ordersInCode(Recorder recorder) {
			return (registrar) -> registrar.registerEndpoint(DelayedJobListenerEndpoint.builder("orders-in-code")
				.topics("code.orders")
				.concurrency(3)
				.handler(Order.class, recorder.jobs::add)
				.build());
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class GenericHandlerConfigurer extends RecorderConfiguration {

		@Bean
		DelayedJobListenerConfigurer itemsInCode(Recorder recorder) {
			return (registrar) -> registrar.registerEndpoint(DelayedJobListenerEndpoint.builder("items-in-code")
				.topics("code.items")
				.handler(new ParameterizedTypeReference<List<Order>>() {
				}, recorder.jobs::add)
				.build());
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class FailingOnceConfigurer extends RecorderConfiguration {

		@Bean
		DelayedJobListenerConfigurer flakyInCode(Recorder recorder) {
			return (registrar) -> registrar.registerEndpoint(
					DelayedJobListenerEndpoint.builder("flaky").topics("code.flaky").handler(String.class, (job) -> {
						recorder.jobs.add(job);
						if (job.attempt() == 1) {
							throw new IllegalStateException("failing on purpose on attempt 1");
						}
					}).build());
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnErrorHandlerConfigurer extends RecorderConfiguration {

		@Bean
		DelayedJobListenerConfigurer deadAtOnce(Recorder recorder) {
			return (registrar) -> registrar.registerEndpoint(
					DelayedJobListenerEndpoint.builder("dead-at-once").topics("code.dead").errorHandler((failure) -> {
						recorder.payloads.add(failure.exception().getMessage());
						return FailureAction.dead();
					}).handler(String.class, (job) -> {
						recorder.jobs.add(job);
						throw new IllegalStateException("failing on purpose");
					}).build());
		}

	}

	static class OrderService {

		final Recorder recorder;

		OrderService(Recorder recorder) {
			this.recorder = recorder;
		}

		void closeIfUnpaid(Order order) {
			this.recorder.payloads.add(order);
		}

		void twoPayloads(Order order, String other) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class MethodConfigurer extends RecorderConfiguration {

		@Bean
		OrderService orderService(Recorder recorder) {
			return new OrderService(recorder);
		}

		@Bean
		DelayedJobListenerConfigurer methodInCode(OrderService service) {
			return (registrar) -> registrar.registerEndpoint(DelayedJobListenerEndpoint.builder("method-in-code")
				.topics("code.method")
				.method(service, ReflectionUtils.findMethod(OrderService.class, "closeIfUnpaid", Order.class))
				.build());
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class SameIdConfigurer {

		@Bean
		DelayedJobListenerConfigurer sameId() {
			return (registrar) -> registrar.registerEndpoint(DelayedJobListenerEndpoint.builder("orders-in-code")
				.topics("code.other")
				.handler(String.class, (job) -> {
				})
				.build());
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class TwoPayloadsConfigurer extends RecorderConfiguration {

		@Bean
		DelayedJobListenerConfigurer twoPayloads(Recorder recorder) {
			return (registrar) -> registrar.registerEndpoint(DelayedJobListenerEndpoint.builder("two-payloads")
				.topics("code.two")
				.method(new OrderService(recorder),
						ReflectionUtils.findMethod(OrderService.class, "twoPayloads", Order.class, String.class))
				.build());
		}

	}

}
