package io.github.delayqueue.test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.JobInfo;
import io.github.delayqueue.internal.schedule.ScheduleEngine;
import io.github.delayqueue.internal.store.ScriptRunner;
import io.github.delayqueue.internal.support.DueTimeListener;

import org.springframework.beans.factory.ObjectProvider;

/**
 * Drives the delay queue of a Spring Boot test on its real Redis, without waiting for
 * real delays: makes a topic's jobs due now or moves time forward for it, waits until a
 * topic has nothing left to do, and tells what was sent, what failed and what went dead.
 * {@link AutoConfigureDelayQueue} configures it as a bean.
 *
 * <pre class="code">
 * &#64;SpringBootTest
 * &#64;AutoConfigureDelayQueue
 * class OrderTimeoutTests {
 *
 *     &#64;Autowired OrderService orders;
 *     &#64;Autowired DelayQueueTester delayQueue;
 *
 *     &#64;Test
 *     void closesAnUnpaidOrderAfter30Minutes() {
 *         Order order = orders.place("book");
 *         delayQueue.advance("orders.timeout", Duration.ofMinutes(30));
 *         delayQueue.awaitIdle("orders.timeout");
 *         assertThat(orders.find(order.id()).status()).isEqualTo(Status.CLOSED);
 *     }
 *
 * }
 * </pre>
 *
 * Time moves for one topic at a time and only for its jobs: the Redis clock and the
 * application's clock go on as they were. Moving time changes due times on Redis and
 * wakes the schedulers, so that retries and backoff schedules are walked through in
 * milliseconds, with every step taken by the real scheduler, listeners and scripts.
 *
 * @author delayqueue contributors
 */
public class DelayQueueTester {

	private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

	private final TestSupportStore store;

	private final ScriptRunner scripts;

	private final DelayQueueOperations operations;

	private final DelayQueueAdmin admin;

	private final ObjectProvider<DueTimeListener> dueTimeListeners;

	private final ObjectProvider<ScheduleEngine> schedules;

	private final SentJobs sent;

	private final HandlerFailures failures;

	private final QueueWipe wipe;

	private final Duration defaultTimeout;

	DelayQueueTester(TestSupportStore store, ScriptRunner scripts, DelayQueueOperations operations,
			DelayQueueAdmin admin, ObjectProvider<DueTimeListener> dueTimeListeners,
			ObjectProvider<ScheduleEngine> schedules, SentJobs sent, HandlerFailures failures, QueueWipe wipe,
			Duration defaultTimeout) {
		this.store = store;
		this.scripts = scripts;
		this.operations = operations;
		this.admin = admin;
		this.dueTimeListeners = dueTimeListeners;
		this.schedules = schedules;
		this.sent = sent;
		this.failures = failures;
		this.wipe = wipe;
		this.defaultTimeout = defaultTimeout;
	}

	/**
	 * Make every DELAYED job of a topic due now, keeping their order: time moves forward
	 * for the topic until its last job is due.
	 * @param topic the topic
	 * @return how many jobs of the topic are due now
	 */
	public long makeDue(String topic) {
		return dueNow(shift(topic, -1, 0));
	}

	/**
	 * Move time forward for a topic's DELAYED jobs and its recurring schedules: each job
	 * falls due {@code by} earlier, and the jobs whose time has then come are handed to
	 * the listeners at once. Their creation and due times as {@code find} reports them
	 * move alike. The ticks of the topic's schedules that fall due within {@code by} from
	 * now are decided as if their time had come, each schedule by its misfire and overlap
	 * policies (several ticks of one schedule in the span are ticks missed, as after a
	 * downtime: {@code fire-once}, the default, runs the latest of them once), and each
	 * schedule goes on from its first tick after that time. Deliveries that are running
	 * keep their time to run (see {@link #advanceTimeToRun(String, Duration)}): time
	 * passes for the jobs that wait, not for the handlers at work.
	 * @param topic the topic
	 * @param by how far, zero or more
	 * @return how many jobs of the topic are due now, those of the ticks included
	 * @see #runNextTick(String)
	 */
	public long advance(String topic, Duration by) {
		long due = dueNow(shift(topic, requireNotNegative(by).toMillis(), 0));
		ScheduleEngine engine = this.schedules.getIfAvailable();
		return due + ((engine != null) ? engine.advance(topic, by) : 0);
	}

