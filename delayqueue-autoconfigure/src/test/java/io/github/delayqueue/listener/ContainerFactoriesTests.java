package io.github.delayqueue.listener;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.JobInfo;
import io.github.delayqueue.core.JobState;
import io.github.delayqueue.internal.store.JobClaims;
import io.github.delayqueue.internal.store.JobRecordCodec;
import io.github.delayqueue.internal.support.JobEventListeners;
import io.github.delayqueue.internal.support.TopicPolicies;
import io.github.delayqueue.test.DelayQueueContextRunner;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.BeanInitializationException;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Listeners that run with a container factory of the application's, named in
 * {@code @DelayedJobListener(containerFactory = ...)} or given to the registrar, beside
 * the starter's default factory.
 */
@ExtendWith(RedisExtension.class)
class ContainerFactoriesTests {

	private ApplicationContextRunner runner;

	@BeforeEach
	void setUp(RedisTestServer server) {
		server.flushAll();
		this.runner = DelayQueueContextRunner.create(server);
	}

	@Test
	void runsEachListenerWithTheFactoryItNames() {
		this.runner.withUserConfiguration(SlowJobsFactory.class, Listeners.class).run((context) -> {
			DelayedJobListenerEndpointRegistry registry = context.getBean(DelayedJobListenerEndpointRegistry.class);
			DelayedJobListenerContainerFactory slowJobs = context.getBean("slowJobs",
					DelayedJobListenerContainerFactory.class);
			DelayedJobListenerContainerFactory starters = context.getBean(
					DelayedJobListenerContainerFactory.DEFAULT_BEAN_NAME, DelayedJobListenerContainerFactory.class);
			assertThat(slowJobs).isNotSameAs(starters);
			assertThat(registry.getContainerFactory()).isSameAs(starters);
			assertThat(registry.getListenerContainer("on-slow-jobs").getContainerFactory()).isSameAs(slowJobs);
			assertThat(registry.getListenerContainer("by-expression").getContainerFactory()).isSameAs(slowJobs);
			assertThat(registry.getListenerContainer("in-code").getContainerFactory()).isSameAs(slowJobs);
			assertThat(registry.getListenerContainer("on-default").getContainerFactory()).isSameAs(starters);
		});
	}

	@Test
	void stopsAListenerWithinTheShutdownTimeoutOfItsFactory() {
		this.runner.withUserConfiguration(SlowJobsFactory.class, Listeners.class).run((context) -> {
			DelayQueueOperations operations = context.getBean(DelayQueueOperations.class);
			String id = operations.send("slow", "wait");
			Listeners listeners = context.getBean(Listeners.class);
			assertThat(listeners.started.await(10, TimeUnit.SECONDS)).isTrue();
			DelayedJobListenerContainer container = context.getBean(DelayedJobListenerEndpointRegistry.class)
				.getListenerContainer("on-slow-jobs");
			// The starter's factory would wait 30 s for the handler; this one 200 ms.
			assertTimeoutPreemptively(Duration.ofSeconds(15), () -> container.stop());
			await().atMost(Duration.ofSeconds(10))
				.until(() -> operations.find("slow", id).map(JobInfo::state).orElse(null) == JobState.READY);
			assertThat(operations.find("slow", id).orElseThrow().attempts()).isZero();
		});
	}

	@Test
	void failsStartUpNamingAFactoryThatIsNotThere() {
		this.runner.withUserConfiguration(MissingFactory.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(BeanInitializationException.class)
				.hasMessageContaining("MissingFactory.on(java.lang.String)")
				.hasMessageContaining(
						"names containerFactory 'nowhere', but there is no DelayedJobListenerContainerFactory bean of that name");
		});
	}

	@Test
	void givesWayToAFactoryBeanOfTheDefaultName() {
		this.runner.withUserConfiguration(OwnDefaultFactory.class).run((context) -> {
			DelayedJobListenerContainerFactory own = context.getBean(
					DelayedJobListenerContainerFactory.DEFAULT_BEAN_NAME, DelayedJobListenerContainerFactory.class);
			assertThat(context).getBeans(DelayedJobListenerContainerFactory.class).hasSize(1);
			assertThat(own.getPollTimeout()).isEqualTo(Duration.ofSeconds(3));
			assertThat(context.getBean(DelayedJobListenerEndpointRegistry.class).getContainerFactory()).isSameAs(own);
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class SlowJobsFactory {

		@Bean
		DelayedJobListenerContainerFactory slowJobs(
				@Qualifier(DelayedJobListenerContainerFactory.DEFAULT_BEAN_NAME) DelayedJobListenerContainerFactory defaults) {
			DelayedJobListenerContainerFactory factory = defaults.copy();
			factory.setShutdownTimeout(Duration.ofMillis(200));
			return factory;
		}

		@Bean
		DelayedJobListenerConfigurer inCode(@Qualifier("slowJobs") DelayedJobListenerContainerFactory slowJobs) {
			return (registrar) -> registrar.registerEndpoint(
					DelayedJobListenerEndpoint.builder("in-code").topics("code").handler(String.class, (job) -> {
					}).build(), slowJobs);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class Listeners {

		final CountDownLatch started = new CountDownLatch(1);

		@DelayedJobListener(id = "on-slow-jobs", topics = "slow", containerFactory = "slowJobs")
		void slow(String payload) throws InterruptedException {
			this.started.countDown();
			new CountDownLatch(1).await(); // until the stop interrupts it
		}

		@DelayedJobListener(id = "by-expression", topics = "other", containerFactory = "#{@slowJobs}")
		void byExpression(String payload) {
		}

		@DelayedJobListener(id = "on-default", topics = "quick")
		void quick(String payload) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class MissingFactory {

		@DelayedJobListener(topics = "t", containerFactory = "nowhere")
		void on(String payload) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnDefaultFactory {

		@Bean(DelayedJobListenerContainerFactory.DEFAULT_BEAN_NAME)
		DelayedJobListenerContainerFactory ownFactory(JobClaims claims, TopicPolicies policies, JobRecordCodec codec) {
			return new DelayedJobListenerContainerFactory(claims, policies, codec, JobEventListeners.none(),
					JsonMapper.builder().build(), Duration.ofSeconds(3), Duration.ofSeconds(5), (topic) -> {
					});
		}

	}

}
