package io.github.delayqueue.internal.presence;

import java.time.Duration;

import io.github.delayqueue.core.DelayQueueTemplate;
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

/**
 * A topic that a sender registers is not forgotten under it: the registration clears the
 * topic's empty mark, and a registration that comes while the pruner takes the topic out
 * puts it back, so that no job is sent, by a sender that counts the topic as registered,
 * to a topic out of the set of topics.
 */
@ExtendWith(RedisExtension.class)
class EmptyTopicPrunerTests {

	private static final String TOPIC = "orders";

	private DelayQueueFixture fixture;

	private String marks;

	@BeforeEach
	void setUp(RedisTestServer server) {
		server.flushAll();
		this.fixture = new DelayQueueFixture(server);
		this.marks = this.fixture.keys().topicsEmptySince();
	}

	@AfterEach
	void tearDown() {
		this.fixture.close();
	}

	@Test
	void aSendClearsTheTopicsEmptyMarkSoThePrunerKeepsTheTopicItsSenderCountsAsRegistered() {
		// Marked empty long ago, past any retention.
		this.fixture.redis().opsForHash().put(this.marks, TOPIC, "0");
		DelayQueueTemplate sender = this.fixture.template();
		String id = sender.send(TOPIC, "x", Duration.ofHours(1));
		assertThat(sender.cancel(TOPIC, id)).isTrue();

		assertThat(pruner((topic) -> TopicPolicy.defaults()).prune()).isEmpty();

		assertThat(this.fixture.store().topics()).contains(TOPIC);
		// The sender counts the topic as registered and does not add it again.
		sender.send(TOPIC, "y", Duration.ofHours(1));
		assertThat(this.fixture.store().topics()).contains(TOPIC);
	}

	@Test
	void aRegistrationWhileThePrunerForgetsTheTopicPutsItBack() {
		this.fixture.store().registerTopic(TOPIC);
		this.fixture.redis().opsForHash().put(this.marks, TOPIC, "0");
		// The pruner reads each topic's policy after it read the marks and counted the
		// jobs, and before it takes the topic out: a sender registers the topic then,
		// as its send's registration comes before its job is written.
		TopicPolicies registering = (topic) -> {
			this.fixture.store().registerTopic(topic);
			return TopicPolicy.defaults();
		};

		assertThat(pruner(registering).prune()).isEmpty();

		assertThat(this.fixture.store().topics()).contains(TOPIC);
	}

	private EmptyTopicPruner pruner(TopicPolicies policies) {
		return new EmptyTopicPruner(this.fixture.store(), this.fixture.scripts(), this.fixture.keys(),
				DelayQueueFixture.PREFIX, new ListenerPresence(this.fixture.redis(), DelayQueueFixture.PREFIX),
				policies, Duration.ofHours(1));
	}

}