	/**
	 * Move time forward for one recurring schedule to its next tick, and decide the tick
	 * as if its time had come: its job, with the id {@code <schedule id>@<tick epoch ms>}
	 * and the tick as its due time, goes into the topic at once (unless {@code overlap:
	 * skip} finds the job of the schedule's last tick still pending), and the schedule
	 * goes on from the tick after it. The topic's jobs and other schedules keep their
	 * time.
	 * @param scheduleId the schedule's id
	 * @return the tick decided
	 * @throws io.github.delayqueue.core.UnknownScheduleException if there is no such
	 * schedule
	 * @throws IllegalStateException if the schedule is paused or disabled, or the
	 * application has no recurring schedules
	 */
	public Instant runNextTick(String scheduleId) {
		ScheduleEngine engine = this.schedules.getIfAvailable();
		if (engine == null) {
			throw new IllegalStateException("The application runs no recurring schedules");
		}
		return engine.runNextTick(scheduleId);
	}

	/**
	 * Move time forward for the deliveries of a topic that are running: each one's time
	 * to run ends {@code by} earlier, and one whose time to run has then ended is
	 * delivered again (or goes dead after its last attempt), as if its handler had hung.
	 * @param topic the topic
	 * @param by how far, zero or more
	 * @return how many running deliveries moved
	 */
	public long advanceTimeToRun(String topic, Duration by) {
		long moved = 0;
		for (TestSupportStore.ShiftedQueue queue : shift(topic, 0, requireNotNegative(by).toMillis())) {
			moved += queue.runningMoved();
		}
		return moved;
	}

	private List<TestSupportStore.ShiftedQueue> shift(String topic, long delayedMillis, long runningMillis) {
		List<TestSupportStore.ShiftedQueue> shifted = this.store.shift(topic,
				Duration.ofMillis(Math.max(-1, delayedMillis)), Duration.ofMillis(runningMillis));
		// The schedulers of every instance hear the wake channel; this one is told
		// directly too, so that it does not depend on its subscription.
		for (TestSupportStore.ShiftedQueue queue : shifted) {
			wake(queue.queue(), (queue.delayedMoved() > 0) ? queue.earliestDueMillis() : -1);
			wake(queue.queue(), (queue.runningMoved() > 0) ? queue.earliestDeadlineMillis() : -1);
		}
		return shifted;
	}

	private void wake(String queue, long atMillis) {
		if (atMillis >= 0) {
			this.dueTimeListeners.orderedStream().forEach((listener) -> listener.jobScheduledInQueue(queue, atMillis));
		}
	}

	private static long dueNow(List<TestSupportStore.ShiftedQueue> shifted) {
		return shifted.stream().mapToLong(TestSupportStore.ShiftedQueue::nowDue).sum();
	}

	private static Duration requireNotNegative(Duration by) {
		if (by.isNegative()) {
			throw new IllegalArgumentException("Time moves forward only; was asked to move it by " + by);
		}
		return by;
	}

	/**
	 * Wait until topics are idle, for the tester's default time (10 seconds unless
	 * {@code delayqueue-test.await-timeout} says otherwise).
	 * @param topics the topics; none for every topic the application has sent to or that
	 * Redis lists
	 * @throws AssertionError if a topic still has something to do when the time is up
	 * @see #isIdle(String)
	 */
	public void awaitIdle(String... topics) {
		awaitIdle(this.defaultTimeout, topics);
	}

