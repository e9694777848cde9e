package io.github.delayqueue.reliability;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.IntFunction;

import io.github.delayqueue.core.DuplicateJobException;
import io.github.delayqueue.core.JobRequest;

/**
 * A steady stream of jobs, one every period, sent from a thread of its own while the test
 * injects faults. Every job has an id chosen here, so a send that failed (Redis down,
 * connection killed) is sent again with the same id: if the first try did reach Redis,
 * the second is refused as a duplicate, and either way the job counts as sent exactly
 * once. A job counts as sent only when Redis confirmed it.
 */
final class JobStream implements AutoCloseable {

	private final Consumer<JobRequest> sender;

	private final int count;

	private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor((task) -> {
		Thread thread = new Thread(task, "reliability-stream");
		thread.setDaemon(true);
		return thread;
	});

	private final Set<String> sent = ConcurrentHashMap.newKeySet();

	private final AtomicInteger next = new AtomicInteger();

	private final AtomicInteger failedSends = new AtomicInteger();

	private final AtomicInteger refusedAsDuplicates = new AtomicInteger();

	private final List<JobRequest> requests = new ArrayList<>();

	JobStream(Consumer<JobRequest> sender, int count, IntFunction<JobRequest> jobs) {
		this.sender = sender;
		this.count = count;
		for (int i = 0; i < count; i++) {
			this.requests.add(jobs.apply(i));
		}
	}

	/**
	 * Start sending, one job per period.
	 * @param periodMillis the period
	 * @return this stream
	 */
	JobStream start(long periodMillis) {
		this.executor.scheduleAtFixedRate(this::sendNext, 0, periodMillis, TimeUnit.MILLISECONDS);
		return this;
	}

	private void sendNext() {
		int index = this.next.get();
		if (index >= this.count) {
			this.executor.shutdown();
			return;
		}
		JobRequest request = this.requests.get(index);
		try {
			this.sender.accept(request);
		}
		catch (DuplicateJobException ex) {
			// An earlier try reached Redis although its reply was lost, or the client
			// sent the command again after a reconnect and the first copy had landed.
			this.refusedAsDuplicates.incrementAndGet();
		}
		catch (RuntimeException ex) {
			this.failedSends.incrementAndGet();
			return;
		}
		this.sent.add(request.id());
		this.next.incrementAndGet();
	}

	int sentCount() {
		return this.sent.size();
	}

	boolean finished() {
		return this.sent.size() == this.count;
	}

	Set<String> sentIds() {
		return Set.copyOf(this.sent);
	}

	int failedSends() {
		return this.failedSends.get();
	}

	int refusedAsDuplicates() {
		return this.refusedAsDuplicates.get();
	}

	/**
	 * Return the ids of the sent jobs whose payload matches.
	 * @param payload the payload
	 * @return the ids
	 */
	Set<String> idsOf(String payload) {
		Set<String> ids = new HashSet<>();
		for (JobRequest request : this.requests) {
			if (payload.equals(request.payload()) && this.sent.contains(request.id())) {
				ids.add(request.id());
			}
		}
		return ids;
	}

	@Override
	public void close() {
		this.executor.shutdownNow();
	}

}
