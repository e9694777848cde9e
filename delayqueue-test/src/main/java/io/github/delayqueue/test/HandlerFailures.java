package io.github.delayqueue.test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

import io.github.delayqueue.internal.support.JobEventListener;

/**
 * Hears what the listeners' handlers threw during a test, per topic, in order.
 *
 * @author delayqueue contributors
 */
final class HandlerFailures implements JobEventListener {

	private final ConcurrentLinkedQueue<Failure> failures = new ConcurrentLinkedQueue<>();

	@Override
	public void jobFailed(String topic, Duration runTime, Throwable failure) {
		this.failures.add(new Failure(topic, failure));
	}

	List<Throwable> of(String topic) {
		return this.failures.stream().filter((failure) -> failure.topic().equals(topic)).map(Failure::thrown).toList();
	}

	void clear() {
		this.failures.clear();
	}

	private record Failure(String topic, Throwable thrown) {

	}

}
