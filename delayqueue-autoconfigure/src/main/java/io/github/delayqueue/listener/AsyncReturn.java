package io.github.delayqueue.listener;

import java.lang.reflect.Method;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;

import org.springframework.core.KotlinDetector;
import org.springframework.core.MethodParameter;
import org.springframework.core.ReactiveAdapter;
import org.springframework.core.ReactiveAdapterRegistry;
import org.springframework.util.ClassUtils;

/**
 * What an asynchronous listener method returns, and how its completion is awaited: a
 * {@link CompletionStage} (a {@link CompletableFuture} among them), a single-value
 * reactive type such as Reactor's {@code Mono} (when Reactor is on the class path), or a
 * Kotlin {@code suspend} function's result, which Spring's {@code CoroutinesUtils}
 * delivers as a {@code Mono}. Methods returning anything else are synchronous, their
 * value ignored.
 *
 * @author delayqueue contributors
 */
final class AsyncReturn {

	private static final ClassLoader CLASS_LOADER = AsyncReturn.class.getClassLoader();

	private static final boolean REACTOR_PRESENT = ClassUtils.isPresent("reactor.core.publisher.Mono", CLASS_LOADER);

	private static final boolean COROUTINES_PRESENT = ClassUtils.isPresent("kotlinx.coroutines.reactor.MonoKt",
			CLASS_LOADER);

	private static final AsyncReturn STAGE = new AsyncReturn(null);

	private static final AsyncReturn SUSPENDING = new AsyncReturn(null);

	// Null for a stage or a suspend function's Mono.
	private final @Nullable ReactiveAdapter adapter;

	private AsyncReturn(@Nullable ReactiveAdapter adapter) {
		this.adapter = adapter;
	}

	/**
	 * Return whether a method is a Kotlin {@code suspend} function, whose last parameter
	 * is the continuation the Kotlin compiler adds.
	 * @param method the method
	 * @return {@code true} if it suspends
	 */
	static boolean isSuspending(Method method) {
		return KotlinDetector.isKotlinPresent() && KotlinDetector.isSuspendingFunction(method);
	}

	/**
	 * Return how a method's completion is awaited.
	 * @param method the listener method
	 * @return how, or {@code null} for a synchronous method
	 * @throws IllegalArgumentException naming what the method returns that cannot be
	 * awaited as one completion
	 */
	static @Nullable AsyncReturn of(Method method) {
		if (isSuspending(method)) {
			if (!COROUTINES_PRESENT || !REACTOR_PRESENT || !KotlinDetector.isKotlinReflectPresent()) {
				throw new IllegalArgumentException("it is a suspend function, which needs kotlinx-coroutines-reactor"
						+ " and kotlin-reflect on the class path");
			}
			Class<?> returned = MethodParameter.forExecutable(method, -1).getParameterType();
			ReactiveAdapter adapter = ReactiveAdapterRegistry.getSharedInstance().getAdapter(returned);
			if (adapter != null && adapter.isMultiValue()) {
				throw manyValues(returned);
			}
			return SUSPENDING;
		}
		Class<?> returned = method.getReturnType();
		if (returned == void.class || returned.isPrimitive()) {
			return null;
		}
		if (CompletionStage.class.isAssignableFrom(returned)) {
			return STAGE;
		}
		ReactiveAdapter adapter = ReactiveAdapterRegistry.getSharedInstance().getAdapter(returned);
		if (adapter != null) {
			if (adapter.isMultiValue()) {
				throw manyValues(returned);
			}
			if (!REACTOR_PRESENT) {
				throw new IllegalArgumentException("it returns " + returned.getName()
						+ ", which is awaited through Project Reactor; add reactor-core to the class path");
			}
			return new AsyncReturn(adapter);
		}
		if (Future.class.isAssignableFrom(returned)) {
			throw new IllegalArgumentException("it returns " + returned.getName()
					+ ", whose completion cannot be awaited without blocking a thread; return a CompletableFuture"
					+ " or CompletionStage instead");
		}
		return null;
	}

	private static IllegalArgumentException manyValues(Class<?> returned) {
		return new IllegalArgumentException("it returns " + returned.getName()
				+ ", which may emit many values while a job completes once; return a Mono, CompletableFuture or"
				+ " CompletionStage (or nothing)");
	}

	/**
	 * Turn what the method returned into the future of its completion.
	 * @param returned the return value; {@code null} completes at once
	 * @return the future, which the caller may cancel
	 */
	CompletableFuture<?> toFuture(@Nullable Object returned) {
		if (returned == null) {
			return CompletableFuture.completedFuture(null);
		}
		if (this == STAGE) {
			CompletionStage<?> stage = (CompletionStage<?>) returned;
			try {
				return stage.toCompletableFuture();
			}
			catch (UnsupportedOperationException ex) {
				// A stage that offers no future of its own: follow it.
				CompletableFuture<Object> future = new CompletableFuture<>();
				stage.whenComplete((value, failure) -> {
					if (failure != null) {
						future.completeExceptionally(failure);
					}
					else {
						future.complete(value);
					}
				});
				return future;
			}
		}
		Publisher<?> publisher = (this.adapter != null) ? this.adapter.toPublisher(returned) : (Publisher<?>) returned;
		return PublisherFutures.toFuture(publisher);
	}

}
