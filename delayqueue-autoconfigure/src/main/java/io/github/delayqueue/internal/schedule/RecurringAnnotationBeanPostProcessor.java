package io.github.delayqueue.internal.schedule;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.annotation.Recurring;
import io.github.delayqueue.internal.support.AnnotationValueResolver;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.BeanInitializationException;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.StringUtils;

/**
 * Finds {@link Recurring} methods on every bean, resolves their placeholders, checks them
 * and declares their schedules for the topics of their {@link DelayedJobListener}s, whose
 * topics and id are read as the listener reads them, expressions included. A method that
 * cannot be served fails start-up with a message naming it, when its bean is created.
 *
 * @author delayqueue contributors
 */
public class RecurringAnnotationBeanPostProcessor implements BeanPostProcessor, BeanFactoryAware {

	private final ObjectProvider<DeclaredSchedules> declared;

	private final ObjectProvider<JsonMapper> jsonMapper;

	private final Set<Class<?>> withoutSchedules = ConcurrentHashMap.newKeySet();

	private AnnotationValueResolver values = new AnnotationValueResolver(null);

	/**
	 * Create a post-processor.
	 * @param declared where schedules are declared, looked up when first needed
	 * @param jsonMapper writes payloads, looked up when first needed
	 */
	public RecurringAnnotationBeanPostProcessor(ObjectProvider<DeclaredSchedules> declared,
			ObjectProvider<JsonMapper> jsonMapper) {
		this.declared = declared;
		this.jsonMapper = jsonMapper;
	}

	@Override
	public void setBeanFactory(BeanFactory beanFactory) {
		this.values = new AnnotationValueResolver(beanFactory);
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		Class<?> type = AopUtils.getTargetClass(bean);
		if (this.withoutSchedules.contains(type)) {
			return bean;
		}
		Map<Method, Recurring> methods = MethodIntrospector.selectMethods(type,
				(MethodIntrospector.MetadataLookup<Recurring>) (method) -> AnnotatedElementUtils
					.findMergedAnnotation(method, Recurring.class));
		if (methods.isEmpty()) {
			this.withoutSchedules.add(type);
			return bean;
		}
		methods.forEach((method, recurring) -> declare(type, method, recurring));
		return bean;
	}

	private void declare(Class<?> type, Method method, Recurring recurring) {
		String where = "@Recurring method " + method.toGenericString();
		DelayedJobListener listener = AnnotatedElementUtils.findMergedAnnotation(method, DelayedJobListener.class);
		if (listener == null) {
			throw new BeanInitializationException(
					where + " has no @DelayedJobListener; a schedule's jobs go to the topic of its listener");
		}
		String topic = topic(where, recurring, listener);
		String id = resolve(recurring.id());
		if (!StringUtils.hasText(id)) {
			Object listenerId = this.values.evaluate(listener.id());
			id = (listenerId != null) ? listenerId.toString() : "";
		}
		if (!StringUtils.hasText(id)) {
			id = defaultId(type, method);
		}
		JsonMapper mapper = this.jsonMapper.getIfAvailable(() -> JsonMapper.builder().build());
		ScheduleChecks.Parts parts = new ScheduleChecks.Parts(id.trim(), topic, blankToNull(resolve(recurring.cron())),
				every(where, resolve(recurring.every())), blankToNull(resolve(recurring.zone())),
				payload(where, resolve(recurring.payload()), mapper), recurring.misfire(), recurring.catchUpLimit(),
				recurring.overlap(), enabled(where, resolve(recurring.enabled())));
		List<String> problems = new ArrayList<>();
		ScheduleDefinition definition = ScheduleChecks.check(parts, mapper, new ScheduleChecks.Problems() {

			@Override
			public void invalid(String field, @Nullable Object value, String reason) {
				problems.add(field + " '" + value + "': " + reason);
			}

			@Override
			public int count() {
				return problems.size();
			}

		});
		if (definition == null) {
			throw new BeanInitializationException(
					where + " declares an invalid schedule: " + String.join("; ", problems));
		}
		try {
			this.declared.getObject().add(definition, where);
		}
		catch (IllegalStateException ex) {
			throw new BeanInitializationException(ex.getMessage());
		}
	}

	private String topic(String where, Recurring recurring, DelayedJobListener listener) {
		String topic = resolve(recurring.topic());
		if (StringUtils.hasText(topic)) {
			return topic.trim();
		}
		List<String> topics;
		try {
			topics = this.values.topics(listener.topics());
		}
		catch (IllegalArgumentException ex) {
			throw new BeanInitializationException(where + " belongs to a listener that " + ex.getMessage());
		}
		if (topics.size() != 1) {
			throw new BeanInitializationException(where + " belongs to a listener of " + topics.size() + " topics "
					+ topics + "; set @Recurring(topic = ...) to choose the schedule's");
		}
		return topics.get(0);
	}

	// Class and method name, with what a schedule id cannot hold replaced.
	private static String defaultId(Class<?> type, Method method) {
		String id = (type.getSimpleName() + "." + method.getName()).replaceAll("[^A-Za-z0-9._-]", "-");
		return (id.length() > 128) ? id.substring(id.length() - 128) : id;
	}

	private static @Nullable Duration every(String where, String every) {
		if (every.isBlank()) {
			return null;
		}
		try {
			return DurationStyle.detectAndParse(every.trim());
		}
		catch (IllegalArgumentException ex) {
			throw new BeanInitializationException(
					where + " has every '" + every + "', which is no duration; use for example 5m or PT30S");
		}
	}

	private static Object payload(String where, String json, JsonMapper mapper) {
		try {
			return mapper.readTree(json);
		}
		catch (JacksonException ex) {
			throw new BeanInitializationException(where + " has a payload that is no JSON: " + ex.getOriginalMessage());
		}
	}

	private static boolean enabled(String where, String enabled) {
		if (!enabled.trim().equalsIgnoreCase("true") && !enabled.trim().equalsIgnoreCase("false")) {
			throw new BeanInitializationException(
					where + " has enabled '" + enabled + "'; it must be 'true' or 'false'");
		}
		return Boolean.parseBoolean(enabled.trim());
	}

	private static @Nullable String blankToNull(String value) {
		return value.isBlank() ? null : value.trim();
	}

	private String resolve(String value) {
		return this.values.placeholders(value);
	}

}
