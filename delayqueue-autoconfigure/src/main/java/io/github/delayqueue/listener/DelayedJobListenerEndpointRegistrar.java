package io.github.delayqueue.listener;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanInitializationException;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.core.annotation.AnnotationAwareOrderComparator;

/**
 * Takes the endpoints that a {@link DelayedJobListenerConfigurer} registers; they are
 * added to the {@link DelayedJobListenerEndpointRegistry} once every configurer was
 * called, and start with the application.
 *
 * @author delayqueue contributors
 */
public final class DelayedJobListenerEndpointRegistrar {

	private final String source;

	private final List<Registration> registrations = new ArrayList<>();

	private DelayedJobListenerEndpointRegistrar(String source) {
		this.source = source;
	}

	/**
	 * Register a listener run by a container of the default factory.
	 * @param endpoint the listener
	 */
	public void registerEndpoint(DelayedJobListenerEndpoint endpoint) {
		add(endpoint, null);
	}

	/**
	 * Register a listener run by a container of a factory of the application's.
	 * @param endpoint the listener
	 * @param containerFactory creates its container
	 */
	public void registerEndpoint(DelayedJobListenerEndpoint endpoint,
			DelayedJobListenerContainerFactory containerFactory) {
		if (containerFactory == null) {
			throw new IllegalArgumentException("Listener '" + endpoint.id() + "' is registered with no container "
					+ "factory; use registerEndpoint(endpoint) for the default one");
		}
		add(endpoint, containerFactory);
	}

	private void add(DelayedJobListenerEndpoint endpoint, @Nullable DelayedJobListenerContainerFactory factory) {
		if (endpoint == null) {
			throw new IllegalArgumentException("A listener endpoint must not be null");
		}
		this.registrations
			.add(new Registration(endpoint, factory, "Listener '" + endpoint.id() + "' registered by " + this.source));
	}

	/**
	 * Call every {@link DelayedJobListenerConfigurer} bean, in their order.
	 * @param beanFactory holds the configurers
	 * @return what they registered
	 * @throws BeanInitializationException naming the configurer whose registration failed
	 */
	static List<Registration> fromConfigurers(ListableBeanFactory beanFactory) {
		List<Map.Entry<String, DelayedJobListenerConfigurer>> configurers = new ArrayList<>(
				beanFactory.getBeansOfType(DelayedJobListenerConfigurer.class).entrySet());
		configurers.sort(Map.Entry.comparingByValue(AnnotationAwareOrderComparator.INSTANCE));
		List<Registration> registrations = new ArrayList<>();
		for (Map.Entry<String, DelayedJobListenerConfigurer> configurer : configurers) {
			String source = "DelayedJobListenerConfigurer bean '" + configurer.getKey() + "'";
			DelayedJobListenerEndpointRegistrar registrar = new DelayedJobListenerEndpointRegistrar(source);
			try {
				configurer.getValue().configureDelayedJobListeners(registrar);
			}
			catch (IllegalArgumentException ex) {
				throw new BeanInitializationException(source + " registered a listener that cannot be served", ex);
			}
			registrations.addAll(registrar.registrations);
		}
		return registrations;
	}

	/**
	 * An endpoint, the factory of its container, and how to name it in an error.
	 *
	 * @param endpoint the listener
	 * @param factory creates its container, or {@code null} for the default factory
	 * @param where names the listener and where it comes from
	 */
	record Registration(DelayedJobListenerEndpoint endpoint, @Nullable DelayedJobListenerContainerFactory factory,
			String where) {

		/**
		 * Add the endpoint to a registry.
		 * @param registry the registry
		 * @throws BeanInitializationException naming the listener if its id is taken or
		 * its method cannot be served
		 */
		void registerIn(DelayedJobListenerEndpointRegistry registry) {
			try {
				registry.register(this.endpoint,
						(this.factory != null) ? this.factory : registry.getContainerFactory());
			}
			catch (IllegalStateException ex) {
				throw new BeanInitializationException(this.where + ": " + ex.getMessage());
			}
			catch (IllegalArgumentException ex) {
				throw new BeanInitializationException(this.where + " cannot be served: " + ex.getMessage());
			}
		}

	}

}
