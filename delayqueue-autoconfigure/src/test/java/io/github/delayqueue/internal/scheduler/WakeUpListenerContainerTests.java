package io.github.delayqueue.internal.scheduler;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.delayqueue.internal.support.TopicPolicy;
import io.github.delayqueue.test.DelayQueueContextRunner;
import io.github.delayqueue.test.DelayQueueFixture;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The container of the scheduler's wake-up subscription: out of the way of the
 * application's own containers, and handing messages out on one thread.
 */
@ExtendWith(RedisExtension.class)
class WakeUpListenerContainerTests {

	@Test
	void leavesAnApplicationThatInjectsItsOwnContainerByTypeAlone(RedisTestServer server) {
		DelayQueueContextRunner.create(server).withUserConfiguration(OwnContainerConfiguration.class).run((context) -> {
			assertThat(context).hasNotFailed();
			RedisMessageListenerContainer own = context.getBean("ownContainer", RedisMessageListenerContainer.class);
			assertThat(context.getBean(OwnContainerUser.class).container).isSameAs(own);
			assertThat(context.getBean(RedisMessageListenerContainer.class)).isSameAs(own);
			assertThat(context).hasBean("delayQueueWakeUpContainer");
		});
	}

	@Test
	void handsEveryMessageToOneThreadOfItsOwn(RedisTestServer server) throws Exception {
		try (DelayQueueFixture fixture = new DelayQueueFixture(server)) {
			List<Thread> heardOn = new CopyOnWriteArrayList<>();
			DelayedJobScheduler scheduler = new DelayedJobScheduler(fixture.scripts(), fixture.keys(), fixture.store(),
					(topic) -> TopicPolicy.defaults(), 100, Duration.ofSeconds(1)) {

				@Override
				void wakeUp(String topic) {
					heardOn.add(Thread.currentThread());
				}

			};
			WakeUpListenerContainer container = new WakeUpListenerContainer(fixture.connectionFactory(),
					new WakeUpSubscriber(scheduler, fixture.keys()));
			container.afterPropertiesSet();
			container.start();
			try {
				await().atMost(Duration.ofSeconds(20)).until(container::isListening);
				for (int i = 0; i < 50; i++) {
					fixture.redis().convertAndSend(fixture.keys().wakeChannel(), "topic" + i);
				}
				await().atMost(Duration.ofSeconds(20)).until(() -> heardOn.size() == 50);
				Set<Thread> threads = Set.copyOf(heardOn);
				assertThat(threads).hasSize(1);
				assertThat(threads.iterator().next().getName()).startsWith("delayqueue-wake-up-");
			}
			finally {
				container.destroy();
			}
		}
	}

	@Configuration(proxyBeanMethods = false)
	static class OwnContainerConfiguration {

		@Bean
		RedisMessageListenerContainer ownContainer(RedisConnectionFactory connectionFactory) {
			RedisMessageListenerContainer container = new RedisMessageListenerContainer();
			container.setConnectionFactory(connectionFactory);
			return container;
		}

		@Bean
		OwnContainerUser ownContainerUser(RedisMessageListenerContainer container) {
			return new OwnContainerUser(container);
		}

	}

	static class OwnContainerUser {

		final RedisMessageListenerContainer container;

		OwnContainerUser(RedisMessageListenerContainer container) {
			this.container = container;
		}

	}

}
