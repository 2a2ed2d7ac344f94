package egress

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.40.0"
	"go.opentelemetry.io/otel/trace"
)

// tracerName is the instrumentation scope of the client's spans.
const tracerName = "agencyhub/activities/egress"

// forwardKey marks a context whose requests to one host carry the trace context.
type forwardKey struct{}

// ForwardTraceContext makes the requests sent with ctx to host (host[:port], as in a URL)
// carry the W3C trace context (traceparent, tracestate) of their span, so that the
// target's own tracing joins the trace. Only the integration decides it (http.auth's
// metadata.forward_trace_context): without this mark no request tells its target a trace
// id of ours, and a redirect to another host does not take it along.
func ForwardTraceContext(ctx context.Context, host string) context.Context {
	return context.WithValue(ctx, forwardKey{}, strings.ToLower(host))
}

// tracedTransport makes each request sent within a trace (its context holds a span: an
// activity's, an API request's) a client span of that trace, on the span's own tracer
// provider, and adds the trace context to the request where ForwardTraceContext allows it.
// A request outside any trace (tracing off) passes straight through.
type tracedTransport struct {
	base http.RoundTripper
}

func (t tracedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	parent := req.Context()
	if !trace.SpanContextFromContext(parent).IsValid() {
		return t.base.RoundTrip(req)
	}
	attrs := []attribute.KeyValue{semconv.HTTPRequestMethodKey.String(req.Method), semconv.ServerAddress(req.URL.Hostname())}
	if port, err := strconv.Atoi(req.URL.Port()); err == nil {
		attrs = append(attrs, semconv.ServerPort(port))
	}
	ctx, span := trace.SpanFromContext(parent).TracerProvider().Tracer(tracerName).Start(parent, req.Method,
		trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
	defer span.End()
	req = req.Clone(ctx) // a RoundTripper must not change the caller's request
	if host, _ := parent.Value(forwardKey{}).(string); host != "" && host == strings.ToLower(req.URL.Host) {
		propagation.TraceContext{}.Inject(ctx, propagation.HeaderCarrier(req.Header))
	}
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		span.SetStatus(codes.Error, err.Error())
		return nil, err
	}
	span.SetAttributes(semconv.HTTPResponseStatusCode(resp.StatusCode))
	if resp.StatusCode >= 400 {
		span.SetStatus(codes.Error, resp.Status)
	}
	return resp, nil
}
