package io.github.delayqueue.samples.ordertimeout;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.springframework.stereotype.Component;

/**
 * Records how late jobs started (handler start minus due time) and reports percentiles.
 *
 * @author delayqueue contributors
 */
@Component
public class Lateness {

	private final List<Long> nanos = new ArrayList<>();

	/**
	 * Record one handler start.
	 * @param dueAt when the job was due
	 */
	public void record(Instant dueAt) {
		long late = Duration.between(dueAt, Instant.now()).toNanos();
		synchronized (this.nanos) {
			this.nanos.add(late);
		}
	}

	public int count() {
		synchronized (this.nanos) {
			return this.nanos.size();
		}
	}

	/**
	 * Return a percentile of the recorded lateness (nearest rank).
	 * @param percent the percentile, 0 to 100
	 * @return the lateness, zero when nothing was recorded
	 */
	public Duration percentile(double percent) {
		List<Long> sorted;
		synchronized (this.nanos) {
			sorted = new ArrayList<>(this.nanos);
		}
		if (sorted.isEmpty()) {
			return Duration.ZERO;
		}
		Collections.sort(sorted);
		int rank = (int) Math.ceil(percent / 100 * sorted.size());
		return Duration.ofNanos(sorted.get(Math.max(0, rank - 1)));
	}

}
