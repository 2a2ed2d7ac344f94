package activities

import (
	"context"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"agencyhub/models/integration"
)

// TestHTTPRequestForwardsTheTraceOnlyWhereItsIntegrationAllows: within a trace every call is
// a client span of it, but the target learns the trace (traceparent) only from a request
// whose http.auth integration sets forward_trace_context, and only on that host.
func TestHTTPRequestForwardsTheTraceOnlyWhereItsIntegrationAllows(t *testing.T) {
	e := startEndpoint(t, answerWith(200, "ok"))
	deps := newProjectDependencies()
	bearer := map[string]any{"scheme": "bearer", "token": "t0k3n-for-trace"}
	forwarding := deps.add(integration.TypeHTTPAuth, map[string]any{"forward_trace_context": true}, bearer)
	silent := deps.add(integration.TypeHTTPAuth, map[string]any{"forward_trace_context": false}, bearer)
	unset := deps.add(integration.TypeHTTPAuth, nil, bearer)

	spans := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans))
	t.Cleanup(func() { tp.Shutdown(context.Background()) })
	client := loopbackClient(t, 5*time.Second)
	run := func(ctx context.Context, config map[string]any) {
		t.Helper()
		if _, err := (HTTPRequest{ActionDependencies: deps, Client: client}).Run(ctx, deps.request(ActionHTTPRequest, config)); err != nil {
			t.Fatalf("Run: %v", err)
		}
	}
	inActivity := func(t *testing.T) (context.Context, trace.Span) {
		t.Helper()
		spans.Reset()
		ctx, span := tp.Tracer("test").Start(context.Background(), "RunActivity:http.request")
		t.Cleanup(func() { span.End() })
		return ctx, span
	}
	lastHeader := func(name string) string { return e.seen()[len(e.seen())-1].Header.Get(name) }

	for _, tt := range []struct{ name, dep string }{
		{"without an integration", ""},
		{"with an integration that says no", silent},
		{"with an integration that says nothing", unset},
	} {
		t.Run("a request "+tt.name+" tells the target no trace", func(t *testing.T) {
			ctx, activity := inActivity(t)
			run(ctx, map[string]any{"url": e.URL + "/quiet", "auth_dependency_id": tt.dep})
			if got := lastHeader("traceparent"); got != "" {
				t.Fatalf("the target got traceparent %q", got)
			}
			calls := spans.GetSpans()
			if len(calls) != 1 || calls[0].Name != "GET" || calls[0].SpanKind != trace.SpanKindClient ||
				calls[0].Parent.SpanID() != activity.SpanContext().SpanID() || calls[0].SpanContext.TraceID() != activity.SpanContext().TraceID() {
				t.Fatalf("spans %+v, want one client span GET, child of the activity's", calls)
			}
		})
	}

	t.Run("a request whose integration allows it carries the trace of its own span", func(t *testing.T) {
		ctx, activity := inActivity(t)
		run(ctx, map[string]any{"url": e.URL + "/traced", "method": "POST", "body": "x", "auth_dependency_id": forwarding})
		calls := spans.GetSpans()
		if len(calls) != 1 || calls[0].Name != "POST" {
			t.Fatalf("spans %+v, want one client span POST", calls)
		}
		want := "00-" + activity.SpanContext().TraceID().String() + "-" + calls[0].SpanContext.SpanID().String() + "-01"
		if got := lastHeader("traceparent"); got != want {
			t.Fatalf("the target got traceparent %q, want %q (the call's span in the activity's trace)", got, want)
		}
		if lastHeader("Authorization") != "Bearer t0k3n-for-trace" {
			t.Error("the credential was not sent")
		}
	})

	t.Run("a redirect to another host does not take the trace along", func(t *testing.T) {
		away := startEndpoint(t, answerWith(200, "landed"))
		_, port, _ := net.SplitHostPort(away.Listener.Addr().String())
		front := startEndpoint(t, func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "http://localhost:"+port+"/landing", http.StatusFound)
		})
		ctx, _ := inActivity(t)
		run(ctx, map[string]any{"url": front.URL, "auth_dependency_id": forwarding})
		if !strings.HasPrefix(front.seen()[0].Header.Get("traceparent"), "00-") {
			t.Errorf("the integration's host got traceparent %q", front.seen()[0].Header.Get("traceparent"))
		}
		if got := away.seen()[0].Header.Get("traceparent"); got != "" {
			t.Errorf("the redirect target got traceparent %q", got)
		}
		if n := len(spans.GetSpans()); n != 2 {
			t.Errorf("%d spans, want a client span for each hop", n)
		}
	})

	t.Run("outside a trace nothing is traced or told, even where it is allowed", func(t *testing.T) {
		spans.Reset()
		run(context.Background(), map[string]any{"url": e.URL + "/untraced", "auth_dependency_id": forwarding})
		if got := lastHeader("traceparent"); got != "" {
			t.Errorf("the target got traceparent %q", got)
		}
		if n := len(spans.GetSpans()); n != 0 {
			t.Errorf("%d spans recorded without a trace", n)
		}
	})
}
