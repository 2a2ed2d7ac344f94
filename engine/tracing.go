package engine

import (
	"context"

	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
	"go.temporal.io/sdk/contrib/opentelemetry"
	"go.temporal.io/sdk/interceptor"
)

// TracingInterceptor makes the client's calls (start, signal, query) and the worker's
// executions spans of tp: a started workflow continues the trace of the context it was
// started with, and each activity, local or not, continues its workflow's. The trace
// context travels in the Temporal headers of the start and of each scheduled activity,
// not in the workflow's input or its commands, so histories replay alike with tracing on
// or off. It is the interceptor of Dial's client (ClientOptions.TracerProvider), and of a
// replayer that replays histories as a traced worker does.
func TracingInterceptor(tp trace.TracerProvider) (interceptor.Interceptor, error) {
	return opentelemetry.NewTracingInterceptor(opentelemetry.TracerOptions{
		Tracer: tp.Tracer("temporal-sdk-go"),
		// The trace context alone: baggage would carry whatever a caller put in it into
		// every history.
		DisableBaggage:    true,
		TextMapPropagator: propagation.TraceContext{},
		// A history written by another tracer (or a hand-edited header) does not fail the run.
		AllowInvalidParentSpans: true,
	})
}

// traceParent is the W3C traceparent of the span in ctx, for a run that is stored now and
// started later (Start.Queued), so that its execution joins the trace of the request that
// accepted it; empty when ctx holds no span (tracing is off). It names two ids and a
// sampling flag: nothing of the request itself.
func traceParent(ctx context.Context) string {
	if !trace.SpanContextFromContext(ctx).IsValid() {
		return ""
	}
	carrier := propagation.MapCarrier{}
	propagation.TraceContext{}.Inject(ctx, carrier)
	return carrier["traceparent"]
}

// withTraceParent is ctx continuing the trace a stored traceparent names; ctx itself when
// there is none, or it is not valid.
func withTraceParent(ctx context.Context, traceParent string) context.Context {
	if traceParent == "" {
		return ctx
	}
	return propagation.TraceContext{}.Extract(ctx, propagation.MapCarrier{"traceparent": traceParent})
}
