package io.github.delayqueue.internal.scheduler;

import java.time.Duration;

import io.github.delayqueue.test.DelayQueueFixture;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import io.github.delayqueue.test.ReplyDroppingProxy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * The wake-up subscription when Redis fails while it is being made: a stop returns within
 * a bound whatever the subscription attempt is waiting for, and the container retries on
 * its own, quietly, until Redis is back.
 */
@ExtendWith({ RedisExtension.class, OutputCaptureExtension.class })
class WakeUpSubscriptionFailureTests {

	// Far above what a stop takes, far below Lettuce's 60 s command timeout: a stop that
	// waits for a command of the attempt under way fails here instead of hanging.
	private static final Duration STOP_BOUND = Duration.ofSeconds(15);

	@Test
	void stopReturnsWhenRedisDiedWhileTheSubscriptionWasMade(RedisTestServer shared, CapturedOutput output) {
		try (RedisTestServer server = RedisTestServer.startDedicated();
				DelayQueueFixture fixture = new DelayQueueFixture(shared)) {
			LettuceConnectionFactory connectionFactory = connectedFactory(server.host(), server.port());
			try {
				server.kill();
				WakeUpListenerContainer container = container(connectionFactory, fixture);
				container.start();
				await().atMost(Duration.ofSeconds(20)).until(() -> anAttemptFailed(output));
				assertTimeoutPreemptively(STOP_BOUND, () -> container.stop());
				assertThat(container.isRunning()).isFalse();
				assertThat(container.isListening()).isFalse();
			}
			finally {
				connectionFactory.destroy();
			}
		}
	}

	@Test
	void stopReturnsWhileTheSubscriptionGoesUnanswered(RedisTestServer shared) throws Exception {
		try (RedisTestServer server = RedisTestServer.startDedicated();
				ReplyDroppingProxy proxy = ReplyDroppingProxy.start(server);
				DelayQueueFixture fixture = new DelayQueueFixture(shared)) {
			LettuceConnectionFactory connectionFactory = connectedFactory("127.0.0.1", proxy.port());
			try {
				proxy.swallowReplies();
				WakeUpListenerContainer container = container(connectionFactory, fixture);
				container.start();
				// The subscription's own connection is open and waits for an answer.
				await().atMost(Duration.ofSeconds(20)).until(() -> proxy.connections() >= 2);
				assertTimeoutPreemptively(STOP_BOUND, () -> container.stop());
				assertThat(container.isRunning()).isFalse();
			}
			finally {
				connectionFactory.destroy();
			}
		}
	}

	@Test
	void subscribesQuietlyOnceRedisIsBackAfterDyingWhileTheSubscriptionWasMade(RedisTestServer shared,
			CapturedOutput output) throws Exception {
		try (RedisTestServer server = RedisTestServer.startDedicated();
				DelayQueueFixture fixture = new DelayQueueFixture(shared)) {
			LettuceConnectionFactory connectionFactory = connectedFactory(server.host(), server.port());
			WakeUpListenerContainer container = container(connectionFactory, fixture);
			try {
				server.kill();
				container.start();
				await().atMost(Duration.ofSeconds(20)).until(() -> anAttemptFailed(output));
				server.restart();
				await().atMost(Duration.ofSeconds(30)).until(container::isListening);
				// One line of ours said it retries; the container this extends neither
				// retried on its own nor logged an error per attempt.
				assertThat(output.getAll()).contains("Cannot subscribe to the delay queue's wake-up channels")
					.doesNotContain("Connection failure occurred")
					.doesNotContain("SubscriptionTask aborted");
			}
			finally {
				assertTimeoutPreemptively(STOP_BOUND, () -> container.destroy());
				connectionFactory.destroy();
			}
		}
	}

	// A factory whose shared connection is up, so that taking a connection for the
	// subscription succeeds and the subscription's own connection is the first to fail.
	private static LettuceConnectionFactory connectedFactory(String host, int port) {
		LettuceConnectionFactory connectionFactory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(host, port));
		connectionFactory.afterPropertiesSet();
		connectionFactory.start();
		try (RedisConnection connection = connectionFactory.getConnection()) {
			assertThat(connection.ping()).isEqualTo("PONG");
		}
		return connectionFactory;
	}

	private static WakeUpListenerContainer container(LettuceConnectionFactory connectionFactory,
			DelayQueueFixture fixture) {
		WakeUpListenerContainer container = new WakeUpListenerContainer(connectionFactory,
				new WakeUpSubscriber(fixture.scheduler(100, Duration.ofMillis(200)), fixture.keys()));
		container.afterPropertiesSet();
		return container;
	}

	// Ours says "Cannot subscribe"; the container this extends, when it retries on its
	// own, "Connection failure occurred".
	private static boolean anAttemptFailed(CapturedOutput output) {
		String all = output.getAll();
		return all.contains("Cannot subscribe to the delay queue's wake-up channels")
				|| all.contains("Connection failure occurred");
	}

}
