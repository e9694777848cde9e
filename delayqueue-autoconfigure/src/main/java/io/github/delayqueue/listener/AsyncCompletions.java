package io.github.delayqueue.listener;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Watches the futures of one container run's asynchronous handlers: settles each delivery
 * on a worker once its future completes (never on the thread that completed it, which may
 * be a client's event loop that a Redis call from it would block), and cancels a future
 * still incomplete when its delivery's time to run elapses, extensions included, so that
 * its permit is freed. A stop waits for them as for running handlers, then cancels those
 * left, whose jobs are handed back.
 *
 * @author delayqueue contributors
 */
final class AsyncCompletions {

	private static final Log logger = LogFactory.getLog(AsyncCompletions.class);

	private final Set<Watched> watched = ConcurrentHashMap.newKeySet();

	private final Executor workers;

	/**
	 * Create the watch of one run.
	 * @param workers the run's workers; once they are shut down, settlements run on the
	 * thread that completed the future
	 */
	AsyncCompletions(Executor workers) {
		this.workers = (task) -> {
			try {
				workers.execute(task);
			}
			catch (RejectedExecutionException ex) {
				task.run();
			}
		};
	}

	/**
	 * Watch the future of an asynchronous handler.
	 * @param execution the delivery
	 * @param completion the handler's future
	 * @return a future that completes once the delivery is settled, or its time to run
	 * elapsed first
	 */
	CompletableFuture<Void> watch(JobExecution execution, CompletableFuture<?> completion) {
		Watched watch = new Watched(execution, completion);
		this.watched.add(watch);
		watch.settled.whenComplete((done, failure) -> this.watched.remove(watch));
		completion.whenCompleteAsync((value, failure) -> watch.completed(failure), this.workers);
		watch.expireAtDeadline();
		return watch.settled;
	}

	/**
	 * Wait until every watched delivery is settled.
	 * @param timeout how long to wait at most
	 * @return {@code true} if none is left
	 * @throws InterruptedException if the waiting thread is interrupted
	 */
	boolean await(Duration timeout) throws InterruptedException {
		CompletableFuture<?>[] pending = this.watched.stream()
			.map((watch) -> watch.settled)
			.toArray(CompletableFuture<?>[]::new);
		try {
			CompletableFuture.allOf(pending).get(timeout.toNanos(), TimeUnit.NANOSECONDS);
			return this.watched.isEmpty();
		}
		catch (TimeoutException ex) {
			return false;
		}
		catch (ExecutionException ex) {
			// Settled futures never fail; a settlement that threw was logged.
			return this.watched.isEmpty();
		}
	}

	/**
	 * Cancel every watched future: the caller has set the run's shutdown flag, so their
	 * deliveries are handed back uncounted.
	 */
	void cancelAll() {
		this.watched.forEach((watch) -> watch.completion.cancel(true));
	}

	private static final class Watched {

		private final JobExecution execution;

		private final CompletableFuture<?> completion;

		private final CompletableFuture<Void> settled = new CompletableFuture<>();

		// Whichever comes first settles: the future's completion or the deadline.
		private final AtomicBoolean decided = new AtomicBoolean();

		Watched(JobExecution execution, CompletableFuture<?> completion) {
			this.execution = execution;
			this.completion = completion;
		}

		void completed(Throwable failure) {
			if (!this.decided.compareAndSet(false, true)) {
				return;
			}
			try {
				this.execution.completed(failure);
			}
			catch (RuntimeException ex) {
				logger.error("Settling job '" + this.execution.job().id() + "' failed; it will be delivered again"
						+ " when its time to run elapses", ex);
			}
			finally {
				this.settled.complete(null);
			}
		}

		// On the JDK's shared timer thread, which this keeps short: the cancellation's
		// settlement goes to a worker, and finds the decision taken.
		void expireAtDeadline() {
			long nanos = this.execution.nanosUntilDeadline();
			if (this.completion.isDone()) {
				return;
			}
			if (nanos > 0) {
				CompletableFuture.delayedExecutor(nanos, TimeUnit.NANOSECONDS, Runnable::run)
					.execute(this::expireAtDeadline);
				return;
			}
			if (this.decided.compareAndSet(false, true)) {
				try {
					this.execution.expired();
				}
				finally {
					this.settled.complete(null);
					this.completion.cancel(true);
				}
			}
		}

	}

}
