package io.github.delayqueue.internal.scheduler;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import io.github.delayqueue.internal.store.DelayQueueKeys;
import io.github.delayqueue.internal.store.JobStore;
import io.github.delayqueue.internal.store.ReconnectBackoff;
import io.github.delayqueue.internal.store.RedisOutageLog;
import io.github.delayqueue.internal.store.ScriptRunner;
import io.github.delayqueue.internal.support.DelayQueueThreads;
import io.github.delayqueue.internal.support.DueTimeListener;
import io.github.delayqueue.internal.support.ExpiredDeadJobsListener;
import io.github.delayqueue.internal.support.JobEventListener;
import io.github.delayqueue.internal.support.PartitionsRetiredEvent;
import io.github.delayqueue.internal.support.TopicPolicies;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.ApplicationEventPublisherAware;
import org.springframework.context.SmartLifecycle;

/**
 * Moves due jobs from DELAYED to READY and returns deliveries whose time to run elapsed,
 * for every topic, on one thread. After each sweep of a topic it knows the next due time
 * and deadline, and sleeps until the earliest of them; a send or claim on this instance,
 * or a wake-up or claim message from another one, ends the sleep early. A sleep never
 * exceeds a cap, so a lost message delays nothing by more than the cap: {@code max-sleep}
 * while messages may be missed and while a topic's jobs are being claimed, the longer
 * {@code idle-max-sleep} otherwise (see {@link SweepCap}). Every (re)subscription sweeps
 * every topic. Sweeps are atomic scripts, so any number of instances may run this at once
 * without moving a job twice. A backlog is moved in bounded batches, oldest first, one
 * batch per topic in turn, so that catching up after an outage neither pins Redis nor
 * starves other topics. Drained partitions that the configuration no longer has are
 * retired at start and then hourly, every minute while some are left holding jobs, and a
 * {@link PartitionsRetiredEvent} tells this instance's listeners.
 *
 * @author delayqueue contributors
 */
public class DelayedJobScheduler implements SmartLifecycle, DueTimeListener, ApplicationEventPublisherAware {

	/**
	 * The lifecycle phase: started before the listeners, stopped after them.
	 */
	public static final int PHASE = Integer.MAX_VALUE - 2000;

	/**
	 * The default longest sleep between two sweeps of a topic while wake-up and claim
	 * messages arrive and its jobs are not being claimed.
	 */
	public static final Duration DEFAULT_IDLE_MAX_SLEEP = Duration.ofSeconds(60);

	private static final Log logger = LogFactory.getLog(DelayedJobScheduler.class);

	private static final Duration HEARTBEAT_INTERVAL = Duration.ofSeconds(30);

	private final long maxSleepNanos;

	private final WakeUpChannelHealth health;

	private final SweepCap cap;

	private final LongSupplier nanoClock;

	private final TopicWakeUps wakeUps;

	private final DelayQueueKeys keys;

	private final TopicSweeper sweeper;

	private final PeriodicChores chores;

	private final Object lifecycleMonitor = new Object();

	private volatile boolean running;

	// Which loop may run: each start and each stop begin a new generation, and a loop
	// ends as soon as it sees that its own is over.
	private volatile long generation;

	// The latest loop's thread, kept after a stop for the next loop to wait for.
	private @Nullable Thread thread;

	private long stopTimeoutMillis = TimeUnit.SECONDS.toMillis(10);

	private DelayQueueThreads threads = DelayQueueThreads.platform();

	private ApplicationEventPublisher eventPublisher = (event) -> {
	};

	/**
	 * Create a scheduler.
	 * @param scripts runs the scripts
	 * @param keys names the keys
	 * @param jobStore purges old dead jobs
	 * @param policies the topics' policies
	 * @param batchSize most jobs moved per script call
	 * @param maxSleep the longest sleep between two sweeps of a topic while messages may
	 * be missed or its jobs are being claimed
	 */
	public DelayedJobScheduler(ScriptRunner scripts, DelayQueueKeys keys, JobStore jobStore, TopicPolicies policies,
			int batchSize, Duration maxSleep) {
		this(scripts, keys, jobStore, policies, batchSize, maxSleep, System::nanoTime);
	}

