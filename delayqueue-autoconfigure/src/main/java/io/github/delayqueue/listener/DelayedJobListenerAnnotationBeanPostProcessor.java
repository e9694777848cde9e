package io.github.delayqueue.listener;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.listener.DelayedJobListenerEndpointRegistrar.Registration;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.support.AopUtils;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.BeanInitializationException;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.StringUtils;

/**
 * Finds {@link DelayedJobListener} methods on every bean, resolves their placeholders and
 * expressions, checks them, and registers each as an endpoint in the
 * {@link DelayedJobListenerEndpointRegistry} once every singleton is instantiated (at
 * once for beans created later), together with the endpoints of every
 * {@link DelayedJobListenerConfigurer} bean. A listener that cannot be served fails
 * start-up with a message naming its method, or its id for one registered in code.
 *
 * @author delayqueue contributors
 */
public class DelayedJobListenerAnnotationBeanPostProcessor
		implements BeanPostProcessor, BeanFactoryAware, SmartInitializingSingleton {

	private final ObjectProvider<DelayedJobListenerEndpointRegistry> registry;

	private final Set<Class<?>> withoutListeners = ConcurrentHashMap.newKeySet();

	private ListenerAttributes attributes = new ListenerAttributes(null);

	private @Nullable ListableBeanFactory beanFactory;

	private final Object endpointsMonitor = new Object();

	// Endpoints found before the singletons were all instantiated, registered then.
	private final List<Registration> pending = new ArrayList<>();

	// Every id given out, so that duplicates fail naming their method.
	private final Set<String> ids = new HashSet<>();

	private boolean singletonsInstantiated;

	/**
	 * Create a post-processor.
	 * @param registry where endpoints are registered, looked up when first needed
	 */
	public DelayedJobListenerAnnotationBeanPostProcessor(ObjectProvider<DelayedJobListenerEndpointRegistry> registry) {
		this.registry = registry;
	}

	@Override
	public void setBeanFactory(BeanFactory beanFactory) {
		this.attributes = new ListenerAttributes(beanFactory);
		if (beanFactory instanceof ListableBeanFactory listable) {
			this.beanFactory = listable;
		}
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) throws BeansException {
		Class<?> type = AopUtils.getTargetClass(bean);
		if (this.withoutListeners.contains(type)) {
			return bean;
		}
		Map<Method, DelayedJobListener> methods = MethodIntrospector.selectMethods(type,
				(MethodIntrospector.MetadataLookup<DelayedJobListener>) (method) -> AnnotatedElementUtils
					.findMergedAnnotation(method, DelayedJobListener.class));
		if (methods.isEmpty()) {
			this.withoutListeners.add(type);
			return bean;
		}
		methods.forEach((method, annotation) -> register(bean, method, annotation));
		return bean;
	}

	private void register(Object bean, Method method, DelayedJobListener annotation) {
		String where = "@DelayedJobListener method " + method.toGenericString();
		ListenerAttributes.Resolved resolved;
		try {
			resolved = this.attributes.resolve(annotation);
		}
		catch (IllegalArgumentException ex) {
			throw new BeanInitializationException(where + " " + ex.getMessage());
		}
		if (resolved.topics().isEmpty()) {
			throw new BeanInitializationException(where + " names no topic; set value or topics");
		}
		synchronized (this.endpointsMonitor) {
			String id = resolved.id();
			if (!StringUtils.hasText(id)) {
				id = defaultId(method);
			}
			else if (!this.ids.add(id)) {
				throw new BeanInitializationException(
						where + ": another @DelayedJobListener already has the id '" + id + "'");
			}
			DelayedJobListenerEndpoint.Builder builder = DelayedJobListenerEndpoint.builder(id)
				.topics(resolved.topics())
				.autoStartup(resolved.autoStartup())
				.errorHandler(resolved.errorHandler())
				.method(bean, method);
			if (resolved.concurrency() != null) {
				builder.concurrency(resolved.concurrency());
			}
			String problem = builder.problem();
			if (problem != null) {
				throw new BeanInitializationException(where + " " + problem);
			}
			Registration registration = new Registration(builder.build(), resolved.containerFactory(), where);
			if (this.singletonsInstantiated) {
				registration.registerIn(this.registry.getObject());
			}
			else {
				this.pending.add(registration);
			}
		}
	}

	@Override
	public void afterSingletonsInstantiated() {
		List<Registration> registrations = new ArrayList<>();
		synchronized (this.endpointsMonitor) {
			this.singletonsInstantiated = true;
			registrations.addAll(this.pending);
			this.pending.clear();
		}
		if (this.beanFactory != null) {
			registrations.addAll(DelayedJobListenerEndpointRegistrar.fromConfigurers(this.beanFactory));
		}
		registrations.forEach((registration) -> registration.registerIn(this.registry.getObject()));
	}

	// The method's class and name, numbered from the second listener on that is declared
	// by the same method or one of its overloads (two beans of one class, say).
	private String defaultId(Method method) {
		String base = method.getDeclaringClass().getName() + "." + method.getName();
		String id = base;
		for (int n = 2; !this.ids.add(id); n++) {
			id = base + "#" + n;
		}
		return id;
	}

}
