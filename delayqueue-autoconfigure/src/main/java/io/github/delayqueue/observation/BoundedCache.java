package io.github.delayqueue.observation;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Remembers the values a convention derives from a few low-cardinality inputs (a topic, a
 * listener, an outcome), so that a send or a run does not build and sort the same keys
 * again: in an application with Actuator that was a third of what observing a send cost.
 * Low cardinality is what the keys promise; the bound keeps a misuse (a topic per job)
 * from growing memory, those values are then derived each time.
 *
 * @param <V> what is remembered
 * @author delayqueue contributors
 */
final class BoundedCache<V> {

	private static final int MAXIMUM_ENTRIES = 4096;

	private final Map<String, V> values = new ConcurrentHashMap<>();

	private final Function<String, V> derive;

	BoundedCache(Function<String, V> derive) {
		this.derive = derive;
	}

	V get(String key) {
		V value = this.values.get(key);
		if (value != null) {
			return value;
		}
		value = this.derive.apply(key);
		if (this.values.size() < MAXIMUM_ENTRIES) {
			this.values.putIfAbsent(key, value);
		}
		return value;
	}

}
