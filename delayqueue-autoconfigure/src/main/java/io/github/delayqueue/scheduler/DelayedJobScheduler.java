package io.github.delayqueue.scheduler;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import io.github.delayqueue.core.DelayQueueKeys;
import io.github.delayqueue.core.DueTimeListener;
import io.github.delayqueue.core.JobEventListener;
import io.github.delayqueue.core.JobEventListeners;
import io.github.delayqueue.core.JobStore;
import io.github.delayqueue.core.ScriptRunner;
import io.github.delayqueue.core.TopicPolicies;
import io.github.delayqueue.core.TopicPolicy;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.SmartLifecycle;

/**
 * Moves due jobs from DELAYED to READY and returns deliveries whose time to run elapsed,
 * for every topic, on one thread. After each sweep of a topic it knows the next due time
 * and deadline, and sleeps until the earliest of them; a send on this instance or a
 * wake-up message from another one ends the sleep early. A sleep never exceeds the
 * configured cap, so a lost wake-up delays nothing by more than the cap. Sweeps are
 * atomic scripts, so any number of instances may run this at once without moving a job
 * twice.
 *
 * @author delayqueue contributors
 */
public class DelayedJobScheduler implements SmartLifecycle, DueTimeListener {

	/**
	 * The lifecycle phase: started before the listeners, stopped after them.
	 */
	public static final int PHASE = Integer.MAX_VALUE - 2000;

	private static final Log logger = LogFactory.getLog(DelayedJobScheduler.class);

	private long orphanCheckNanos = TimeUnit.SECONDS.toNanos(30);

	private static final long DEAD_PURGE_NANOS = TimeUnit.MINUTES.toNanos(1);

	private final HousekeepingStore store;

	private final ScriptRunner scripts;

	private final JobStore jobStore;

	private final TopicPolicies policies;

	private final int batchSize;

	private final long maxSleepNanos;

	private final ReentrantLock lock = new ReentrantLock();

	private final Condition wakeUp = this.lock.newCondition();

	private final Map<String, Long> wakeAt = new HashMap<>();

	// Wake-ups that may have raced with a sweep of their topic; merged in when it ends.
	private final Map<String, Long> wakeDuringSweep = new HashMap<>();

	private final Map<String, List<String>> claimingSeen = new HashMap<>();

	private JobEventListener eventListener = JobEventListeners.none();

	private Clock clock = Clock.systemUTC();

	private volatile long redisOffsetMillis;

	private volatile boolean running;

	private @Nullable Thread thread;

	private long nextTopicRefresh;

	private long nextOrphanCheck;

	private long nextDeadPurge;

	/**
	 * Create a scheduler.
	 * @param scripts runs the scripts
	 * @param keys names the keys
	 * @param jobStore purges old dead jobs
	 * @param policies the topics' policies
	 * @param batchSize most jobs moved per script call
	 * @param maxSleep the longest sleep between two sweeps of a topic
	 */
	public DelayedJobScheduler(ScriptRunner scripts, DelayQueueKeys keys, JobStore jobStore, TopicPolicies policies,
			int batchSize, Duration maxSleep) {
		this.store = new HousekeepingStore(scripts, keys);
		this.scripts = scripts;
		this.jobStore = jobStore;
		this.policies = policies;
		this.batchSize = batchSize;
		this.maxSleepNanos = maxSleep.toNanos();
	}

	/**
	 * Set who hears of expired and dead jobs.
	 * @param eventListener the listener
	 */
	public void setEventListener(JobEventListener eventListener) {
		this.eventListener = eventListener;
	}

	/**
	 * Set the wall clock of this instance. It decides nothing: due times come from the
	 * Redis clock, and this clock is only compared with it to know how long to sleep, so
	 * an instance whose clock is off by minutes still fires on time.
	 * @param clock the clock
	 */
	public void setClock(Clock clock) {
		this.clock = clock;
	}

	/**
	 * Set how often ids left in claiming lists are looked for. An id seen in two checks
	 * in a row belongs to a consumer that died between moving it and claiming it, and is
	 * put back to READY; claims normally complete in milliseconds.
	 * @param interval the interval between two checks
	 */
	public void setOrphanCheckInterval(Duration interval) {
		this.orphanCheckNanos = interval.toNanos();
	}

