package io.github.delayqueue.autoconfigure;

import java.util.List;

import io.github.delayqueue.internal.support.DueTimeListener;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * Passes the template's new due times to every {@link DueTimeListener} bean. The beans
 * are looked up on each call only while the context is still creating its singletons;
 * after that the list is fixed, because looking them up cost about a quarter of a send's
 * CPU.
 *
 * @author delayqueue contributors
 */
final class DueTimeListenerRelay implements SmartInitializingSingleton {

	private final ObjectProvider<DueTimeListener> listeners;

	private volatile @Nullable List<DueTimeListener> resolved;

	DueTimeListenerRelay(ObjectProvider<DueTimeListener> listeners) {
		this.listeners = listeners;
	}

	@Override
	public void afterSingletonsInstantiated() {
		this.resolved = this.listeners.orderedStream().toList();
	}

	/**
	 * Return a listener that passes both kinds of due times on, each as it came: not a
	 * bean, which would be among the beans it passes them to.
	 * @return the listener
	 */
	DueTimeListener asListener() {
		return new DueTimeListener() {

			@Override
			public void jobScheduled(String topic, long dueAtMillis) {
				for (DueTimeListener listener : listeners()) {
					listener.jobScheduled(topic, dueAtMillis);
				}
			}

			@Override
			public void jobScheduledInQueue(String queue, long dueAtMillis) {
				for (DueTimeListener listener : listeners()) {
					listener.jobScheduledInQueue(queue, dueAtMillis);
				}
			}

		};
	}

	private List<DueTimeListener> listeners() {
		List<DueTimeListener> current = this.resolved;
		return (current != null) ? current : this.listeners.orderedStream().toList();
	}

}
