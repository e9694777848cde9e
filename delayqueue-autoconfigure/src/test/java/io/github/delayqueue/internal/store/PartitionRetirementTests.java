package io.github.delayqueue.internal.store;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.delayqueue.core.DelayQueueTemplate;
import io.github.delayqueue.core.JobRequest;
import io.github.delayqueue.test.DelayQueueFixture;
import io.github.delayqueue.test.PartitionIds;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Partitions leave their topic once drained and no longer configured, and a sender still
 * configured with them, as an instance not yet redeployed is, puts a partition back
 * before it writes to it, so that no job ever sits in a partition nobody watches.
 */
@ExtendWith(RedisExtension.class)
class PartitionRetirementTests {

	private static final String TOPIC = "orders";

	private DelayQueueFixture fixture;

	// An instance still configured with six partitions, and one with one.
	private final DelayQueueKeys sixKeys = new DelayQueueKeys(DelayQueueFixture.PREFIX, (topic) -> 6);

	private DelayQueueTemplate six;

	private PartitionRegistry oneRegistry;

	@BeforeEach
	void setUp(RedisTestServer server) {
		server.flushAll();
		this.fixture = new DelayQueueFixture(server);
		this.six = new DelayQueueTemplate(new JobStore(this.fixture.scripts(), this.sixKeys, this.fixture.codec()),
				this.fixture.codec(), this.fixture.jsonMapper());
		this.oneRegistry = new PartitionRegistry(this.fixture.scripts(), this.fixture.keys());
	}

	@AfterEach
	void tearDown() {
		this.fixture.close();
	}

	@Test
	void retiresOnlyDrainedPartitionsThatTheConfigurationNoLongerHas() {
		List<String> partitions = this.sixKeys.queues(TOPIC).subList(1, 6);
		String kept = partitions.get(0);
		List<String> ids = new ArrayList<>();
		for (String queue : partitions) {
			ids.add(sendLater(queue, 0));
		}
		// Every partition holds a job: none leaves, and all are left.
		assertThat(this.oneRegistry.retireDrained(TOPIC)).isEqualTo(new PartitionRegistry.Retirement(List.of(), 5));
		for (String id : ids.subList(1, ids.size())) {
			assertThat(this.six.cancel(TOPIC, id)).isTrue();
		}
		PartitionRegistry.Retirement retirement = this.oneRegistry.retireDrained(TOPIC);
		assertThat(retirement.retired()).containsExactlyInAnyOrderElementsOf(partitions.subList(1, 5));
		assertThat(retirement.left()).isEqualTo(1);
		assertThat(this.oneRegistry.queues(TOPIC)).containsExactly(TOPIC, kept);
		// The instance configured with six retires none of its own, and has none left.
		assertThat(this.six.cancel(TOPIC, ids.get(0))).isTrue();
		assertThat(new PartitionRegistry(this.fixture.scripts(), this.sixKeys).retireDrained(TOPIC))
			.isEqualTo(PartitionRegistry.Retirement.NONE);
		assertThat(this.oneRegistry.retireDrained(TOPIC)).isEqualTo(new PartitionRegistry.Retirement(List.of(kept), 0));
		assertThat(this.oneRegistry.queues(TOPIC)).containsExactly(TOPIC);
	}

	@Test
	void aSendToARetiredPartitionPutsItBackBeforeItWrites() {
		String queue = this.sixKeys.queues(TOPIC).get(3);
		assertThat(this.six.cancel(TOPIC, sendLater(queue, 0))).isTrue();
		assertThat(this.oneRegistry.retireDrained(TOPIC).retired()).contains(queue);
		assertThat(this.oneRegistry.queues(TOPIC)).doesNotContain(queue);
		this.fixture.store().setPaused(TOPIC, true);
		// One by one and in a batch: each is written, and its partition is listed again.
		String single = sendLater(queue, 1);
		assertThat(this.oneRegistry.queues(TOPIC)).contains(queue);
		assertThat(this.fixture.redis().hasKey(this.fixture.keys().topic(queue).retired())).isFalse();
		assertThat(this.fixture.store().find(TOPIC, single))
			.hasValueSatisfying((job) -> assertThat(job.state()).isEqualTo(StoredJob.State.DELAYED));
		// The topic is paused, and so is the partition put back.
		assertThat(new JobClaims(this.fixture.scripts(), this.fixture.keys()).isPaused(queue)).isTrue();
		assertThat(this.six.cancel(TOPIC, single)).isTrue();
		// Kept from retiring again for a while, for the send to come in.
		assertThat(this.oneRegistry.retireDrained(TOPIC).retired()).doesNotContain(queue);
		lapseRevival(queue);
		assertThat(this.oneRegistry.retireDrained(TOPIC).retired()).contains(queue);
		List<String> batch = this.six.sendAll(List.of(later(queue, 2), later(queue, 3)));
		assertThat(this.oneRegistry.queues(TOPIC)).contains(queue);
		assertThat(this.fixture.store().find(TOPIC, batch.get(1))).isPresent();
	}

	@Test
	void aPartitionHoldsAJobOnlyWhileItIsListedWhateverTheSendsAndRetirementsInterleave() throws Exception {
		List<String> partitions = this.sixKeys.queues(TOPIC).subList(1, 6);
		this.six.send(JobRequest.builder(TOPIC, "x").id("registers").delay(Duration.ofHours(1)).build());
		AtomicBoolean sending = new AtomicBoolean(true);
		AtomicInteger retired = new AtomicInteger();
		CompletableFuture<Void> retiring = CompletableFuture.runAsync(() -> {
			while (sending.get()) {
				retired.addAndGet(this.oneRegistry.retireDrained(TOPIC).retired().size());
			}
		});
		try {
			for (int i = 0; i < 300; i++) {
				String queue = partitions.get(i % partitions.size());
				String id = sendLater(queue, i);
				// Written, so listed: nothing may take it out of the set while the job is
				// in it.
				Set<String> listed = this.fixture.scripts().members(this.fixture.keys().partitionSet(TOPIC));
				assertThat(listed).as("partition set after sending %s to %s", id, queue).contains(queue);
				assertThat(this.six.cancel(TOPIC, id)).isTrue();
				lapseRevival(queue);
			}
		}
		finally {
			sending.set(false);
			retiring.get();
		}
		// The race was run: partitions left and came back many times.
		assertThat(retired.get()).isGreaterThan(10);
	}

	// A minute passes after a revival.
	private void lapseRevival(String queue) {
		this.fixture.redis().delete(this.fixture.keys().topic(queue).revived());
	}

	// Sent by the instance with six partitions, to a queue, due later: a cancel leaves
	// nothing of it.
	private String sendLater(String queue, int n) {
		return this.six.send(later(queue, n));
	}

	private JobRequest later(String queue, int n) {
		return JobRequest.builder(TOPIC, "x")
			.id(PartitionIds.idIn(this.sixKeys, TOPIC, queue, n))
			.delay(Duration.ofHours(1))
			.build();
	}

}
