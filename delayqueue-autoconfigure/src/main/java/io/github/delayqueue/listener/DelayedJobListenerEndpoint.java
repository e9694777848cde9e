package io.github.delayqueue.listener;

import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;

import io.github.delayqueue.core.DelayedJob;
import io.github.delayqueue.core.DelayedJobErrorHandler;
import io.github.delayqueue.core.JobConstraints;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.core.ParameterizedTypeReference;
import org.springframework.util.StringUtils;

/**
 * One listener to run: its id, the topics it consumes in priority order, how many jobs it
 * runs at once, and what handles a job, either a bean's method or a
 * {@link DelayedJobHandler}. The {@link DelayedJobListenerAnnotationBeanPostProcessor}
 * makes one per {@code @DelayedJobListener} method; an application registers its own
 * through a {@link DelayedJobListenerConfigurer} bean, or at run time with
 * {@link DelayedJobListenerEndpointRegistry#register(DelayedJobListenerEndpoint)}.
 *
 * <pre class="code">
 * &#064;Bean
 * DelayedJobListenerConfigurer tenantListeners(Tenants tenants, Invoices invoices) {
 *     return (registrar) -&gt; tenants.all().forEach((tenant) -&gt; registrar.registerEndpoint(
 *         DelayedJobListenerEndpoint.builder("invoices-" + tenant.id())
 *             .topics("invoices." + tenant.id())
 *             .concurrency(tenant.workers())
 *             .handler(Invoice.class, (job) -&gt; invoices.remind(tenant, job.payload()))
 *             .build()));
 * }
 * </pre>
 *
 * The payload is converted from JSON to the handler's payload type (for a method, the
 * type of its payload parameter or its {@code DelayedJob}'s type argument), with the same
 * mapper as for annotated methods; outcomes, retries and metrics are those of an
 * annotated method.
 *
 * @author delayqueue contributors
 */
public final class DelayedJobListenerEndpoint {

	private static final Method HANDLE = handleMethod();

	private final String id;

	private final List<String> topics;

	private final @Nullable Integer concurrency;

	private final boolean autoStartup;

	private final @Nullable DelayedJobErrorHandler errorHandler;

	private final Object target;

	private final Method method;

	// Set for a handler, whose payload type a lambda's signature cannot tell.
	private final @Nullable Type payloadType;

	private DelayedJobListenerEndpoint(Builder builder, Object target, Method method, @Nullable Type payloadType) {
		this.id = builder.id;
		this.topics = List.copyOf(builder.topics);
		this.concurrency = builder.concurrency;
		this.autoStartup = builder.autoStartup;
		this.errorHandler = builder.errorHandler;
		this.target = target;
		this.method = method;
		this.payloadType = payloadType;
	}

	/**
	 * Start an endpoint.
	 * @param id the listener's id, unique in the application; it names the listener in
	 * the registry, the logs, the metrics and the Actuator endpoint
	 * @return a builder
	 */
	public static Builder builder(String id) {
		return new Builder(id);
	}

	/**
	 * Return the listener's id.
	 * @return the id
	 */
	public String id() {
		return this.id;
	}

	/**
	 * Return the topics, highest priority first.
	 * @return the topics
	 */
	public List<String> topics() {
		return this.topics;
	}

	/**
	 * Return how many jobs run at once.
	 * @return the concurrency, or {@code null} for the first topic's {@code concurrency}
	 * property
	 */
	public @Nullable Integer concurrency() {
		return this.concurrency;
	}

	/**
	 * Return whether the listener starts with the application.
	 * @return {@code true} to start with it
	 */
	public boolean autoStartup() {
		return this.autoStartup;
	}

	/**
	 * Return what decides the fate of failed jobs.
	 * @return the error handler, or {@code null} for the container factory's
	 */
	public @Nullable DelayedJobErrorHandler errorHandler() {
		return this.errorHandler;
	}

	/**
	 * Make what calls the handler with a job.
	 * @param jsonMapper converts payloads
	 * @return the adapter
	 * @throws IllegalArgumentException naming what is wrong with a method that cannot be
	 * served
	 */
	ListenerMethodAdapter adapter(JsonMapper jsonMapper) {
		return (this.payloadType != null)
				? ListenerMethodAdapter.of(this.target, this.method, jsonMapper, this.payloadType)
				: ListenerMethodAdapter.of(this.target, this.method, jsonMapper);
	}

	@Override
	public String toString() {
		String handler = (this.payloadType != null) ? "handler of " + this.payloadType.getTypeName()
				: this.method.toGenericString();
		return "DelayedJobListenerEndpoint[" + this.id + " on " + this.topics + ", " + handler + "]";
	}

