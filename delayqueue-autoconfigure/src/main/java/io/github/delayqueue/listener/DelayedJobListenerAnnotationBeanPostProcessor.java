package io.github.delayqueue.listener;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayedJobErrorHandler;
import io.github.delayqueue.core.JobConstraints;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.aop.support.AopUtils;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.BeanInitializationException;
import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.StringUtils;

/**
 * Finds {@link DelayedJobListener} methods on every bean, resolves their placeholders,
 * checks them, and registers each as an endpoint in the
 * {@link DelayedJobListenerEndpointRegistry} once every singleton is instantiated (at
 * once for beans created later). A method that cannot be served fails start-up with a
 * message naming it, when its bean is created.
 *
 * @author delayqueue contributors
 */
public class DelayedJobListenerAnnotationBeanPostProcessor
		implements BeanPostProcessor, BeanFactoryAware, SmartInitializingSingleton {

	private final ObjectProvider<DelayedJobListenerEndpointRegistry> registry;

	private final ObjectProvider<JsonMapper> jsonMapper;

	private final Set<Class<?>> withoutListeners = ConcurrentHashMap.newKeySet();

	private @Nullable ConfigurableBeanFactory beanFactory;

	private final Object endpointsMonitor = new Object();

	// Endpoints found before the singletons were all instantiated, registered then.
	private final List<DelayedJobListenerEndpoint> pending = new ArrayList<>();

	// Every id given out, so that duplicates fail naming their method.
	private final Set<String> ids = new HashSet<>();

	private boolean singletonsInstantiated;

	/**
	 * Create a post-processor.
	 * @param registry where endpoints are registered, looked up when first needed
	 * @param jsonMapper converts payloads, looked up when first needed
	 */
	public DelayedJobListenerAnnotationBeanPostProcessor(ObjectProvider<DelayedJobListenerEndpointRegistry> registry,
			ObjectProvider<JsonMapper> jsonMapper) {
		this.registry = registry;
		this.jsonMapper = jsonMapper;
	}

	@Override
	public void setBeanFactory(BeanFactory beanFactory) {
		if (beanFactory instanceof ConfigurableBeanFactory configurable) {
			this.beanFactory = configurable;
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
		List<String> topics = new ArrayList<>();
		for (String topic : annotation.topics()) {
			for (String resolved : StringUtils.commaDelimitedListToStringArray(resolve(topic))) {
				if (!resolved.isBlank()) {
					topics.add(resolved.trim());
				}
			}
		}
		if (topics.isEmpty()) {
			throw new BeanInitializationException(where + " names no topic; set value or topics");
		}
		for (String topic : topics) {
			if (!JobConstraints.isValidTopic(topic)) {
				throw new BeanInitializationException(where + " names an invalid topic '" + topic
						+ "': use 1 to 128 characters of A-Z a-z 0-9 . _ -, starting with a letter or digit");
			}
		}
		if (topics.size() != Set.copyOf(topics).size()) {
			throw new BeanInitializationException(where + " names a topic twice: " + topics);
		}
		Integer concurrency = null;
		String concurrencyText = resolve(annotation.concurrency());
		if (StringUtils.hasText(concurrencyText)) {
			try {
				concurrency = Integer.valueOf(concurrencyText.trim());
			}
			catch (NumberFormatException ex) {
				concurrency = 0;
			}
			if (concurrency < 1) {
				throw new BeanInitializationException(
						where + " has concurrency '" + concurrencyText + "'; it must be a whole number of at least 1");
			}
		}
		ListenerMethodAdapter adapter;
		try {
			adapter = ListenerMethodAdapter.of(bean, method,
					this.jsonMapper.getIfAvailable(() -> JsonMapper.builder().build()));
		}
		catch (IllegalArgumentException ex) {
			throw new BeanInitializationException(where + " cannot be served: " + ex.getMessage());
		}
		String autoStartupText = resolve(annotation.autoStartup()).trim();
		if (!autoStartupText.equalsIgnoreCase("true") && !autoStartupText.equalsIgnoreCase("false")) {
			throw new BeanInitializationException(
					where + " has autoStartup '" + autoStartupText + "'; it must be 'true' or 'false'");
		}
		boolean autoStartup = Boolean.parseBoolean(autoStartupText);
		DelayedJobErrorHandler errorHandler = errorHandler(resolve(annotation.errorHandler()).trim(), where);
		String id = resolve(annotation.id());
		synchronized (this.endpointsMonitor) {
			if (!StringUtils.hasText(id)) {
				id = defaultId(method);
			}
			else if (!this.ids.add(id)) {
				throw new BeanInitializationException(
						where + ": another @DelayedJobListener already has the id '" + id + "'");
			}
			DelayedJobListenerEndpoint endpoint = new DelayedJobListenerEndpoint(id, topics, concurrency, autoStartup,
					adapter, errorHandler);
			if (this.singletonsInstantiated) {
				register(endpoint, where);
			}
			else {
				this.pending.add(endpoint);
			}
		}
	}

	private @Nullable DelayedJobErrorHandler errorHandler(String beanName, String where) {
		if (beanName.isEmpty()) {
			return null;
		}
		if (this.beanFactory == null) {
			throw new BeanInitializationException(
					where + " names error handler '" + beanName + "', but no bean factory is there to look it up in");
		}
		try {
			return this.beanFactory.getBean(beanName, DelayedJobErrorHandler.class);
		}
		catch (NoSuchBeanDefinitionException ex) {
			// As for every other culprit, the message alone names it.
			throw new BeanInitializationException(
					where + " names error handler '" + beanName + "': " + ex.getMessage());
		}
	}

	@Override
	public void afterSingletonsInstantiated() {
		List<DelayedJobListenerEndpoint> endpoints;
		synchronized (this.endpointsMonitor) {
			this.singletonsInstantiated = true;
			endpoints = List.copyOf(this.pending);
			this.pending.clear();
		}
		endpoints.forEach((endpoint) -> register(endpoint, "@DelayedJobListener method " + endpoint.method()));
	}

	private void register(DelayedJobListenerEndpoint endpoint, String where) {
		try {
			this.registry.getObject().register(endpoint);
		}
		catch (IllegalStateException ex) {
			throw new BeanInitializationException(where + ": " + ex.getMessage());
		}
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

	private String resolve(String value) {
		if (this.beanFactory == null || value.isEmpty()) {
			return value;
		}
		String resolved = this.beanFactory.resolveEmbeddedValue(value);
		return (resolved != null) ? resolved : value;
	}

}
