package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/interceptor"
	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"agencyhub/engine"
)

// headerTarget records the trace headers of the requests it gets, by path.
type headerTarget struct {
	*httptest.Server
	mu          sync.Mutex
	traceparent map[string][]string
}

func newHeaderTarget(t *testing.T) *headerTarget {
	tg := &headerTarget{traceparent: map[string][]string{}}
	tg.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		tg.mu.Lock()
		tg.traceparent[r.URL.Path] = append(tg.traceparent[r.URL.Path], r.Header.Get("traceparent"))
		tg.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"ok":true}`)
	}))
	t.Cleanup(tg.Close)
	return tg
}

func (tg *headerTarget) seen(path string) []string {
	tg.mu.Lock()
	defer tg.mu.Unlock()
	return append([]string(nil), tg.traceparent[path]...)
}

// TestOneTraceFromTheWebhookToTheActionsCalls runs the real Main with an in-memory span
// exporter and sends a webhook delivery that continues a caller's trace. The delivery is
// accepted durably and its run started by the dispatcher, yet the request, the workflow's
// start and run, each action's activity and each action's outbound call are spans of the
// caller's trace, each the child of the one before. The target whose http.auth integration
// allows it learns the trace from a traceparent naming the call's own span; the other
// target learns nothing. The run's history, with the trace in its headers, replays with
// tracing on and off.
func TestOneTraceFromTheWebhookToTheActionsCalls(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the embedded Temporal server")
	}
	t.Parallel()
	spans := tracetest.NewInMemoryExporter()
	tg := newHeaderTarget(t)
	m := &Main{SpanExporter: spans}
	env := map[string]string{"APP_DATA_DIR": t.TempDir(), "TEMPORAL_PORT": "0", "TEMPORAL_UI_PORT": "0", "APP_EGRESS_ALLOW": "127.0.0.0/8"}
	if err := m.ParseFlags([]string{"-addr", "127.0.0.1:0"}, func(k string) string { return env[k] }); err != nil {
		t.Fatal(err)
	}
	if err := m.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer m.Close()

	c, project := signUp(t, "http://"+m.Addr())
	dependency := func(name string, metadata map[string]any) string {
		return str(t, c.do(t, "POST", "/api/v1/projects/"+project+"/action-dependencies", map[string]any{
			"dependency_type_key": "http.auth", "name": name, "metadata": metadata,
			"auth": map[string]any{"scheme": "bearer", "token": "trace-test-token"},
		}, http.StatusCreated), "action_dependency_id")
	}
	ours := dependency("Our own service", map[string]any{"forward_trace_context": true})
	theirs := dependency("A partner's API", map[string]any{})
	call := func(key, path, dep string) map[string]any {
		return map[string]any{"action_key": key, "action_type_key": "http.request", "config": map[string]any{
			"method": "POST", "url": tg.URL + path, "body": map[string]any{"order": "{{ orders.order }}"}, "auth_dependency_id": dep,
		}}
	}
	wf := str(t, c.do(t, "POST", "/api/v1/projects/"+project+"/workflows", map[string]any{"name": "Traced orders"}, http.StatusCreated), "workflow_id")
	c.do(t, "PUT", "/api/v1/workflows/"+wf+"/draft", map[string]any{
		"actions": []map[string]any{
			{"action_key": "orders", "action_type_key": "webhook.trigger", "config": map[string]any{"endpoint_key": "orders", "auth_type": "none"}},
			call("tell_ours", "/ours", ours), call("tell_partner", "/partner", theirs), stop("done"),
		},
		"connections": []map[string]any{{"from": "orders", "to": "tell_ours"}, {"from": "tell_ours", "to": "tell_partner"}, {"from": "tell_partner", "to": "done"}},
	}, http.StatusOK)
	c.do(t, "POST", "/api/v1/workflows/"+wf+"/publish", map[string]any{}, http.StatusCreated)
	hook := pathOf(t, str(t, c.do(t, "POST", "/api/v1/workflows/"+wf+"/webhook-endpoints",
		map[string]any{"endpoint_key": "orders", "auth_type": "none"}, http.StatusCreated), "url"))

	const callerTrace, callerSpan = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
	req, _ := http.NewRequest("POST", c.base+hook, strings.NewReader(`{"order": 7}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("traceparent", "00-"+callerTrace+"-"+callerSpan+"-01")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("the delivery was answered %d", resp.StatusCode)
	}
	runID := str(t, c.do(t, "GET", "/api/v1/workflows/"+wf+"/runs?limit=1", nil, http.StatusOK)["items"].([]any)[0].(map[string]any), "workflow_run_id")
	c.waitFor(t, runID, time.Minute, "succeeded", func(run map[string]any, _ map[string]map[string]any) bool { return run["status"] == "succeeded" })

	// The workflow's span ends when its execution does, a moment after the projection says
	// succeeded; the batch is sent on ForceFlush.
	var got []sdktrace.ReadOnlySpan
	byID := map[trace.SpanID]tracetest.SpanStub{}
	deadline := time.Now().Add(30 * time.Second)
	for {
		if err := m.tracer.ForceFlush(context.Background()); err != nil {
			t.Fatal(err)
		}
		stubs := spans.GetSpans()
		got = stubs.Snapshots()
		clear(byID)
		names := map[string]int{}
		for _, s := range stubs {
			byID[s.SpanContext.SpanID()] = s
			names[s.Name]++
		}
		if names["RunWorkflow:"+engine.WorkflowName] > 0 && names["RunActivity:http.request"] == 2 && names["POST"] == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the spans of the run are not all there: %v", names)
		}
		time.Sleep(100 * time.Millisecond)
	}

	ourHeader := tg.seen("/ours")
	if len(ourHeader) != 1 || !strings.HasPrefix(ourHeader[0], "00-"+callerTrace+"-") {
		t.Fatalf("the service whose integration allows it got traceparent %v, want one in the caller's trace", ourHeader)
	}
	if partner := tg.seen("/partner"); len(partner) != 1 || partner[0] != "" {
		t.Errorf("the partner got traceparent %q, want a request without one", partner)
	}
	callSpan, _ := trace.SpanIDFromHex(strings.Split(ourHeader[0], "-")[2])
	// From the call the target saw up to the caller: every span on the way, in order.
	var chain []string
	for id := callSpan; id.IsValid(); {
		s, ok := byID[id]
		if !ok {
			if id.String() != callerSpan {
				t.Fatalf("the chain %v leads to span %s, which is neither recorded nor the caller's", chain, id)
			}
			break
		}
		if s.SpanContext.TraceID().String() != callerTrace {
			t.Errorf("span %s is in trace %s, want the caller's %s", s.Name, s.SpanContext.TraceID(), callerTrace)
		}
		chain = append(chain, s.Name)
		id = s.Parent.SpanID()
	}
	want := []string{"POST", "RunActivity:http.request", "StartActivity:http.request", "RunWorkflow:" + engine.WorkflowName,
		"StartWorkflow:" + engine.WorkflowName, "POST /hooks/:hook_key/:endpoint_key"}
	if strings.Join(chain, " < ") != strings.Join(want, " < ") {
		t.Errorf("from the call to the caller: %s\nwant %s", strings.Join(chain, " < "), strings.Join(want, " < "))
	}
	for _, s := range got {
		if s.SpanContext().TraceID().String() != callerTrace && strings.Contains(s.Name(), "http.request") {
			t.Errorf("span %s is in another trace, %s", s.Name(), s.SpanContext().TraceID())
		}
	}

	var history []*historypb.HistoryEvent
	events := m.temporal.GetWorkflowHistory(context.Background(), runID, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for events.HasNext() {
		e, err := events.Next()
		if err != nil {
			t.Fatal(err)
		}
		history = append(history, e)
	}
	tracing, err := engine.TracingInterceptor(sdktrace.NewTracerProvider())
	if err != nil {
		t.Fatal(err)
	}
	for name, interceptors := range map[string][]interceptor.WorkerInterceptor{"off": nil, "on": {tracing}} {
		replayer, err := worker.NewWorkflowReplayerWithOptions(worker.WorkflowReplayerOptions{Interceptors: interceptors})
		if err != nil {
			t.Fatal(err)
		}
		replayer.RegisterWorkflowWithOptions(engine.Interpret, workflow.RegisterOptions{Name: engine.WorkflowName})
		if err := replayer.ReplayWorkflowHistory(sdklog.NewStructuredLogger(slog.New(slog.DiscardHandler)), &historypb.History{Events: history}); err != nil {
			t.Errorf("the traced run's history does not replay with tracing %s: %v", name, err)
		}
	}
}
