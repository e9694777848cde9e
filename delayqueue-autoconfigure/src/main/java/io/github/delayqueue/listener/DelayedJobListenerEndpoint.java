package io.github.delayqueue.listener;

import java.util.List;

import io.github.delayqueue.core.DelayedJobErrorHandler;
import org.jspecify.annotations.Nullable;

/**
 * One listener to run: its id, the topics it consumes in priority order, how many jobs it
 * runs at once, and the method that handles a job. Endpoints are made by the
 * {@link DelayedJobListenerAnnotationBeanPostProcessor}; the method adapter is internal
 * to this package.
 *
 * @param id the listener's id, unique in the application
 * @param topics the topics, highest priority first
 * @param concurrency how many jobs run at once, or {@code null} for the first topic's
 * @param autoStartup whether the listener starts with the application
 * @param method calls the listener method
 * @param errorHandler decides what becomes of failed jobs, or {@code null} for the
 * container factory's
 * @author delayqueue contributors
 */
public record DelayedJobListenerEndpoint(String id, List<String> topics, @Nullable Integer concurrency,
		boolean autoStartup, ListenerMethodAdapter method, @Nullable DelayedJobErrorHandler errorHandler) {

	/**
	 * Create an endpoint, keeping an unmodifiable copy of the topics.
	 */
	public DelayedJobListenerEndpoint {
		topics = List.copyOf(topics);
	}

	/**
	 * Create an endpoint whose failed jobs the container factory's error handler decides.
	 * @param id the listener's id, unique in the application
	 * @param topics the topics, highest priority first
	 * @param concurrency how many jobs run at once, or {@code null} for the first topic's
	 * @param autoStartup whether the listener starts with the application
	 * @param method calls the listener method
	 */
	public DelayedJobListenerEndpoint(String id, List<String> topics, @Nullable Integer concurrency,
			boolean autoStartup, ListenerMethodAdapter method) {
		this(id, topics, concurrency, autoStartup, method, null);
	}

}
