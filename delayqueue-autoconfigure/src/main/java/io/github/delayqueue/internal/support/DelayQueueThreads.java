package io.github.delayqueue.internal.support;

import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.task.SimpleAsyncTaskExecutorBuilder;
import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.core.task.TaskDecorator;

/**
 * Where every thread of the starter comes from: Spring Boot's
 * {@link SimpleAsyncTaskExecutorBuilder}, so that {@code spring.threads.virtual.enabled}
 * and the application's task decorator and executor customizers apply to the starter's
 * threads as they do to the application's own asynchronous work. The only class of the
 * starter that creates threads or executors.
 *
 * @author delayqueue contributors
 */
public final class DelayQueueThreads {

	private static final DelayQueueThreads PLATFORM = from(new SimpleAsyncTaskExecutorBuilder());

	private final ThreadSource source;

	private DelayQueueThreads(ThreadSource source) {
		this.source = source;
	}

	/**
	 * Threads as this builder makes them: virtual or not, decorated and customized as it
	 * says; each keeps the name the starter gives it.
	 * @param builder the builder, usually the application's
	 * @return the threads
	 */
	public static DelayQueueThreads from(SimpleAsyncTaskExecutorBuilder builder) {
		return new DelayQueueThreads(builder.configure(new ThreadSource()));
	}

	/**
	 * Plain platform threads, for parts of the starter used outside an application
	 * context.
	 * @return the threads
	 */
	public static DelayQueueThreads platform() {
		return PLATFORM;
	}

	/**
	 * Create a thread, not started, that does not keep the JVM running.
	 * @param name the thread's name
	 * @param task what it runs
	 * @return the thread
	 */
	public Thread daemon(String name, Runnable task) {
		return this.source.thread(name, task, true);
	}

	/**
	 * Create a thread, not started, that keeps the JVM running while it runs: a platform
	 * thread even where the others are virtual, as a virtual thread never keeps the JVM
	 * running (and Spring Boot keeps it running for them only when
	 * {@code spring.main.keep-alive} says so).
	 * @param name the thread's name
	 * @param task what it runs
	 * @return the thread
	 */
	public Thread keepingAlive(String name, Runnable task) {
		return this.source.platformThread(name, task, false);
	}

	/**
	 * Create a platform thread, not started, that does not keep the JVM running, for
	 * waits that block on a Redis connection of their own for long: as many of those on
	 * virtual threads could hold every carrier thread, should the client block where a
	 * virtual thread cannot let go of its carrier.
	 * @param name the thread's name
	 * @param task what it runs
	 * @return the thread
	 */
	public Thread blockingOnRedis(String name, Runnable task) {
		return this.source.platformThread(name, task, true);
	}

	/**
	 * Return a factory of threads named by a prefix and a number.
	 * @param namePrefix the names' prefix
	 * @param daemon whether the threads let the JVM end while they run
	 * @return the factory
	 */
	public ThreadFactory factory(String namePrefix, boolean daemon) {
		AtomicInteger created = new AtomicInteger();
		return (task) -> this.source.thread(namePrefix + created.incrementAndGet(), task, daemon);
	}

	/**
	 * Return a pool of a fixed number of threads, whose waiting tasks a caller can take
	 * back (see {@link #undecorated(Runnable)}), with an unbounded queue. The
	 * application's task decorator wraps each task as it is submitted, not the pool's
	 * threads: a thread is created by whichever task comes first, and must not carry what
	 * that task's submitter held to every later task.
	 * @param namePrefix the threads' name prefix
	 * @param threads how many threads at most
	 * @param idleEnd how long an idle thread lives, or zero to keep the threads
	 * @param daemon whether the threads let the JVM end while they run
	 * @return the pool
	 */
	public ThreadPoolExecutor pool(String namePrefix, int threads, Duration idleEnd, boolean daemon) {
		AtomicInteger created = new AtomicInteger();
		ThreadPoolExecutor pool = new DecoratingPool(threads, idleEnd,
				(task) -> this.source.undecoratedThread(namePrefix + created.incrementAndGet(), task, daemon),
				this.source.decorator);
		if (!idleEnd.isZero()) {
			pool.allowCoreThreadTimeOut(true);
		}
		return pool;
	}

	/**
	 * Return the task a {@linkplain #pool pool} was given, from what its queue holds.
	 * @param queued a task taken from a pool's queue
	 * @return the task as submitted
	 */
	public static Runnable undecorated(Runnable queued) {
		return (queued instanceof DecoratedTask decorated) ? decorated.task() : queued;
	}

	/**
	 * Return an executor that runs each task on a new platform daemon thread, for tasks
	 * that block on a Redis connection of their own for as long as they run (see
	 * {@link #blockingOnRedis(String, Runnable)}).
	 * @param namePrefix the threads' name prefix
	 * @return the executor
	 */
	public Executor blockingOnRedisPerTask(String namePrefix) {
		AtomicInteger created = new AtomicInteger();
		return new SimpleAsyncTaskExecutor((task) -> blockingOnRedis(namePrefix + created.incrementAndGet(), task));
	}

	/**
	 * Return an executor of delayed and periodic tasks, on one daemon thread.
	 * @param name the thread's name
	 * @return the executor
	 */
	public ScheduledExecutorService scheduler(String name) {
		return new ScheduledThreadPoolExecutor(1, (task) -> this.source.thread(name, task, true));
	}

	/**
	 * The builder's executor, used only for the threads it would create: the starter's
	 * threads have their own names and lifecycles (a loop that runs until its component
	 * stops, a pool whose queue a stop hands back).
	 */
	static final class ThreadSource extends SimpleAsyncTaskExecutor {

		private @Nullable TaskDecorator decorator;

		private boolean virtual;

		@Override
		public void setTaskDecorator(TaskDecorator taskDecorator) {
			super.setTaskDecorator(taskDecorator);
			this.decorator = taskDecorator;
		}

		@Override
		public void setVirtualThreads(boolean virtual) {
			super.setVirtualThreads(virtual);
			this.virtual = virtual;
		}

		Thread thread(String name, Runnable task, boolean daemon) {
			return undecoratedThread(name, decorated(task), daemon);
		}

		Thread undecoratedThread(String name, Runnable task, boolean daemon) {
			Thread thread = newThread(task);
			thread.setName(name);
			if (!this.virtual) {
				thread.setDaemon(daemon);
			}
			return thread;
		}

		Thread platformThread(String name, Runnable task, boolean daemon) {
			Thread thread = createThread(decorated(task));
			thread.setName(name);
			thread.setDaemon(daemon);
			return thread;
		}

		private Runnable decorated(Runnable task) {
			TaskDecorator decorator = this.decorator;
			return (decorator != null) ? decorator.decorate(task) : task;
		}

	}

	/**
	 * A pool that has each task decorated as it is submitted.
	 */
	private static final class DecoratingPool extends ThreadPoolExecutor {

		private final @Nullable TaskDecorator decorator;

		DecoratingPool(int threads, Duration idleEnd, ThreadFactory factory, @Nullable TaskDecorator decorator) {
			super(threads, threads, idleEnd.toMillis(), TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), factory);
			this.decorator = decorator;
		}

		@Override
		public void execute(Runnable task) {
			TaskDecorator decorator = this.decorator;
			super.execute((decorator != null) ? new DecoratedTask(task, decorator.decorate(task)) : task);
		}

	}

	/**
	 * A task as submitted, and as decorated.
	 *
	 * @param task as submitted
	 * @param decorated as decorated
	 */
	private record DecoratedTask(Runnable task, Runnable decorated) implements Runnable {

		@Override
		public void run() {
			this.decorated.run();
		}

	}

}
