package io.github.delayqueue.listener;

import java.util.ArrayList;
import java.util.List;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayedJobErrorHandler;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.beans.factory.config.BeanExpressionContext;
import org.springframework.beans.factory.config.BeanExpressionResolver;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.util.StringUtils;

/**
 * Resolves the attributes of a {@link DelayedJobListener}: first the {@code ${...}}
 * placeholders, then the {@code #{...}} expressions, with the bean factory's own
 * resolver, so that an expression may name beans ({@code #{@settings.topic}}) and give
 * values of their own types: topics as an array or a collection, a concurrency as a
 * number, autoStartup as a boolean, a container factory or an error handler as the bean
 * itself (or its bean name, looked up here).
 *
 * @author delayqueue contributors
 */
final class ListenerAttributes {

	private final @Nullable ConfigurableBeanFactory beanFactory;

	private final @Nullable BeanExpressionResolver resolver;

	private final @Nullable BeanExpressionContext context;

	ListenerAttributes(@Nullable BeanFactory beanFactory) {
		this.beanFactory = (beanFactory instanceof ConfigurableBeanFactory configurable) ? configurable : null;
		this.resolver = (this.beanFactory != null) ? this.beanFactory.getBeanExpressionResolver() : null;
		this.context = (this.beanFactory != null) ? new BeanExpressionContext(this.beanFactory, null) : null;
	}

	/**
	 * Resolve an annotation's attributes.
	 * @param annotation the annotation
	 * @return the values
	 * @throws IllegalArgumentException naming an attribute whose value cannot serve,
	 * worded to follow the method's name
	 */
	Resolved resolve(DelayedJobListener annotation) {
		List<String> topics = new ArrayList<>();
		for (String topic : annotation.topics()) {
			addTopics(topics, evaluate(topic), topic);
		}
		Object id = evaluate(annotation.id());
		return new Resolved(topics, (id != null) ? id.toString().trim() : "", concurrency(annotation.concurrency()),
				autoStartup(annotation.autoStartup()),
				bean(annotation.containerFactory(), DelayedJobListenerContainerFactory.class, "containerFactory"),
				bean(annotation.errorHandler(), DelayedJobErrorHandler.class, "error handler"));
	}

	private static void addTopics(List<String> topics, @Nullable Object value, String attribute) {
		if (value == null) {
			return;
		}
		if (value instanceof String text) {
			for (String topic : StringUtils.commaDelimitedListToStringArray(text)) {
				if (!topic.isBlank()) {
					topics.add(topic.trim());
				}
			}
		}
		else if (value instanceof Object[] array) {
			for (Object element : array) {
				addTopics(topics, element, attribute);
			}
		}
		else if (value instanceof Iterable<?> iterable) {
			for (Object element : iterable) {
				addTopics(topics, element, attribute);
			}
		}
		else {
			throw new IllegalArgumentException(
					"has topics '" + attribute + "' that gave a " + value.getClass().getName()
							+ "; an expression must give text, an array or a collection of topic names");
		}
	}

	private @Nullable Integer concurrency(String attribute) {
		Object value = evaluate(attribute);
		String text = (value != null) ? value.toString().trim() : "";
		if (text.isEmpty()) {
			return null;
		}
		int concurrency;
		try {
			concurrency = Integer.parseInt(text);
		}
		catch (NumberFormatException ex) {
			concurrency = 0;
		}
		if (concurrency < 1) {
			throw new IllegalArgumentException(
					"has concurrency '" + text + "'; it must be a whole number of at least 1");
		}
		return concurrency;
	}

	/**
	 * Resolve an attribute that gives a bean, or the name of one to look up.
	 * @param attribute the attribute's value
	 * @param type the bean's type
	 * @param what the attribute, as messages name it
	 * @return the bean, or {@code null} if the attribute is empty
	 */
	private <T> @Nullable T bean(String attribute, Class<T> type, String what) {
		Object value = evaluate(attribute);
		if (value == null || type.isInstance(value)) {
			return type.cast(value);
		}
		String name = value.toString().trim();
		if (name.isEmpty()) {
			return null;
		}
		if (this.beanFactory == null) {
			throw new IllegalArgumentException(
					"names " + what + " '" + name + "', but there is no bean factory to look it up in");
		}
		try {
			return this.beanFactory.getBean(name, type);
		}
		catch (NoSuchBeanDefinitionException ex) {
			throw new IllegalArgumentException("names " + what + " '" + name + "', but there is no "
					+ type.getSimpleName() + " bean of that name");
		}
	}

	private boolean autoStartup(String attribute) {
		Object value = evaluate(attribute);
		if (value instanceof Boolean flag) {
			return flag;
		}
		String text = (value != null) ? value.toString().trim() : "";
		if (!text.equalsIgnoreCase("true") && !text.equalsIgnoreCase("false")) {
			throw new IllegalArgumentException("has autoStartup '" + text + "'; it must be 'true' or 'false'");
		}
		return Boolean.parseBoolean(text);
	}

	private @Nullable Object evaluate(String value) {
		if (this.beanFactory == null || value.isEmpty()) {
			return value;
		}
		String resolved = this.beanFactory.resolveEmbeddedValue(value);
		if (resolved == null || this.resolver == null || this.context == null) {
			return resolved;
		}
		return this.resolver.evaluate(resolved, this.context);
	}

	/**
	 * An annotation's attributes, resolved.
	 *
	 * @param topics the topics, maybe none
	 * @param id the id, empty for the default
	 * @param concurrency the concurrency, or {@code null} for the first topic's
	 * @param autoStartup whether the listener starts with the application
	 * @param containerFactory the factory, or {@code null} for the default
	 * @param errorHandler the error handler, or {@code null} for the factory's
	 */
	record Resolved(List<String> topics, String id, @Nullable Integer concurrency, boolean autoStartup,
			@Nullable DelayedJobListenerContainerFactory containerFactory,
			@Nullable DelayedJobErrorHandler errorHandler) {

	}

}
