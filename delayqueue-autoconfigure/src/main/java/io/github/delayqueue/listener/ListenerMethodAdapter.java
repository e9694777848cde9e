package io.github.delayqueue.listener;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.concurrent.CompletableFuture;

import io.github.delayqueue.core.DelayedJob;
import io.github.delayqueue.internal.store.JobRecord;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.aop.support.AopUtils;
import org.springframework.core.CoroutinesUtils;
import org.springframework.core.GenericTypeResolver;
import org.springframework.util.ReflectionUtils;

/**
 * Calls one listener method with a job: converts the payload from JSON to the type the
 * method declares (generic types included) and passes it, a {@link DelayedJob}, or both.
 * An asynchronous method's completion (see {@link AsyncReturn}) comes back as a future.
 *
 * @author delayqueue contributors
 */
final class ListenerMethodAdapter {

	private final Object bean;

	private final Method method;

	private final int payloadIndex;

	private final int jobIndex;

	private final @Nullable JavaType payloadType;

	private final JsonMapper jsonMapper;

	private final @Nullable AsyncReturn asyncReturn;

	private final boolean suspending;

	private ListenerMethodAdapter(Object bean, Method method, int payloadIndex, int jobIndex,
			@Nullable JavaType payloadType, JsonMapper jsonMapper, @Nullable AsyncReturn asyncReturn) {
		this.bean = bean;
		this.asyncReturn = asyncReturn;
		this.suspending = AsyncReturn.isSuspending(method);
		this.method = method;
		this.payloadIndex = payloadIndex;
		this.jobIndex = jobIndex;
		this.payloadType = payloadType;
		this.jsonMapper = jsonMapper;
		ReflectionUtils.makeAccessible(method);
	}

	/**
	 * Create an adapter, checking that the method can be served.
	 * @param bean the bean
	 * @param method the method, as declared on the bean's class
	 * @param jsonMapper converts payloads
	 * @return the adapter
	 * @throws IllegalArgumentException naming what is wrong with the method
	 */
	static ListenerMethodAdapter of(Object bean, Method method, JsonMapper jsonMapper) {
		return of(bean, method, jsonMapper, null);
	}

	/**
	 * Create an adapter that converts payloads to a given type rather than the one the
	 * method declares: a lambda's method declares none.
	 * @param bean the bean
	 * @param method the method, as declared on the bean's class
	 * @param jsonMapper converts payloads
	 * @param givenPayloadType the payload type, or {@code null} for the method's
	 * @return the adapter
	 * @throws IllegalArgumentException naming what is wrong with the method
	 */
	static ListenerMethodAdapter of(Object bean, Method method, JsonMapper jsonMapper,
			@Nullable Type givenPayloadType) {
		Method invocable = AopUtils.selectInvocableMethod(method, bean.getClass());
		AsyncReturn asyncReturn = AsyncReturn.of(method);
		Type[] parameters = method.getGenericParameterTypes();
		// A suspend function's last parameter is the continuation Kotlin adds, not ours.
		int declared = AsyncReturn.isSuspending(method) ? parameters.length - 1 : parameters.length;
		int payloadIndex = -1;
		int jobIndex = -1;
		for (int i = 0; i < declared; i++) {
			if (method.getParameterTypes()[i] == DelayedJob.class) {
				if (jobIndex >= 0) {
					throw new IllegalArgumentException("it declares more than one DelayedJob parameter");
				}
				jobIndex = i;
			}
			else {
				if (payloadIndex >= 0) {
					throw new IllegalArgumentException(
							"it declares more than one payload parameter; use at most one payload and one DelayedJob");
				}
				payloadIndex = i;
			}
		}
		Type target = null;
		if (payloadIndex >= 0) {
			target = parameters[payloadIndex];
		}
		else if (jobIndex >= 0) {
			target = (parameters[jobIndex] instanceof ParameterizedType parameterized)
					? parameterized.getActualTypeArguments()[0] : Object.class;
		}
		if (givenPayloadType != null) {
			target = givenPayloadType;
		}
		else if (target != null) {
			// A method inherited from a generic class names a type variable
			// (T), which the bean's own class binds (class OrderListener
			// extends Listener<Order>).
			target = GenericTypeResolver.resolveType(target, AopUtils.getTargetClass(bean));
		}
		JavaType payloadType = (target != null) ? jsonMapper.getTypeFactory().constructType(target) : null;
		return new ListenerMethodAdapter(bean, invocable, payloadIndex, jobIndex, payloadType, jsonMapper, asyncReturn);
	}

	/**
	 * Call the method with a job.
	 * @param topic the topic the job came from
	 * @param id the job id
	 * @param attempt the delivery's number
	 * @param record the job
	 * @param lease extends the delivery's time to run, for the {@link DelayedJob}
	 * @return {@code null} once a synchronous method returned; for an asynchronous one,
	 * the future of its completion
	 * @throws PayloadConversionException if the payload does not convert
	 * @throws Throwable whatever the method throws
	 */
	@Nullable CompletableFuture<?> invoke(String topic, String id, int attempt, JobRecord record, DelayedJob.Lease lease)
			throws Throwable {
		Object payload = convert(record.payloadJson());
		Object[] args = new Object[this.suspending ? this.method.getParameterCount() - 1
				: this.method.getParameterCount()];
		if (this.payloadIndex >= 0) {
			args[this.payloadIndex] = payload;
		}
		if (this.jobIndex >= 0) {
			args[this.jobIndex] = new DelayedJob<>(id, topic, payload, attempt, record.dueAt(), record.headers(),
					lease);
		}
		Object returned;
		try {
			returned = this.suspending ? CoroutinesUtils.invokeSuspendingFunction(this.method, this.bean, args)
					: this.method.invoke(this.bean, args);
		}
		catch (InvocationTargetException ex) {
			throw ex.getTargetException();
		}
		return (this.asyncReturn != null) ? this.asyncReturn.toFuture(returned) : null;
	}

	private @Nullable Object convert(String json) {
		if (this.payloadType == null) {
			return null;
		}
		try {
			return this.jsonMapper.readValue(json, this.payloadType);
		}
		catch (JacksonException ex) {
			throw new PayloadConversionException(
					"Cannot convert payload to " + this.payloadType.toCanonical() + ": " + ex.getOriginalMessage(), ex);
		}
	}

	@Override
	public String toString() {
		return this.method.toGenericString();
	}

}
