/**
 * Test support for applications that use the delay queue: {@link AutoConfigureDelayQueue}
 * gives a Spring Boot test a real Redis and a {@link DelayQueueTester} that moves time
 * forward, waits for topics to settle and asserts what was sent and what went dead;
 * {@link RecordingDelayQueueOperations} records the sends of code under a plain unit
 * test.
 */
@NullMarked
package io.github.delayqueue.test;

import org.jspecify.annotations.NullMarked;
