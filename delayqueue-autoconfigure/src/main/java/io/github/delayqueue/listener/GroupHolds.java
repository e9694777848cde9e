package io.github.delayqueue.listener;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * What one container knows of the groups at their bounds (see {@link TopicLimitGate}): a
 * group whose own rate limit or concurrency refused a delivery is passed over by this
 * container's claims for as long as its limits say, so that the other groups of its topic
 * take their turns meanwhile and its own jobs keep their order. Like a topic's hold, this
 * is only what this instance learnt from its own admissions: another instance learns the
 * same from its first refused delivery.
 *
 * @author delayqueue contributors
 */
final class GroupHolds {

	// Per topic, per group: until when (System.nanoTime scale), and whether only a permit
	// given back ends the hold early.
	private final Map<String, Map<String, Hold>> holds = new ConcurrentHashMap<>();

	private final LongSupplier nanoClock;

	GroupHolds(LongSupplier nanoClock) {
		this.nanoClock = nanoClock;
	}

	/**
	 * A group's limits refused a delivery: pass it over for a while.
	 * @param topic the topic
	 * @param group the group
	 * @param duration how long
	 * @param untilPermit whether a permit of the group given back here ends the hold
	 * early
	 */
	void hold(String topic, String group, Duration duration, boolean untilPermit) {
		long until = this.nanoClock.getAsLong() + duration.toNanos();
		this.holds.computeIfAbsent(topic, (t) -> new ConcurrentHashMap<>())
			.merge(group, new Hold(until, untilPermit), (a, b) -> (a.until() - b.until() < 0) ? b
					: new Hold(a.until(), a.untilPermit() || b.untilPermit()));
	}

	/**
	 * A permit of a group came back here: end the group's hold if it waited for one.
	 * @param topic the topic
	 * @param group the group
	 * @return {@code true} if a hold ended
	 */
	boolean permitBack(String topic, String group) {
		Map<String, Hold> groups = this.holds.get(topic);
		if (groups == null) {
			return false;
		}
		Hold hold = groups.get(group);
		return hold != null && hold.untilPermit() && groups.remove(group, hold);
	}

	/**
	 * Return the groups of a topic to pass over now.
	 * @param topic the topic
	 * @return the groups, none when no group of it is held
	 */
	List<String> held(String topic) {
		Map<String, Hold> groups = this.holds.get(topic);
		if (groups == null || groups.isEmpty()) {
			return List.of();
		}
		long now = this.nanoClock.getAsLong();
		List<String> held = new ArrayList<>(groups.size());
		groups.forEach((group, hold) -> {
			if (hold.until() - now > 0) {
				held.add(group);
			}
			else {
				groups.remove(group, hold);
			}
		});
		return held;
	}

	/**
	 * Return how long until the first hold of any group ends.
	 * @return the time left, zero when no group is held
	 */
	Duration shortestLeft() {
		if (this.holds.isEmpty()) {
			return Duration.ZERO;
		}
		long now = this.nanoClock.getAsLong();
		long shortest = Long.MAX_VALUE;
		for (Map<String, Hold> groups : this.holds.values()) {
			for (Hold hold : groups.values()) {
				long left = hold.until() - now;
				if (left > 0 && left < shortest) {
					shortest = left;
				}
			}
		}
		return (shortest == Long.MAX_VALUE) ? Duration.ZERO : Duration.ofNanos(shortest);
	}

	private record Hold(long until, boolean untilPermit) {

	}

}
