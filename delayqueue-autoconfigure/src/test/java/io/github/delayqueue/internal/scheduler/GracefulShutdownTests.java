package io.github.delayqueue.internal.scheduler;

import java.time.Duration;

import io.github.delayqueue.test.DelayQueueFixture;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The scheduler while the application stops: the wake-up subscription stops first, and
 * the scheduler goes on sweeping until the listeners finished, which may take long, so it
 * must not take the stopped subscription for a channel that went silent and warn.
 */
class GracefulShutdownTests {

	@Test
	void forgetsTheSubscriptionOnceItsContainerStopsEvenIfRedisNeverConfirms() throws Exception {
		try (RedisTestServer server = RedisTestServer.startDedicated();
				DelayQueueFixture fixture = new DelayQueueFixture(server)) {
			DelayedJobScheduler scheduler = fixture.scheduler(100, Duration.ofMillis(200));
			scheduler.start();
			WakeUpListenerContainer container = new WakeUpListenerContainer(fixture.connectionFactory(),
					new WakeUpSubscriber(scheduler, fixture.keys()));
			container.afterPropertiesSet();
			container.start();
			try {
				await().atMost(Duration.ofSeconds(20)).until(scheduler::hearsWakeUps);
				// No confirmation of the unsubscription can arrive any more.
				server.kill();
				container.stop();
				assertThat(scheduler.hearsWakeUps()).isFalse();
			}
			finally {
				container.destroy();
			}
		}
	}

}
