package io.github.delayqueue.scheduler;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.github.delayqueue.core.DelayQueueKeys;
import io.github.delayqueue.core.DueTimeListener;
import io.github.delayqueue.core.JobEventListener;
import io.github.delayqueue.core.JobEventListeners;
import io.github.delayqueue.core.JobStore;
import io.github.delayqueue.core.ScriptRunner;
import io.github.delayqueue.core.TopicPolicies;
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
 * twice. A backlog is moved in bounded batches, oldest first, one batch per topic in
 * turn, so that catching up after an outage neither pins Redis nor starves other topics.
 *
 * @author delayqueue contributors
 */
public class DelayedJobScheduler implements SmartLifecycle, DueTimeListener {

	/**
	 * The lifecycle phase: started before the listeners, stopped after them.
	 */
	public static final int PHASE = Integer.MAX_VALUE - 2000;

	private static final Log logger = LogFactory.getLog(DelayedJobScheduler.class);

	private static final long DEAD_PURGE_CHECK_NANOS = TimeUnit.MINUTES.toNanos(1);

	private final HousekeepingStore store;

	private final ScriptRunner scripts;

	private final TopicPolicies policies;

	private final int batchSize;

	private final long maxSleepNanos;

	private final TopicWakeUps wakeUps = new TopicWakeUps();

	private final OrphanedClaims orphanedClaims;

	private final DeadJobRetention deadJobs;

	private final Object lifecycleMonitor = new Object();

	private JobEventListener eventListener = JobEventListeners.none();

	private Clock clock = Clock.systemUTC();

	private long orphanCheckNanos = TimeUnit.SECONDS.toNanos(30);

	private volatile long redisOffsetMillis;

	private volatile boolean running;

	private @Nullable Thread thread;

	private volatile long nextTopicRefresh;

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
		this.orphanedClaims = new OrphanedClaims(this.store);
		this.deadJobs = new DeadJobRetention(jobStore, policies);
		this.scripts = scripts;
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
		this.wakeUps.request(topic, System.nanoTime());
	}

	@Override
	public void jobScheduled(String topic, long dueAtMillis) {
		long inMillis = dueAtMillis - (this.clock.millis() + this.redisOffsetMillis);
		this.wakeUps.request(topic, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.max(0, inMillis)));
	}

	/**
	 * Sweep a topic now: another instance announced an earlier due time.
	 * @param topic the topic
	 */
	public void wakeUp(String topic) {
		this.wakeUps.request(topic, System.nanoTime());
	}

	/**
	 * Sweep every topic now, for example after a reconnect, when wake-ups may have been
	 * missed.
	 */
	public void wakeUpAll() {
		this.nextTopicRefresh = System.nanoTime();
		this.wakeUps.requestAll(System.nanoTime());
	}

	@Override
	public void start() {
		synchronized (this.lifecycleMonitor) {
			if (this.running) {
				return;
			}
			this.running = true;
			this.wakeUps.restart();
			long now = System.nanoTime();
			this.nextTopicRefresh = now;
			this.nextOrphanCheck = now + this.orphanCheckNanos;
			this.nextDeadPurge = now;
			Thread worker = new Thread(this::run, "delayqueue-scheduler");
			worker.setDaemon(true);
			this.thread = worker;
			worker.start();
		}
	}

	@Override
	public void stop() {
		Thread worker;
		synchronized (this.lifecycleMonitor) {
			this.running = false;
			this.wakeUps.stop();
			worker = this.thread;
			this.thread = null;
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
		preloadScripts();
		int failures = 0;
		try {
			while (this.running) {
				try {
					sweepDueTopics();
					if (failures > 0) {
						logger.info("Redis is reachable again; catching up on due jobs");
						failures = 0;
						wakeUpAll();
					}
					this.wakeUps.awaitNext(earlier(this.nextTopicRefresh, this.nextOrphanCheck));
				}
				catch (RuntimeException ex) {
					failures++;
					if (failures == 1) {
						logger.warn("Delay queue scheduler cannot reach Redis; retrying", ex);
					}
					else if (logger.isDebugEnabled()) {
						logger.debug("Delay queue scheduler still cannot reach Redis (" + failures + " tries)", ex);
					}
					this.wakeUps.pause(
							Math.min(this.maxSleepNanos, TimeUnit.MILLISECONDS.toNanos(50L << Math.min(failures, 6))));
				}
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private void preloadScripts() {
		try {
			this.scripts.loadAll();
		}
		catch (RuntimeException ex) {
			logger.debug("Could not preload the scripts; they load on first use", ex);
		}
	}

	private void sweepDueTopics() {
		long now = System.nanoTime();
		if (now - this.nextTopicRefresh >= 0) {
			// Topics that other instances send to are found here; local ones are woken
			// directly.
			this.store.topics().forEach((topic) -> this.wakeUps.track(topic, now));
			this.nextTopicRefresh = now + this.maxSleepNanos;
		}
		for (String topic : this.wakeUps.due(now)) {
			sweep(topic);
		}
		if (now - this.nextOrphanCheck >= 0) {
			requeueOrphans();
			this.nextOrphanCheck = now + this.orphanCheckNanos;
		}
		if (now - this.nextDeadPurge >= 0) {
			this.deadJobs.purgeDue(this.wakeUps.topics(), now);
			this.nextDeadPurge = now + DEAD_PURGE_CHECK_NANOS;
		}
	}

	private void sweep(String topic) {
		int maxAttempts = this.policies.forTopic(topic).maxAttempts();
		this.wakeUps.sweepStarting(topic);
		long sentAt = System.nanoTime();
		HousekeepingStore.TopicSweep sweep = this.store.sweep(topic, this.batchSize, maxAttempts);
		long receivedAt = System.nanoTime();
		if (sweep.redisNow() >= 0) {
			this.redisOffsetMillis = sweep.redisNow() - this.clock.millis();
		}
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
		this.wakeUps.sweepFinished(topic, next);
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
		for (String topic : this.wakeUps.topics()) {
			long requeued = this.orphanedClaims.check(topic);
			if (requeued > 0) {
				logger.info("Returned " + requeued + " orphaned claim(s) of topic '" + topic + "' to READY");
			}
		}
	}

	private static long earlier(long a, long b) {
		return (a - b < 0) ? a : b;
	}

}