	/**
	 * Wait until topics are idle: none of them has a job due, ready or running, twice in
	 * a row, so that a handler of one topic that sent to another while they were read is
	 * seen. Jobs due later and dead jobs do not count.
	 * @param timeout the longest wait
	 * @param topics the topics; none for every topic the application has sent to or that
	 * Redis lists
	 * @throws AssertionError if a topic still has something to do when the time is up
	 */
	public void awaitIdle(Duration timeout, String... topics) {
		long deadline = System.nanoTime() + timeout.toNanos();
		int idleReads = 0;
		while (true) {
			Map<String, TestSupportStore.Unsettled> busy = busy(topics);
			idleReads = busy.isEmpty() ? idleReads + 1 : 0;
			if (idleReads == 2) {
				return;
			}
			if (System.nanoTime() - deadline > 0) {
				throw new AssertionError("Not idle within " + timeout + ": " + describe(busy));
			}
			try {
				TimeUnit.NANOSECONDS.sleep(POLL_NANOS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("Interrupted while waiting for idle topics", ex);
			}
		}
	}

	private Map<String, TestSupportStore.Unsettled> busy(String... topics) {
		Map<String, TestSupportStore.Unsettled> busy = new LinkedHashMap<>();
		for (String topic : (topics.length > 0) ? List.of(topics) : knownTopics()) {
			TestSupportStore.Unsettled unsettled = this.store.unsettled(topic);
			if (!unsettled.isIdle()) {
				busy.put(topic, unsettled);
			}
		}
		return busy;
	}

	private Set<String> knownTopics() {
		Set<String> topics = new LinkedHashSet<>(this.admin.topics());
		this.sent.all().forEach((job) -> topics.add(job.topic()));
		return topics;
	}

	private static String describe(Map<String, TestSupportStore.Unsettled> busy) {
		List<String> topics = new ArrayList<>();
		busy.forEach((topic, unsettled) -> topics.add("'" + topic + "' has " + unsettled.due() + " due, "
				+ unsettled.ready() + " ready and " + unsettled.running() + " running"));
		return String.join("; ", topics);
	}

	/**
	 * Tell whether a topic has nothing to do now: no job due, ready or running.
	 * @param topic the topic
	 * @return {@code true} if it is idle
	 */
	public boolean isIdle(String topic) {
		return this.store.unsettled(topic).isIdle();
	}

	/**
	 * Return the time on the Redis clock, which decides every due time.
	 * @return the time now
	 */
	public Instant now() {
		return Instant.ofEpochMilli(this.scripts.serverTime());
	}

	/**
	 * Return the jobs sent through the application's {@code DelayQueueOperations} bean
	 * since the test began.
	 * @return the jobs
	 */
	public SentJobs sent() {
		return this.sent;
	}

	/**
	 * Return the jobs sent to a topic since the test began.
	 * @param topic the topic
	 * @return the jobs, oldest first
	 */
	public List<SentJob> sent(String topic) {
		return this.sent.to(topic);
	}

	/**
	 * Return the payloads of the jobs sent to a topic since the test began.
	 * @param <T> the payloads' type
	 * @param topic the topic
	 * @param type the payloads' class, or one of its supertypes
	 * @return the payloads, oldest first
	 */
	public <T> List<T> sentPayloads(String topic, Class<T> type) {
		return this.sent.payloads(topic, type);
	}

	/**
	 * Return what the handlers of a topic threw since the test began, retried failures
	 * included.
	 * @param topic the topic
	 * @return the exceptions, oldest first
	 */
	public List<Throwable> failures(String topic) {
		return this.failures.of(topic);
	}

	/**
	 * Return the dead jobs of a topic, each with its last error.
	 * @param topic the topic
	 * @return the dead jobs, oldest death first (at most 1,000)
	 */
	public List<JobInfo> deadJobs(String topic) {
		return this.admin.deadJobs(topic, 0, 1000);
	}

	/**
	 * Look a job up.
	 * @param topic the topic
	 * @param jobId the job id
	 * @return the job, or empty once it is done or cancelled
	 */
	public Optional<JobInfo> find(String topic, String jobId) {
		return this.operations.find(topic, jobId);
	}

	/**
	 * Start assertions on a topic.
	 * @param topic the topic
	 * @return the assertions
	 */
	public TopicAssert assertThat(String topic) {
		return new TopicAssert(topic, this);
	}

	/**
	 * Start afresh: delete every job of the test's key prefix and forget what was sent
	 * and thrown. Recurring schedules start again from their first tick after now, as the
	 * configuration declares them (those saved at run time are deleted).
	 * {@link AutoConfigureDelayQueue} does this before each test method unless told
	 * otherwise. A handler still running from an earlier test may finish after this: wait
	 * for idle topics at the end of a test that starts work.
	 */
	public void reset() {
		this.wipe.jobs();
		this.schedules.ifAvailable(ScheduleEngine::redeclare);
		this.sent.clear();
		this.failures.clear();
	}

	DelayQueueAdmin admin() {
		return this.admin;
	}

}
