package io.github.delayqueue.listener;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

import io.github.delayqueue.internal.store.JobClaims;
import io.github.delayqueue.internal.store.JobClaims.ClaimedJob;
import io.github.delayqueue.internal.support.JobEventListener;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Acknowledges a container's finished deliveries, many in one round trip when they come
 * fast. The worker that finds no acknowledgement in flight sends its own at once, so a
 * lone job waits for nothing; acknowledgements that arrive meanwhile queue up and go
 * together in the next call, sent by whichever worker is flushing. Under load this turns
 * one script call per job into one per batch, which is what bounded the drain rate.
 * <p>
 * A worker that queued its acknowledgement returns without waiting for it: its handler is
 * done, so its slot is free. The job stays RUNNING in Redis until the batch lands, and a
 * crash before then delivers it again when its time to run elapses, as a crash between a
 * handler's return and a lone acknowledgement always did.
 *
 * @author delayqueue contributors
 */
final class BatchingAcknowledger {

	private static final Log logger = LogFactory.getLog(BatchingAcknowledger.class);

	private final Acknowledgements claims;

	private final JobEventListener events;

	private final Queue<Finished> queue = new ConcurrentLinkedQueue<>();

	private final AtomicBoolean flushing = new AtomicBoolean();

	BatchingAcknowledger(Acknowledgements claims, JobEventListener events) {
		this.claims = claims;
		this.events = events;
	}

	/**
	 * Acknowledge a delivery whose handler returned, now or with the batch in flight.
	 * @param job the delivery
	 * @param runTime how long the handler ran
	 * @param ttr the delivery's time to run, for the message when the ack is fenced
	 * @param deadline the delivery's time-to-run deadline in epoch ms by the Redis clock,
	 * which tells an acknowledgement sent again after a lost reply from a fenced one
	 */
	void acknowledge(ClaimedJob job, Duration runTime, Duration ttr, long deadline) {
		this.queue.add(new Finished(job, runTime, ttr, deadline));
		// Whoever wins the flag drains the queue; a worker that loses returns
		// at once. The queue is checked again after the flag is released, so
		// that an acknowledgement queued while the last batch was being sent
		// is never left behind.
		while (!this.queue.isEmpty() && this.flushing.compareAndSet(false, true)) {
			try {
				flushQueued();
			}
			finally {
				this.flushing.set(false);
			}
		}
	}

	private void flushQueued() {
		List<Finished> batch = new ArrayList<>();
		Finished next;
		while (batch.size() < JobClaims.MAX_ACK_BATCH && (next = this.queue.poll()) != null) {
			batch.add(next);
		}
		Map<String, List<Finished>> byQueue = new LinkedHashMap<>();
		for (Finished finished : batch) {
			byQueue.computeIfAbsent(finished.job().queue(), (queue) -> new ArrayList<>()).add(finished);
		}
		byQueue.forEach(this::send);
	}

	private void send(String queue, List<Finished> batch) {
		String topic = batch.get(0).job().topic();
		boolean[] acknowledged;
		try {
			acknowledged = this.claims.ack(queue, batch.stream().map(Finished::job).toList(),
					batch.stream().mapToLong(Finished::deadline).toArray());
		}
		catch (RuntimeException ex) {
			logger.error("Acknowledging jobs " + batch.stream().map((finished) -> finished.job().id()).toList()
					+ " of topic '" + topic + "' failed; they will be delivered again when their time to run elapses",
					ex);
			return;
		}
		for (int i = 0; i < acknowledged.length; i++) {
			Finished finished = batch.get(i);
			if (acknowledged[i]) {
				this.events.jobCompleted(topic, finished.runTime());
			}
			else {
				logger
					.info("Job '" + finished.job().id() + "' of topic '" + topic + "' finished after its time to run ("
							+ finished.ttr() + ") elapsed; it was delivered again, so this acknowledgement is ignored");
			}
		}
	}

	private record Finished(ClaimedJob job, Duration runTime, Duration ttr, long deadline) {

	}

	/**
	 * Sends acknowledgements to Redis; {@link JobClaims#ack(String, List, long[])} does.
	 */
	@FunctionalInterface
	interface Acknowledgements {

		/**
		 * Acknowledge deliveries of one queue.
		 * @param queue the queue of every delivery
		 * @param jobs the deliveries, at most {@link JobClaims#MAX_ACK_BATCH}
		 * @param deadlines each delivery's time-to-run deadline in epoch ms by the Redis
		 * clock
		 * @return for each delivery, in order, {@code false} if it had expired
		 */
		boolean[] ack(String queue, List<ClaimedJob> jobs, long[] deadlines);

	}

}