	DelayedJobScheduler(ScriptRunner scripts, DelayQueueKeys keys, JobStore jobStore, TopicPolicies policies,
			int batchSize, Duration maxSleep, LongSupplier nanoClock) {
		HousekeepingStore store = new HousekeepingStore(scripts, keys);
		this.keys = keys;
		this.nanoClock = nanoClock;
		this.maxSleepNanos = maxSleep.toNanos();
		this.wakeUps = new TopicWakeUps(nanoClock);
		this.health = new WakeUpChannelHealth(this.maxSleepNanos, HEARTBEAT_INTERVAL.toNanos(), nanoClock);
		this.cap = new SweepCap(this.maxSleepNanos, DEFAULT_IDLE_MAX_SLEEP.toNanos(), this.health, nanoClock);
		this.sweeper = new TopicSweeper(store, policies, batchSize, this.cap, this.wakeUps, nanoClock);
		this.chores = new PeriodicChores(store, jobStore, policies, this.health, this.cap, this.wakeUps,
				this.maxSleepNanos, this::wakeUpAll);
	}

	/**
	 * Set where the loop's thread comes from, typically the starter's threads built by
	 * Spring Boot's task executor builder. Plain platform threads when not set.
	 * @param threads the threads
	 */
	public void setThreads(DelayQueueThreads threads) {
		this.threads = threads;
	}

	/**
	 * Set where {@link PartitionsRetiredEvent}s go: the application context, for its
	 * listeners to stop waiting on retired partitions at once.
	 * @param eventPublisher the publisher
	 */
	@Override
	public void setApplicationEventPublisher(ApplicationEventPublisher eventPublisher) {
		this.eventPublisher = eventPublisher;
	}

	/**
	 * Set who hears of expired and dead jobs.
	 * @param eventListener the listener
	 */
	public void setEventListener(JobEventListener eventListener) {
		this.sweeper.setEventListener(eventListener);
	}

	/**
	 * Set who hears of the jobs this scheduler makes dead because their last delivery's
	 * time to run elapsed.
	 * @param listener the listener; it must return at once
	 */
	public void setExpiredDeadJobsListener(ExpiredDeadJobsListener listener) {
		this.sweeper.setExpiredDeadJobsListener(listener);
	}

	/**
	 * Set the wall clock of this instance. It decides nothing: due times come from the
	 * Redis clock, and this clock is only compared with it to know how long to sleep, so
	 * an instance whose clock is off by minutes still fires on time.
	 * @param clock the clock
	 */
	public void setClock(Clock clock) {
		this.sweeper.setClock(clock);
	}

	/**
	 * Set how often ids left in claiming lists are looked for. An id seen in two checks
	 * in a row belongs to a consumer that died between moving it and claiming it, and is
	 * put back to READY; claims normally complete in milliseconds.
	 * @param interval the interval between two checks
	 */
	public void setOrphanCheckInterval(Duration interval) {
		this.chores.setOrphanCheckInterval(interval.toNanos());
	}

	/**
	 * Set the longest sleep between two sweeps of a topic while wake-up and claim
	 * messages arrive (see {@link WakeUpSubscriber}) and its jobs are not being claimed.
	 * It bounds how late a job can fire when a message is lost without the subscription
	 * noticing, for example on a half-open connection; it is never shorter than the
	 * maximum sleep given to the constructor.
	 * @param idleMaxSleep the longest sleep
	 */
	public void setIdleMaxSleep(Duration idleMaxSleep) {
		this.cap.setIdleMaxSleep(idleMaxSleep.toNanos());
	}

	/**
	 * Set how soon retiring partitions that the configuration no longer has is tried
	 * again while some still hold jobs; a minute unless set.
	 * @param interval the interval between two tries
	 */
	void setPartitionRetirementRetryInterval(Duration interval) {
		this.chores.setPartitionRetirementRetryInterval(interval.toNanos());
	}

	/**
	 * Set how often a heartbeat is published while the channels are subscribed, to find
	 * out that messages stopped arriving; 30 seconds unless set.
	 * @param interval the interval between two heartbeats
	 */
	void setHeartbeatInterval(Duration interval) {
		this.health.setHeartbeatInterval(interval.toNanos());
	}

