package io.github.delayqueue.listener;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import io.github.delayqueue.internal.store.DelayQueueKeys;
import io.github.delayqueue.internal.store.JobClaims.Claim;
import io.github.delayqueue.internal.store.JobClaims.ClaimCall;
import io.github.delayqueue.internal.store.JobClaims.ClaimedJob;
import org.jspecify.annotations.Nullable;

/**
 * Runs one listener: claims jobs of its topics, in priority order, only while a worker is
 * free, and runs them on a pool of {@code concurrency} workers. When nothing is ready it
 * waits on blocking moves, one per queue up to a bound (see {@link ReadyWaiters}),
 * instead of polling. Stopping stops claiming, hands back claimed jobs that have not
 * started, and waits up to the shutdown timeout for running handlers. Each start begins a
 * new {@link ContainerRun}, which waits for the previous one to end before it claims.
 *
 * @author delayqueue contributors
 */
public class DelayedJobListenerContainer {

	private final DelayedJobListenerEndpoint endpoint;

	private final ListenerMethodAdapter method;

	private final DelayedJobListenerContainerFactory factory;

	private final int concurrency;

	private final RunTimeAverage runTimes = new RunTimeAverage();

	private final AtomicInteger activeJobs = new AtomicInteger();

	private final BatchingAcknowledger acknowledger;

	private final FailedDeliveries failures;

	private final HandlerObservations observations;

	private final Object lifecycleMonitor = new Object();

	private volatile @Nullable ContainerRun current;

	// The latest run, stopped or not, which the next one waits for.
	private @Nullable ContainerRun latest;

	private volatile Claimer claimer;

	DelayedJobListenerContainer(DelayedJobListenerEndpoint endpoint, ListenerMethodAdapter method,
			DelayedJobListenerContainerFactory factory, int concurrency) {
		this.endpoint = endpoint;
		this.method = method;
		this.factory = factory;
		this.concurrency = concurrency;
		this.acknowledger = new BatchingAcknowledger(factory.claims()::ack, factory.events());
		this.failures = new FailedDeliveries(factory.claims(), factory.events(), factory.dueTimeListener(),
				this.acknowledger, (endpoint.errorHandler() != null) ? endpoint.errorHandler() : factory.errorHandler(),
				factory.deadJobs());
		this.observations = factory.observations(endpoint.id());
		this.claimer = factory.claims()::claim;
	}

	/**
	 * Return the listener's id.
	 * @return the id
	 */
	public String getListenerId() {
		return this.endpoint.id();
	}

	/**
	 * Return the topics, highest priority first.
	 * @return the topics
	 */
	public List<String> getTopics() {
		return this.endpoint.topics();
	}

	/**
	 * Return how many jobs run at once at most.
	 * @return the concurrency
	 */
	public int getConcurrency() {
		return this.concurrency;
	}

	/**
	 * Return how many jobs are running now.
	 * @return the number of handlers running
	 */
	public int getActiveJobs() {
		return this.activeJobs.get();
	}

	/**
	 * Return whether the listener should start with the application.
	 * @return {@code true} to start automatically
	 */
	public boolean isAutoStartup() {
		return this.endpoint.autoStartup();
	}

	/**
	 * Return whether the listener is running.
	 * @return {@code true} while running
	 */
	public boolean isRunning() {
		return this.current != null;
	}

	/**
	 * Start claiming and running jobs. Returns at once, also while Redis cannot be
	 * reached: the listener keeps trying in the background.
	 */
	public void start() {
		synchronized (this.lifecycleMonitor) {
			if (this.current != null) {
				return;
			}
			ContainerRun run = new ContainerRun(this, this.latest);
			this.current = run;
			this.latest = run;
			run.start();
		}
	}

	/**
	 * Stop: claim nothing more, hand back claimed jobs that have not started so that they
	 * are delivered again at once, and wait up to the shutdown timeout for running
	 * handlers. Blocks until done.
	 */
	public void stop() {
		ContainerRun run = detach();
		if (run != null) {
			run.stop();
		}
	}

	/**
	 * Stop as {@link #stop()} does, on a thread of its own, and call back when done.
	 * @param callback called once stopped, also when the listener was not running
	 */
	public void stop(Runnable callback) {
		ContainerRun run = detach();
		if (run == null) {
			callback.run();
			return;
		}
		this.factory.threads().daemon("delayqueue-stop-" + this.endpoint.id(), () -> {
			try {
				run.stop();
			}
			finally {
				callback.run();
			}
		}).start();
	}

	private @Nullable ContainerRun detach() {
		synchronized (this.lifecycleMonitor) {
			ContainerRun run = this.current;
			this.current = null;
			return run;
		}
	}

	/**
	 * Read the topics' queues again now rather than at the next periodic look, when
	 * running: partitions of them were retired, and the waiters on those can go.
	 */
	void refreshQueues() {
		ContainerRun run = this.current;
		if (run != null) {
			run.refreshQueuesNow();
		}
	}

	/**
	 * Return the factory that created this container, whose settings it runs with.
	 * @return the factory
	 */
	public DelayedJobListenerContainerFactory getContainerFactory() {
		return this.factory;
	}

	DelayedJobListenerContainerFactory factory() {
		return this.factory;
	}

	RunTimeAverage runTimes() {
		return this.runTimes;
	}

	AtomicInteger activeJobCounter() {
		return this.activeJobs;
	}

	Claimer claimer() {
		return this.claimer;
	}

	/**
	 * Replace how jobs are claimed, for tests that make claims fail or stall.
	 * @param claimer the claimer
	 */
	void setClaimer(Claimer claimer) {
		this.claimer = claimer;
	}

	Duration ttr(String queue) {
		return this.factory.policies().forTopic(DelayQueueKeys.topicOf(queue)).ttr();
	}

	JobExecution execution(ClaimedJob job, long claimedAtRedisMillis, long claimedAtNanos,
			BooleanSupplier interruptedByShutdown) {
		return new JobExecution(job, claimedAtRedisMillis, claimedAtNanos, this.method,
				this.factory.policies().forTopic(job.topic()), this.factory.claims(), this.factory.codec(),
				this.factory.events(), this.acknowledger, this.failures, interruptedByShutdown, this.observations);
	}

	@Override
	public String toString() {
		return "DelayedJobListenerContainer[" + this.endpoint.id() + " on " + this.endpoint.topics() + "]";
	}

	/**
	 * Sends claim calls; see
	 * {@link io.github.delayqueue.internal.store.JobClaims#claim(ClaimCall)}.
	 */
	@FunctionalInterface
	interface Claimer {

		/**
		 * Send a claim call, the first time or again after its reply was lost.
		 * @param call the call
		 * @return the claim
		 */
		Claim claim(ClaimCall call);

	}

}
