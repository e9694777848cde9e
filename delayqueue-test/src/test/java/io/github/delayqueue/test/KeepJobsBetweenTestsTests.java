package io.github.delayqueue.test;

import java.time.Duration;

import io.github.delayqueue.core.DelayQueueOperations;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * With {@code resetBeforeEachTest = false}, a test sees what an earlier one left.
 */
@SpringBootTest(classes = TestApplication.class)
@AutoConfigureDelayQueue(resetBeforeEachTest = false)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KeepJobsBetweenTestsTests {

	@Autowired
	private DelayQueueTester tester;

	@Autowired
	private DelayQueueOperations delayQueue;

	@Test
	@Order(1)
	void leavesAJobBehind() {
		this.delayQueue.send("reminders", "kept", Duration.ofHours(1));
	}

	@Test
	@Order(2)
	void findsItStill() {
		this.tester.assertThat("reminders").hasSent(1).hasDelayed(1);
	}

}