	/**
	 * Make sure a topic, each partition of it, is swept even before any job of it was
	 * seen in Redis.
	 * @param topic the topic
	 */
	public void addTopic(String topic) {
		long now = this.nanoClock.getAsLong();
		this.keys.queues(topic).forEach((queue) -> this.wakeUps.request(queue, now));
	}

	/**
	 * Sweep a topic when a due time comes: every partition it is written to, when it has
	 * several, since the queue that got the job is not known.
	 * @param topic the topic, or one partition's queue
	 * @param dueAtMillis the due time on the Redis clock
	 */
	@Override
	public void jobScheduled(String topic, long dueAtMillis) {
		long at = sweepTimeOf(dueAtMillis);
		if (topic.equals(DelayQueueKeys.topicOf(topic)) && this.keys.isPartitioned(topic)) {
			this.keys.queues(topic).forEach((partition) -> this.wakeUps.request(partition, at));
		}
		else {
			this.wakeUps.request(topic, at);
		}
	}

	/**
	 * Sweep one queue when a due time comes: a topic's own, or one partition's, and no
	 * other partition of its topic.
	 * @param queue the queue
	 * @param dueAtMillis the due time on the Redis clock
	 */
	@Override
	public void jobScheduledInQueue(String queue, long dueAtMillis) {
		this.wakeUps.request(queue, sweepTimeOf(dueAtMillis));
	}

	private long sweepTimeOf(long dueAtMillis) {
		long inMillis = this.sweeper.millisUntil(dueAtMillis);
		return this.nanoClock.getAsLong() + TimeUnit.MILLISECONDS.toNanos(Math.max(0, inMillis));
	}

	/**
	 * Return how many sweeps this scheduler ran so far, one per queue swept.
	 * @return the count
	 */
	long sweeps() {
		return this.sweeper.sweeps();
	}

	/**
	 * Sweep a topic now: another instance announced an earlier due time.
	 * @param topic the topic
	 */
	void wakeUp(String topic) {
		this.wakeUps.request(topic, this.nanoClock.getAsLong());
	}

	/**
	 * Jobs of a topic were claimed, on this instance or on another one: their time-to-run
	 * deadlines are in Redis, and a job's own time to run may be shorter than its
	 * topic's, so the topic is swept within {@code max-sleep}, and watched for a while
	 * since further claims are announced at most once per {@code max-sleep}.
	 * @param topic the topic
	 */
	void jobsClaimed(String topic) {
		long now = this.nanoClock.getAsLong();
		this.cap.watch(topic, now);
		this.wakeUps.request(topic, now + this.maxSleepNanos);
	}

	/**
	 * Sweep every topic now, for example after a reconnect, when wake-ups may have been
	 * missed, and watch every topic for a while, since claims announced meanwhile were
	 * missed too.
	 */
	void wakeUpAll() {
		long now = this.nanoClock.getAsLong();
		this.cap.watchAll(now);
		this.chores.refreshTopicsAt(now);
		this.wakeUps.requestAll(now);
	}

	/**
	 * The wake-up and claim channels are subscribed, at start-up or again after a
	 * reconnect: messages arrive from now on, and those published meanwhile were lost, so
	 * every topic is swept now. Until this is called, and after {@link #wakeUpsLost()},
	 * no topic sleeps longer than {@code max-sleep}.
	 */
	void wakeUpsSubscribed() {
		this.health.subscribed(true);
		wakeUpAll();
	}

	/**
	 * A message arrived on the wake-up or claim channel, a heartbeat included: messages
	 * arrive. If they had stopped arriving before, every topic is swept now.
	 */
	void wakeUpsHeard() {
		if (this.health.heard()) {
			logger.info("Wake-up messages arrive again; checking every topic");
			wakeUpAll();
		}
	}

