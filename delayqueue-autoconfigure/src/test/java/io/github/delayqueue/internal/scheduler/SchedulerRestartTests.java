package io.github.delayqueue.internal.scheduler;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.delayqueue.internal.support.TopicPolicies;
import io.github.delayqueue.internal.support.TopicPolicy;
import io.github.delayqueue.test.DelayQueueFixture;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The scheduler stopped and started again while its loop is stuck, as in a Redis call
 * that outlasts the stop's wait: the new loop begins only once the old one ended.
 */
@ExtendWith(RedisExtension.class)
class SchedulerRestartTests {

	private DelayQueueFixture fixture;

	@BeforeEach
	void setUp(RedisTestServer server) {
		server.flushAll();
		this.fixture = new DelayQueueFixture(server);
	}

	@AfterEach
	void tearDown() {
		this.fixture.close();
	}

	@Test
	void neverRunsTheLoopOfARestartBesideTheLoopItReplaced() throws InterruptedException {
		StuckSweeps sweeps = new StuckSweeps();
		DelayedJobScheduler scheduler = this.fixture.scheduler(100, Duration.ofMillis(50), sweeps);
		scheduler.setStopTimeout(Duration.ofMillis(10));
		scheduler.addTopic("stuck");
		scheduler.start();
		assertThat(sweeps.entered.await(10, TimeUnit.SECONDS)).isTrue();
		Thread stuck = sweeps.sweepers.get(0);
		scheduler.stop();
		assertThat(stuck.isAlive()).isTrue();
		scheduler.start();
		// The new loop would sweep at once; it waits for the stuck one instead.
		await().atMost(Duration.ofSeconds(10)).during(Duration.ofMillis(500)).until(() -> sweeps.sweepers.size() == 1);
		sweeps.release.countDown();
		await().atMost(Duration.ofSeconds(10)).until(() -> sweeps.sweepers.size() >= 3 && !stuck.isAlive());
		assertThat(sweeps.mostAtOnce.get()).isEqualTo(1);
		// The stuck loop saw that it was replaced and swept nothing more.
		assertThat(sweeps.sweepers.stream().filter((thread) -> thread == stuck)).hasSize(1);
	}

	/**
	 * Topic policies, read at the start of every sweep, whose first reading blocks until
	 * released, and which count the sweeps under way at once.
	 */
	private static final class StuckSweeps implements TopicPolicies {

		final CountDownLatch entered = new CountDownLatch(1);

		final CountDownLatch release = new CountDownLatch(1);

		final List<Thread> sweepers = new CopyOnWriteArrayList<>();

		final AtomicInteger underWay = new AtomicInteger();

		final AtomicInteger mostAtOnce = new AtomicInteger();

		@Override
		public TopicPolicy forTopic(String topic) {
			this.mostAtOnce.accumulateAndGet(this.underWay.incrementAndGet(), Math::max);
			try {
				this.sweepers.add(Thread.currentThread());
				if (this.sweepers.size() == 1) {
					this.entered.countDown();
					this.release.await(30, TimeUnit.SECONDS);
				}
				return TopicPolicy.defaults();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
			finally {
				this.underWay.decrementAndGet();
			}
		}

	}

}