	/**
	 * Make sure a topic is swept even before any job of it was seen in Redis.
	 * @param topic the topic
	 */
	public void addTopic(String topic) {
		wake(topic, System.nanoTime());
	}

	@Override
	public void jobScheduled(String topic, long dueAtMillis) {
		long inMillis = dueAtMillis - (this.clock.millis() + this.redisOffsetMillis);
		wake(topic, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.max(0, inMillis)));
	}

	/**
	 * Sweep a topic now: another instance announced an earlier due time.
	 * @param topic the topic
	 */
	public void wakeUp(String topic) {
		wake(topic, System.nanoTime());
	}

	/**
	 * Sweep every topic now, for example after a reconnect, when wake-ups may have been
	 * missed.
	 */
	public void wakeUpAll() {
		this.lock.lock();
		try {
			long now = System.nanoTime();
			this.wakeAt.replaceAll((topic, at) -> now);
			this.nextTopicRefresh = now;
			this.wakeUp.signalAll();
		}
		finally {
			this.lock.unlock();
		}
	}

	private void wake(String topic, long at) {
		this.lock.lock();
		try {
			this.wakeDuringSweep.merge(topic, at, (a, b) -> (a - b < 0) ? a : b);
			Long current = this.wakeAt.get(topic);
			if (current == null || at - current < 0) {
				this.wakeAt.put(topic, at);
				this.wakeUp.signalAll();
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public void start() {
		this.lock.lock();
		try {
			if (this.running) {
				return;
			}
			this.running = true;
			long now = System.nanoTime();
			this.nextTopicRefresh = now;
			this.nextOrphanCheck = now + this.orphanCheckNanos;
			this.nextDeadPurge = now;
			Thread worker = new Thread(this::run, "delayqueue-scheduler");
			worker.setDaemon(true);
			this.thread = worker;
			worker.start();
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public void stop() {
		Thread worker;
		this.lock.lock();
		try {
			this.running = false;
			this.wakeUp.signalAll();
			worker = this.thread;
			this.thread = null;
		}
		finally {
			this.lock.unlock();
		}
		if (worker != null) {
			try {
				worker.join(TimeUnit.SECONDS.toMillis(10));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

	private void run() {
		int failures = 0;
		try {
			this.scripts.loadAll();
		}
		catch (RuntimeException ex) {
			logger.debug("Could not preload the scripts; they load on first use", ex);
		}
		while (this.running) {
			try {
				sweepDueTopics();
				if (failures > 0) {
					logger.info("Redis is reachable again; catching up on due jobs");
					failures = 0;
					wakeUpAll();
				}
				sleepUntilNextEvent();
			}
			catch (RuntimeException ex) {
				failures++;
				if (failures == 1) {
					logger.warn("Delay queue scheduler cannot reach Redis; retrying", ex);
				}
				else if (logger.isDebugEnabled()) {
					logger.debug("Delay queue scheduler still cannot reach Redis (" + failures + " tries)", ex);
				}
				pause(Math.min(this.maxSleepNanos, TimeUnit.MILLISECONDS.toNanos(50L << Math.min(failures, 6))));
			}
		}
	}

	private void sweepDueTopics() {
		long now = System.nanoTime();
		if (now - this.nextTopicRefresh >= 0) {
			for (String topic : this.store.topics()) {
				this.lock.lock();
				try {
					this.wakeAt.putIfAbsent(topic, now);
				}
				finally {
					this.lock.unlock();
				}
			}
			this.nextTopicRefresh = now + this.maxSleepNanos;
		}
		for (String topic : dueTopics(now)) {
			sweep(topic);
		}
		if (now - this.nextOrphanCheck >= 0) {
			requeueOrphans();
			this.nextOrphanCheck = now + this.orphanCheckNanos;
		}
		if (now - this.nextDeadPurge >= 0) {
			purgeOldDeadJobs();
			this.nextDeadPurge = now + DEAD_PURGE_NANOS;
		}
	}

	private List<String> dueTopics(long now) {
		this.lock.lock();
		try {
			List<String> due = new ArrayList<>();
			this.wakeAt.forEach((topic, at) -> {
				if (now - at >= 0) {
					due.add(topic);
				}
			});
			return due;
		}
		finally {
			this.lock.unlock();
		}
	}

	private void sweep(String topic) {
		TopicPolicy policy = this.policies.forTopic(topic);
		this.lock.lock();
		try {
			this.wakeDuringSweep.remove(topic);
		}
		finally {
			this.lock.unlock();
		}
		long sentAt = System.nanoTime();
		HousekeepingStore.TopicSweep sweep = this.store.sweep(topic, this.batchSize, policy.maxAttempts());
		long receivedAt = System.nanoTime();
		this.redisOffsetMillis = sweep.redisNow() - this.clock.millis();
		report(topic, sweep);
		long next;
		if (sweep.promoted() >= this.batchSize
				|| sweep.requeued() + sweep.dead() + sweep.vanished() >= this.batchSize) {
			next = receivedAt; // a backlog: go again after the other due topics had their
								// turn
		}
		else if (sweep.nextEvent() < 0) {
			next = receivedAt + this.maxSleepNanos;
		}
		else {
			long untilEvent = TimeUnit.MILLISECONDS.toNanos(Math.max(0, sweep.nextEvent() - sweep.redisNow()));
			next = sentAt + Math.min(untilEvent, this.maxSleepNanos);
		}
		this.lock.lock();
		try {
			// A wake-up that arrived during the sweep may ask for an earlier time: keep
			// it.
			Long requested = this.wakeDuringSweep.remove(topic);
			this.wakeAt.put(topic, (requested != null && requested - next < 0) ? requested : next);
		}
		finally {
			this.lock.unlock();
		}
	}

	private void report(String topic, HousekeepingStore.TopicSweep sweep) {
		int expired = sweep.requeued() + sweep.dead();
		if (expired > 0) {
			this.eventListener.jobsExpired(topic, expired);
		}
		if (sweep.dead() > 0) {
			this.eventListener.jobsDead(topic, sweep.dead());
		}
		if (sweep.vanished() > 0) {
			logger.warn("Dropped " + sweep.vanished() + " running job id(s) of topic '" + topic
					+ "' whose job data had vanished from Redis");
		}
	}

	private void requeueOrphans() {
		Set<String> topics = knownTopics();
		for (String topic : topics) {
			List<String> now = this.store.claiming(topic);
			List<String> before = this.claimingSeen.getOrDefault(topic, List.of());
			// An id moved out of ready is claimed within milliseconds; one still there a
			// whole
			// check interval later belongs to a consumer that died between BLMOVE and
			// claim.
			Set<String> stale = new HashSet<>(before);
			stale.retainAll(now);
			long requeued = this.store.requeueOrphans(topic, new ArrayList<>(stale));
			if (requeued > 0) {
				logger.info("Returned " + requeued + " orphaned claim(s) of topic '" + topic + "' to READY");
			}
			List<String> remaining = new ArrayList<>(now);
			remaining.removeAll(stale);
			this.claimingSeen.put(topic, remaining);
		}
	}

	private void purgeOldDeadJobs() {
		for (String topic : knownTopics()) {
			long purged = this.jobStore.purgeDead(topic, this.policies.forTopic(topic).deadRetention());
			if (purged > 0 && logger.isDebugEnabled()) {
				logger.debug("Purged " + purged + " dead job(s) of topic '" + topic + "' past their retention");
			}
		}
	}

	private Set<String> knownTopics() {
		this.lock.lock();
		try {
			return new HashSet<>(this.wakeAt.keySet());
		}
		finally {
			this.lock.unlock();
		}
	}

	private void sleepUntilNextEvent() {
		this.lock.lock();
		try {
			long now = System.nanoTime();
			long until = this.nextTopicRefresh;
			for (long at : this.wakeAt.values()) {
				if (at - until < 0) {
					until = at;
				}
			}
			if (this.nextOrphanCheck - until < 0) {
				until = this.nextOrphanCheck;
			}
			long wait = until - now;
			if (wait > 0 && this.running) {
				this.wakeUp.awaitNanos(wait);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			this.running = false;
		}
		finally {
			this.lock.unlock();
		}
	}

	private void pause(long nanos) {
		this.lock.lock();
		try {
			if (this.running) {
				this.wakeUp.awaitNanos(nanos);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			this.running = false;
		}
		finally {
			this.lock.unlock();
		}
	}

}
