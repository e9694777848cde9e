package io.github.delayqueue.listener;

import java.time.Duration;
import java.util.List;

import io.github.delayqueue.internal.store.DelayQueueKeys;
import io.github.delayqueue.internal.store.JobClaims;
import io.github.delayqueue.internal.store.ReadyWait;
import io.github.delayqueue.internal.store.ReconnectBackoff;
import io.github.delayqueue.internal.store.RedisOutageLog;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Waits for ready jobs with blocking moves on a connection of its own, on the queues its
 * {@link QueueRotation} gives it in turn, and hands the ids to its container. It blocks
 * only while the container is idle, that is has a free worker and found nothing ready; an
 * id the container has no free worker for (another waiter brought one first) goes back to
 * the ready list at once, where another instance's waiter can take it. The server-side
 * timeout keeps every wait short; after any failure (connection killed, Redis restarted
 * or failed over) it drops the connection and opens a new one, backing off while Redis
 * stays away.
 *
 * @author delayqueue contributors
 */
final class ReadyJobWaiter implements Runnable {

	private static final Log logger = LogFactory.getLog(ReadyJobWaiter.class);

	private final QueueRotation rotation;

	private final JobClaims claims;

	private final Handoff handoff;

	private final TopicPauses pauses;

	private volatile @Nullable ReadyWait wait;

	private volatile boolean stopping;

	ReadyJobWaiter(QueueRotation rotation, JobClaims claims, Handoff handoff, TopicPauses pauses) {
		this.rotation = rotation;
		this.claims = claims;
		this.handoff = handoff;
		this.pauses = pauses;
	}

	@Override
	public void run() {
		int failures = 0;
		String queue = null;
		boolean left = false;
		try {
			while (this.handoff.awaitIdle()) {
				queue = this.rotation.next(queue, this.pauses::skips);
				if (queue == null) {
					left = true;
					return;
				}
				Duration slice = this.rotation.slice();
				Duration paused = this.pauses.remaining(queue);
				if (!paused.isZero()) {
					// A blocking move now would only bring an id the claim puts back.
					this.handoff.pause((paused.compareTo(slice) < 0) ? paused : slice);
					continue;
				}
				try {
					String id = readyWait().awaitReady(queue, slice);
					failures = 0;
					if (id != null && !this.handoff.offer(queue, id)) {
						this.claims.unclaim(queue, List.of(id));
					}
				}
				catch (RuntimeException ex) {
					closeWait();
					failures++;
					if (this.handoff.isRunning()) {
						RedisOutageLog.failed(logger, "The listener of topic '" + DelayQueueKeys.topicOf(queue) + "'",
								"wait for its jobs", failures, ex);
						this.handoff.pause(ReconnectBackoff.delay(failures));
					}
				}
			}
		}
		finally {
			if (!left) {
				this.rotation.leave(queue);
			}
			closeWait();
		}
	}

	private ReadyWait readyWait() {
		ReadyWait current = this.wait;
		if (current == null) {
			current = this.claims.openReadyWait();
			this.wait = current;
			// A stop that came while the connection opened found no wait to cancel.
			if (this.stopping) {
				current.cancel();
			}
		}
		return current;
	}

	/**
	 * End the current blocking wait now, and any later one at once, so that a stop does
	 * not wait for a wait's timeout. Nothing is moved by an ended wait.
	 */
	void stop() {
		this.stopping = true;
		ReadyWait current = this.wait;
		if (current != null) {
			current.cancel();
		}
	}

	private void closeWait() {
		ReadyWait current = this.wait;
		this.wait = null;
		if (current != null) {
			current.close();
		}
	}

	/**
	 * Where waiters learn that their container is idle and leave the ids they moved.
	 */
	interface Handoff {

		/**
		 * Block until the container is idle.
		 * @return {@code false} when the container stopped
		 */
		boolean awaitIdle();

		/**
		 * Hand over an id moved into the claiming list.
		 * @param queue the queue
		 * @param id the id
		 * @return {@code false} if the container will not claim it: it stopped, or has no
		 * free worker for it
		 */
		boolean offer(String queue, String id);

		/**
		 * Tell whether the container still runs.
		 * @return {@code true} while running
		 */
		boolean isRunning();

		/**
		 * Wait a while, returning early when the container stops.
		 * @param duration how long
		 */
		void pause(Duration duration);

	}

}
