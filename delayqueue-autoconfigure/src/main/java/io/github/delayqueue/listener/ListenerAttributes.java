package io.github.delayqueue.listener;

import java.util.List;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayedJobErrorHandler;
import io.github.delayqueue.internal.support.AnnotationValueResolver;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;

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

	private final AnnotationValueResolver values;

	ListenerAttributes(@Nullable BeanFactory beanFactory) {
		this.beanFactory = (beanFactory instanceof ConfigurableBeanFactory configurable) ? configurable : null;
		this.values = new AnnotationValueResolver(beanFactory);
	}

	/**
	 * Resolve an annotation's attributes.
	 * @param annotation the annotation
	 * @return the values
	 * @throws IllegalArgumentException naming an attribute whose value cannot serve,
	 * worded to follow the method's name
	 */
	Resolved resolve(DelayedJobListener annotation) {
		List<String> topics = this.values.topics(annotation.topics());
		Object id = evaluate(annotation.id());
		return new Resolved(topics, (id != null) ? id.toString().trim() : "", concurrency(annotation.concurrency()),
				autoStartup(annotation.autoStartup()),
				bean(annotation.containerFactory(), DelayedJobListenerContainerFactory.class, "containerFactory"),
				bean(annotation.errorHandler(), DelayedJobErrorHandler.class, "error handler"));
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
		return this.values.evaluate(value);
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
