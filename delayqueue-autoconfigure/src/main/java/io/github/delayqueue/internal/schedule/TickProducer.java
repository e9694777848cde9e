package io.github.delayqueue.internal.schedule;

import java.util.ArrayList;
import java.util.List;

import io.github.delayqueue.core.RecurringSchedule.Misfire;

/**
 * Decides the due ticks of every schedule this instance knows, in one round trip however
 * many fall due at once, and applies the replies: the next ticks, the ticks another
 * instance decided first, schedules paused or changed elsewhere.
 *
 * @author delayqueue contributors
 */
final class TickProducer {

	private final ScheduleStore store;

	private final ScheduleCatalog catalog;

	private final RedisClock clock;

	private final List<ScheduleTickListener> listeners;

	private final MisfireLog misfireLog = new MisfireLog();

	TickProducer(ScheduleStore store, ScheduleCatalog catalog, RedisClock clock, List<ScheduleTickListener> listeners) {
		this.store = store;
		this.catalog = catalog;
		this.clock = clock;
		this.listeners = List.copyOf(listeners);
	}

	/**
	 * Decide the ticks that fell due by the estimated Redis time.
	 * @return what the loop is to do next
	 */
	Next produceDue() {
		long now = this.clock.now();
		List<ScheduleCatalog.Entry> due = this.catalog.dueBy(now);
		if (due.isEmpty()) {
			return Next.SLEEP;
		}
		List<ScheduleStore.TickRequest> requests = new ArrayList<>(due.size());
		for (ScheduleCatalog.Entry entry : due) {
			ScheduleDefinition definition = entry.definition();
			int keep = (definition.misfire() == Misfire.FIRE_ALL) ? definition.catchUpLimit() : 1;
			requests.add(new ScheduleStore.TickRequest(definition, entry.next(),
					TickWindow.after(definition.ticks(), entry.next(), now, keep)));
		}
		Next next = Next.SLEEP;
		for (ScheduleStore.Produced produced : this.store.produce(requests)) {
			for (ScheduleStore.Decision decision : produced.decisions()) {
				next = next.or(apply(decision, produced.now()));
			}
		}
		return next;
	}

	private Next apply(ScheduleStore.Decision decision, long now) {
		ScheduleDefinition definition = decision.definition();
		ScheduleCatalog.Entry entry = this.catalog.entry(definition.id());
		switch (decision.status()) {
			case "done" -> {
				entry.next(decision.next());
				this.misfireLog.decided(decision, now);
				if (decision.produced() + decision.skipped() + decision.missed() > 0) {
					for (ScheduleTickListener listener : this.listeners) {
						listener.ticksDecided(definition.id(), definition.topic(), decision.produced(),
								decision.skipped(), decision.missed(), now - decision.last());
					}
				}
				return Next.SLEEP;
			}
			case "early", "stale" -> {
				entry.next(decision.next());
				return Next.SLEEP;
			}
			case "paused" -> {
				entry.paused();
				return Next.SLEEP;
			}
			case "clock" -> {
				return Next.AGAIN;
			}
			default -> {
				// changed or absent: the definition in Redis is not the one known here.
				return Next.RELOAD;
			}
		}
	}

	/**
	 * What the loop is to do after a round.
	 */
	enum Next {

		/**
		 * Sleep until the next tick.
		 */
		SLEEP,

		/**
		 * Decide again at once: a call was built on a bad estimate of the Redis clock,
		 * which the reply corrected.
		 */
		AGAIN,

		/**
		 * Read every schedule again, then decide again.
		 */
		RELOAD;

		Next or(Next other) {
			return (other.ordinal() > ordinal()) ? other : this;
		}

	}

}
