package io.github.delayqueue.observation;

import io.micrometer.observation.Observation;
import io.micrometer.tracing.Link;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.handler.PropagatingReceiverTracingObservationHandler;
import io.micrometer.tracing.propagation.Propagator;

/**
 * Starts the span of a handler run whose job fell due long after it was sent as the root
 * of a trace of its own, with a link to the send's span: a trace that waits days for its
 * last span stays open in the tracing system, and most systems cut it off. Runs only for
 * such runs (see {@code delayqueue.observation.link-long-delays}); every other run
 * continues the send's trace through the application's own receiver handler.
 *
 * @author delayqueue contributors
 */
public class LinkingProcessTracingObservationHandler
		extends PropagatingReceiverTracingObservationHandler<DelayQueueProcessContext> {

	private final Tracer tracer;

	private final Propagator propagator;

	/**
	 * Create the handler.
	 * @param tracer the application's tracer
	 * @param propagator reads the send's trace context from the job's headers
	 */
	public LinkingProcessTracingObservationHandler(Tracer tracer, Propagator propagator) {
		super(tracer, propagator);
		this.tracer = tracer;
		this.propagator = propagator;
	}

	@Override
	public boolean supportsContext(Observation.Context context) {
		return context instanceof DelayQueueProcessContext process && process.isLinkedToSend();
	}

	@Override
	public Span.Builder customizeExtractedSpan(DelayQueueProcessContext context, Span.Builder builder) {
		TraceContext send = sendContext(context);
		return (send != null) ? builder.addLink(new Link(send)) : builder;
	}

	// The propagator hands out a builder of a child of the send's span, not the send's
	// context itself: the child's parent is the send. The child is dropped unreported.
	private TraceContext sendContext(DelayQueueProcessContext context) {
		Span child = this.propagator.extract(context.getHeaders(), (headers, key) -> headers.get(key)).start();
		try {
			TraceContext childContext = child.context();
			if (childContext.parentId() == null) {
				return null;
			}
			return this.tracer.traceContextBuilder()
				.traceId(childContext.traceId())
				.spanId(childContext.parentId())
				.sampled(childContext.sampled())
				.build();
		}
		finally {
			child.abandon();
		}
	}

}
