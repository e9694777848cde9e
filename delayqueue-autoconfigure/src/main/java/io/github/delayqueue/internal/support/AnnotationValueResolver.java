package io.github.delayqueue.internal.support;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.config.BeanExpressionContext;
import org.springframework.beans.factory.config.BeanExpressionResolver;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.util.StringUtils;

/**
 * Resolves the text attributes of the starter's annotations with the bean factory's own
 * resolvers, as Spring resolves {@code @Value}: {@code ${...}} placeholders, then, where
 * an attribute takes them, {@code #{...}} expressions, which may name beans and give
 * values of their own types. One place, so that {@code @DelayedJobListener} and
 * {@code @Recurring} read a listener's topics alike.
 *
 * @author delayqueue contributors
 */
public final class AnnotationValueResolver {

	private final @Nullable ConfigurableBeanFactory beanFactory;

	private final @Nullable BeanExpressionResolver resolver;

	private final @Nullable BeanExpressionContext context;

	/**
	 * Create a resolver.
	 * @param beanFactory the bean factory, or {@code null} to take every value as written
	 */
	public AnnotationValueResolver(@Nullable BeanFactory beanFactory) {
		this.beanFactory = (beanFactory instanceof ConfigurableBeanFactory configurable) ? configurable : null;
		this.resolver = (this.beanFactory != null) ? this.beanFactory.getBeanExpressionResolver() : null;
		this.context = (this.beanFactory != null) ? new BeanExpressionContext(this.beanFactory, null) : null;
	}

	/**
	 * Resolve the placeholders of an attribute.
	 * @param value the attribute as written
	 * @return the value with its placeholders resolved
	 */
	public String placeholders(String value) {
		if (this.beanFactory == null || value.isEmpty()) {
			return value;
		}
		String resolved = this.beanFactory.resolveEmbeddedValue(value);
		return (resolved != null) ? resolved : value;
	}

	/**
	 * Resolve the placeholders of an attribute, then evaluate its expressions.
	 * @param value the attribute as written
	 * @return what it gives, which need not be text
	 */
	public @Nullable Object evaluate(String value) {
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
	 * Evaluate topic attributes, each of which may give comma-separated names, an array
	 * or a collection of them.
	 * @param attributes the attributes as written
	 * @return the topic names, trimmed, blanks left out
	 * @throws IllegalArgumentException naming an attribute that gave something else,
	 * worded to follow the annotated method's name
	 */
	public List<String> topics(String[] attributes) {
		List<String> topics = new ArrayList<>();
		for (String attribute : attributes) {
			addTopics(topics, evaluate(attribute), attribute);
		}
		return topics;
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

}
