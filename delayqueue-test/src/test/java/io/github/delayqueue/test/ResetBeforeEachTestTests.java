package io.github.delayqueue.test;

import java.time.Duration;

import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueOperations;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each test method starts with no job and nothing recorded: what the first leaves behind
 * is gone before the second begins.
 */
@SpringBootTest(classes = TestApplication.class)
@AutoConfigureDelayQueue
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ResetBeforeEachTestTests {

	@Autowired
	private DelayQueueTester tester;

	@Autowired
	private DelayQueueOperations delayQueue;

	@Autowired
	private DelayQueueAdmin admin;

	@Test
	@Order(1)
	void leavesJobsBehind() {
		this.delayQueue.send("reminders", "left behind", Duration.ofHours(1));
		this.tester.assertThat("reminders").hasSent(1).hasDelayed(1);
	}

	@Test
	@Order(2)
	void startsWithNoneOfThem() {
		this.tester.assertThat("reminders").hasSent(0).hasDelayed(0);
		assertThat(this.admin.topics()).contains("reminders");
		assertThat(this.tester.makeDue("reminders")).isZero();
	}

}
