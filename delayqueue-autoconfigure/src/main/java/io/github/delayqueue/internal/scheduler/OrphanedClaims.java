package io.github.delayqueue.internal.scheduler;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finds ids that a consumer moved out of a ready list but never claimed, because it died
 * between its blocking move and its claim, and hands them back to READY. A claim
 * completes within milliseconds of the move, so an id still in a claiming list a whole
 * check interval after it was first seen there is orphaned. Handing one back is safe even
 * if its consumer was merely slow: its claim then finds nothing to claim.
 *
 * @author delayqueue contributors
 */
final class OrphanedClaims {

	private final HousekeepingStore store;

	private final Map<String, List<String>> seenBefore = new HashMap<>();

	OrphanedClaims(HousekeepingStore store) {
		this.store = store;
	}

	/**
	 * Forget what was seen of a topic's claiming list.
	 * @param topic the topic
	 */
	void forget(String topic) {
		this.seenBefore.remove(topic);
	}

	/**
	 * Check a topic's claiming list.
	 * @param topic the topic
	 * @return how many orphaned ids were handed back
	 */
	long check(String topic) {
		List<String> now = this.store.claiming(topic);
		Set<String> stale = new HashSet<>(this.seenBefore.getOrDefault(topic, List.of()));
		stale.retainAll(now);
		long requeued = this.store.requeueOrphans(topic, new ArrayList<>(stale));
		List<String> remaining = new ArrayList<>(now);
		remaining.removeAll(stale);
		this.seenBefore.put(topic, remaining);
		return requeued;
	}

}
