package io.github.delayqueue.observation;

import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.otel.bridge.OtelCurrentTraceContext;
import io.micrometer.tracing.otel.bridge.OtelPropagator;
import io.micrometer.tracing.otel.bridge.OtelTracer;
import io.micrometer.tracing.propagation.Propagator;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.samplers.Sampler;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A real tracer, as an application that traces has one: Micrometer Tracing's
 * OpenTelemetry bridge, sampling everything, with the W3C {@code traceparent} propagator;
 * its spans go to the application's {@link SpanProcessor} bean.
 */
@Configuration(proxyBeanMethods = false)
class TestTracing {

	@Bean(destroyMethod = "close")
	OpenTelemetrySdk openTelemetry(SpanProcessor spans) {
		return OpenTelemetrySdk.builder()
			.setTracerProvider(
					SdkTracerProvider.builder().setSampler(Sampler.alwaysOn()).addSpanProcessor(spans).build())
			.setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
			.build();
	}

	@Bean
	Tracer tracer(OpenTelemetrySdk openTelemetry) {
		return new OtelTracer(openTelemetry.getTracer("test"), new OtelCurrentTraceContext(), (event) -> {
		});
	}

	@Bean
	Propagator propagator(OpenTelemetrySdk openTelemetry) {
		return new OtelPropagator(openTelemetry.getPropagators(), openTelemetry.getTracer("test"));
	}

}