	private static Method handleMethod() {
		try {
			return DelayedJobHandler.class.getMethod("handle", DelayedJob.class);
		}
		catch (NoSuchMethodException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Builds a {@link DelayedJobListenerEndpoint}; {@link #build()} checks it.
	 */
	public static final class Builder {

		private final String id;

		private final List<String> topics = new ArrayList<>();

		private @Nullable Integer concurrency;

		private boolean autoStartup = true;

		private @Nullable DelayedJobErrorHandler errorHandler;

		private @Nullable Object bean;

		private @Nullable Method method;

		private @Nullable DelayedJobHandler<?> handler;

		private @Nullable Type payloadType;

		private Builder(String id) {
			this.id = id;
		}

		/**
		 * Set the topics to consume, highest priority first: a ready job of an earlier
		 * topic is always taken before one of a later topic.
		 * @param topics the topics
		 * @return this builder
		 */
		public Builder topics(String... topics) {
			return topics(Arrays.asList(topics));
		}

		/**
		 * Set the topics to consume, highest priority first.
		 * @param topics the topics
		 * @return this builder
		 */
		public Builder topics(Collection<String> topics) {
			this.topics.clear();
			this.topics.addAll(topics);
			return this;
		}

		/**
		 * Set how many jobs run at once on this instance, instead of the first topic's
		 * {@code concurrency} property.
		 * @param concurrency at least 1
		 * @return this builder
		 */
		public Builder concurrency(int concurrency) {
			this.concurrency = concurrency;
			return this;
		}

		/**
		 * Set whether the listener starts with the application (by default it does); one
		 * that does not is started through the
		 * {@link DelayedJobListenerEndpointRegistry}.
		 * @param autoStartup {@code false} to start it by hand
		 * @return this builder
		 */
		public Builder autoStartup(boolean autoStartup) {
			this.autoStartup = autoStartup;
			return this;
		}

		/**
		 * Set what decides the fate of this listener's failed jobs, instead of the
		 * container factory's error handler.
		 * @param errorHandler the error handler, or {@code null} for the factory's
		 * @return this builder
		 */
		public Builder errorHandler(@Nullable DelayedJobErrorHandler errorHandler) {
			this.errorHandler = errorHandler;
			return this;
		}

		/**
		 * Handle jobs with a bean's method, which takes a payload parameter and/or a
		 * {@code DelayedJob}, as a {@code @DelayedJobListener} method does.
		 * @param bean the bean
		 * @param method one of its methods
		 * @return this builder
		 */
		public Builder method(Object bean, Method method) {
			this.bean = bean;
			this.method = method;
			this.handler = null;
			this.payloadType = null;
			return this;
		}

		/**
		 * Handle jobs with a function.
		 * @param <T> the payload type
		 * @param payloadType the type the payload is converted to
		 * @param handler handles each job
		 * @return this builder
		 */
		public <T> Builder handler(Class<T> payloadType, DelayedJobHandler<T> handler) {
			return handler((Type) payloadType, handler);
		}

		/**
		 * Handle jobs with a function whose payload type is generic, such as {@code new
		 * ParameterizedTypeReference<List<Item>>() {}}.
		 * @param <T> the payload type
		 * @param payloadType the type the payload is converted to
		 * @param handler handles each job
		 * @return this builder
		 */
		public <T> Builder handler(ParameterizedTypeReference<T> payloadType, DelayedJobHandler<T> handler) {
			return handler(payloadType.getType(), handler);
		}

		private Builder handler(@Nullable Type payloadType, @Nullable DelayedJobHandler<?> handler) {
			this.payloadType = payloadType;
			this.handler = handler;
			this.bean = null;
			this.method = null;
			return this;
		}

		/**
		 * Build the endpoint.
		 * @return the endpoint
		 * @throws IllegalArgumentException naming the listener and what is wrong: no or a
		 * blank id, no topic, an invalid or repeated topic, a concurrency below 1, a
		 * method that cannot be served (two payload parameters), or neither a method nor
		 * a handler
		 */
		public DelayedJobListenerEndpoint build() {
			if (!StringUtils.hasText(this.id)) {
				throw new IllegalArgumentException("A listener needs an id, was '" + this.id + "'");
			}
			String problem = problem();
			if (problem != null) {
				throw new IllegalArgumentException("Listener '" + this.id + "' " + problem);
			}
			if (this.handler != null && this.payloadType != null) {
				return new DelayedJobListenerEndpoint(this, this.handler, HANDLE, this.payloadType);
			}
			if (this.bean != null && this.method != null) {
				return new DelayedJobListenerEndpoint(this, this.bean, this.method, null);
			}
			throw new IllegalArgumentException("Listener '" + this.id
					+ "' has nothing to handle its jobs: set a method, or a handler with its payload type");
		}

		/**
		 * Tell what is wrong with the topics, the concurrency or the method.
		 * @return the problem, worded to follow the listener's name, or {@code null}
		 */
		@Nullable String problem() {
			if (this.topics.isEmpty()) {
				return "names no topic";
			}
			for (String topic : this.topics) {
				if (!JobConstraints.isValidTopic(topic)) {
					return "names an invalid topic '" + topic
							+ "': use 1 to 128 characters of A-Z a-z 0-9 . _ -, starting with a letter or digit";
				}
			}
			if (new HashSet<>(this.topics).size() != this.topics.size()) {
				return "names a topic twice: " + this.topics;
			}
			if (this.concurrency != null && this.concurrency < 1) {
				return "has concurrency " + this.concurrency + "; it must be at least 1";
			}
			if (this.bean != null && this.method != null) {
				try {
					// Checked here, so that a method that cannot be served fails where
					// it is declared; the container's factory makes the adapter that
					// runs it.
					ListenerMethodAdapter.of(this.bean, this.method, JsonMapper.shared());
				}
				catch (IllegalArgumentException ex) {
					return "cannot be served: " + ex.getMessage();
				}
			}
			return null;
		}

	}

}