	/**
	 * The wake-up and claim channels are no longer subscribed: messages may be missed, so
	 * no topic sleeps longer than {@code max-sleep} until they are subscribed again.
	 */
	void wakeUpsLost() {
		this.health.subscribed(false);
		long soon = this.nanoClock.getAsLong() + this.maxSleepNanos;
		this.chores.refreshTopicsNoLaterThan(soon);
		this.wakeUps.requestAll(soon);
	}

	/**
	 * Return whether wake-up and claim messages are known to arrive: the channels are
	 * subscribed and the last heartbeat was heard.
	 * @return {@code true} if they are
	 */
	boolean hearsWakeUps() {
		return this.health.isHealthy();
	}

	@Override
	public void start() {
		synchronized (this.lifecycleMonitor) {
			if (this.running) {
				return;
			}
			this.running = true;
			long generation = ++this.generation;
			Thread previous = this.thread;
			Thread worker = this.threads.daemon("delayqueue-scheduler", () -> run(generation, previous));
			this.thread = worker;
			worker.start();
		}
	}

	/**
	 * Stop the loop, waiting for it to end for a while. A loop stuck in a Redis call
	 * longer than that is left to end on its own: it stops at its next check, and a later
	 * {@link #start()} waits for it before its own loop begins, so two loops never run
	 * side by side.
	 */
	@Override
	public void stop() {
		Thread worker;
		synchronized (this.lifecycleMonitor) {
			this.running = false;
			this.generation++;
			this.wakeUps.stop();
			worker = this.thread;
		}
		if (worker != null && worker != Thread.currentThread()) {
			try {
				worker.join(this.stopTimeoutMillis);
				if (worker.isAlive()) {
					logger.warn("Delay queue scheduler did not stop within " + Duration.ofMillis(this.stopTimeoutMillis)
							+ "; it ends once its current Redis call returns, and a restart waits for that");
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

	/**
	 * Set how long {@link #stop()} waits for the loop to end; 10 seconds unless set.
	 * @param timeout the longest wait
	 */
	void setStopTimeout(Duration timeout) {
		this.stopTimeoutMillis = timeout.toMillis();
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

	private void run(long generation, @Nullable Thread previous) {
		try {
			if (previous != null) {
				// The loop of an earlier start may still be in a Redis call: the state
				// below is the loop's alone, so this one begins only once that one ended.
				previous.join();
			}
			if (!begin(generation)) {
				return;
			}
			loop(generation);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private boolean begin(long generation) {
		synchronized (this.lifecycleMonitor) {
			if (!isCurrent(generation)) {
				return false;
			}
			this.wakeUps.restart();
			long now = this.nanoClock.getAsLong();
			this.chores.start(now);
			this.cap.watchAll(now);
			return true;
		}
	}

	private boolean isCurrent(long generation) {
		return this.generation == generation;
	}

	private void loop(long generation) throws InterruptedException {
		int failures = 0;
		while (isCurrent(generation)) {
			try {
				sweepDueTopics(generation);
				if (failures > 0) {
					logger.info("Redis is reachable again; catching up on due jobs");
					failures = 0;
					wakeUpAll();
				}
				this.wakeUps.awaitNext(this.chores.nextDue());
			}
			catch (RuntimeException ex) {
				failures++;
				RedisOutageLog.failed(logger, "Delay queue scheduler", "move due jobs", failures, ex);
				this.wakeUps.pause(Math.min(this.maxSleepNanos, ReconnectBackoff.delay(failures).toNanos()));
			}
		}
	}

	private void sweepDueTopics(long generation) {
		long now = this.nanoClock.getAsLong();
		this.chores.checkWakeUpChannel(now);
		this.chores.refreshTopicsIfDue(now);
		for (String topic : this.wakeUps.due(now)) {
			if (!isCurrent(generation)) {
				return;
			}
			this.sweeper.sweep(topic);
		}
		if (!isCurrent(generation)) {
			return;
		}
		this.chores.requeueOrphansIfDue(now);
		List<String> retired = this.chores.retirePartitionsIfDue(now);
		if (!retired.isEmpty()) {
			this.eventPublisher.publishEvent(new PartitionsRetiredEvent(this, retired));
		}
		this.chores.purgeDeadJobsIfDue(now);
		this.chores.trimKeptJobsIfDue(now);
	}

}
