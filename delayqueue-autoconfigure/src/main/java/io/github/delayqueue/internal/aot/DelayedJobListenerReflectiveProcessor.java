package io.github.delayqueue.internal.aot;

import java.lang.reflect.Method;
import java.lang.reflect.Type;

import io.github.delayqueue.core.DelayedJob;
import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.ReflectionHints;
import org.springframework.aot.hint.annotation.SimpleReflectiveProcessor;
import org.springframework.core.MethodParameter;
import org.springframework.core.ResolvableType;

/**
 * Registers what a {@code @DelayedJobListener} method needs at run time: the method
 * itself, which the container invokes reflectively, and the payload type, which Jackson
 * creates from JSON (its constructors, accessors and the types they reference, generics
 * included). For a {@link DelayedJob} parameter the payload is its type argument.
 *
 * @author delayqueue contributors
 */
public class DelayedJobListenerReflectiveProcessor extends SimpleReflectiveProcessor {

	private final BindingReflectionHintsRegistrar bindingRegistrar = new BindingReflectionHintsRegistrar();

	@Override
	protected void registerMethodHint(ReflectionHints hints, Method method) {
		super.registerMethodHint(hints, method);
		for (int i = 0; i < method.getParameterCount(); i++) {
			Type payloadType = payloadType(MethodParameter.forExecutable(method, i));
			if (payloadType != null) {
				this.bindingRegistrar.registerReflectionHints(hints, payloadType);
			}
		}
	}

	private static @Nullable Type payloadType(MethodParameter parameter) {
		ResolvableType type = ResolvableType.forMethodParameter(parameter);
		if (type.toClass() == DelayedJob.class) {
			// A raw DelayedJob or one of an unresolved type variable has no payload type
			// known before run time; the listener's bean class decides it then.
			return bindable(type.getGeneric(0));
		}
		return bindable(type);
	}

	private static @Nullable Type bindable(ResolvableType type) {
		Class<?> resolved = type.resolve();
		return (resolved != null && resolved != Object.class) ? type.getType() : null;
	}

}
