package io.github.delayqueue.listener;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.delayqueue.internal.support.PartitionsRetiredEvent;
import org.jspecify.annotations.Nullable;

import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.EventListener;

/**
 * Holds a {@link DelayedJobListenerContainer} for every registered listener (annotated
 * methods, endpoints of {@link DelayedJobListenerConfigurer} beans, and endpoints
 * registered here at run time) and runs them with the application context: started once
 * the context is ready, stopped first on shutdown, all at once so that the shutdown
 * timeout applies to them together, calling Spring's lifecycle back when the last one has
 * stopped. When this instance's scheduler retires partitions, the listeners of their
 * topics stop waiting on them at once.
 *
 * @author delayqueue contributors
 */
public class DelayedJobListenerEndpointRegistry implements SmartLifecycle {

	/**
	 * The lifecycle phase: after the scheduler on start, before it on stop.
	 */
	public static final int PHASE = Integer.MAX_VALUE - 1000;

	private final DelayedJobListenerContainerFactory containerFactory;

	private final Map<String, DelayedJobListenerContainer> containers = Collections
		.synchronizedMap(new LinkedHashMap<>());

	private volatile boolean running;

	/**
	 * Create a registry.
	 * @param containerFactory creates the containers of listeners that name no factory
	 */
	public DelayedJobListenerEndpointRegistry(DelayedJobListenerContainerFactory containerFactory) {
		this.containerFactory = containerFactory;
	}

	/**
	 * Register a listener, run by a container of the default factory, starting it at once
	 * if the registry runs.
	 * @param endpoint the listener
	 * @throws IllegalStateException if a listener with the same id exists
	 * @throws IllegalArgumentException if the endpoint's method cannot be served
	 */
	public void register(DelayedJobListenerEndpoint endpoint) {
		register(endpoint, this.containerFactory);
	}

	/**
	 * Register a listener, run by a container of the given factory, starting it at once
	 * if the registry runs.
	 * @param endpoint the listener
	 * @param containerFactory creates its container
	 * @throws IllegalStateException if a listener with the same id exists
	 * @throws IllegalArgumentException if the endpoint's method cannot be served
	 */
	public void register(DelayedJobListenerEndpoint endpoint, DelayedJobListenerContainerFactory containerFactory) {
		DelayedJobListenerContainer container = containerFactory.create(endpoint);
		synchronized (this.containers) {
			if (this.containers.containsKey(endpoint.id())) {
				throw new IllegalStateException("Another listener already has the id '" + endpoint.id() + "'");
			}
			this.containers.put(endpoint.id(), container);
		}
		if (this.running && container.isAutoStartup()) {
			container.start();
		}
	}

	/**
	 * Return the factory of the containers of listeners that name none.
	 * @return the default factory
	 */
	public DelayedJobListenerContainerFactory getContainerFactory() {
		return this.containerFactory;
	}

	/**
	 * Return every listener container.
	 * @return the containers
	 */
	public Collection<DelayedJobListenerContainer> getListenerContainers() {
		synchronized (this.containers) {
			return List.copyOf(this.containers.values());
		}
	}

	/**
	 * Return a listener container by its listener's id.
	 * @param id the id
	 * @return the container, or {@code null}
	 */
	public @Nullable DelayedJobListenerContainer getListenerContainer(String id) {
		return this.containers.get(id);
	}

	@Override
	public void start() {
		this.running = true;
		for (DelayedJobListenerContainer container : getListenerContainers()) {
			if (container.isAutoStartup()) {
				container.start();
			}
		}
	}

	/**
	 * Stop every listener, all at once, and wait until they have stopped.
	 */
	@Override
	public void stop() {
		CountDownLatch stopped = new CountDownLatch(1);
		stop(stopped::countDown);
		try {
			stopped.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * Stop every listener, all at once on threads of their own, and call back when the
	 * last one has stopped; returns at once, so that Spring's lifecycle processor bounds
	 * the wait by its shutdown phase timeout.
	 * @param callback called once every listener has stopped
	 */
	@Override
	public void stop(Runnable callback) {
		this.running = false;
		List<DelayedJobListenerContainer> running = getListenerContainers().stream()
			.filter(DelayedJobListenerContainer::isRunning)
			.toList();
		if (running.isEmpty()) {
			callback.run();
			return;
		}
		AtomicInteger left = new AtomicInteger(running.size());
		for (DelayedJobListenerContainer container : running) {
			container.stop(() -> {
				if (left.decrementAndGet() == 0) {
					callback.run();
				}
			});
		}
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	/**
	 * Have the running listeners of the retired partitions' topics read their queues
	 * again, so that their waiters on those partitions leave now rather than at their
	 * next periodic look.
	 * @param event the retirement
	 */
	@EventListener
	void partitionsRetired(PartitionsRetiredEvent event) {
		Set<String> topics = event.getTopics();
		for (DelayedJobListenerContainer container : getListenerContainers()) {
			if (container.getTopics().stream().anyMatch(topics::contains)) {
				container.refreshQueues();
			}
		}
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

}
