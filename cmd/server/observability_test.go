package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"go.opentelemetry.io/otel/trace"

	"agencyhub/platform/metrics/metricstest"
)

// TestMetricsAreServedOnTheirOwnListener runs the real Main with APP_METRICS_ADDR, drives
// requests, two runs (one succeeds, one fails on a 404) and a refused webhook through its
// API, and scrapes /metrics as Prometheus would: each series carries the labels and counts
// of what happened, the Temporal SDK's metrics are beside them, and the API port serves no
// /metrics.
func TestMetricsAreServedOnTheirOwnListener(t *testing.T) {
	t.Parallel()
	tg := newTarget(t)
	gone := httptest.NewServer(http.NotFoundHandler())
	defer gone.Close()
	m := start(t, map[string]string{
		"APP_DATA_DIR": t.TempDir(), "TEMPORAL_PORT": "0", "TEMPORAL_UI_PORT": "0",
		"APP_METRICS_ADDR": "127.0.0.1:0", "APP_EGRESS_ALLOW": "127.0.0.0/8",
	})
	defer m.Close()
	if m.MetricsAddr() == "" || m.MetricsAddr() == m.Addr() {
		t.Fatalf("metrics listen on %q beside the API on %q, want a listener of their own", m.MetricsAddr(), m.Addr())
	}
	base := "http://" + m.Addr()

	c, project := signUp(t, base)
	(&apiClient{base: base}).do(t, "POST", "/api/v1/auth/login", map[string]any{"email": "ops@example.com", "password": "wrong-horse-battery", "client_type": "api"}, http.StatusUnauthorized)
	(&apiClient{base: base}).do(t, "GET", "/api/v1/no-such-thing", nil, http.StatusNotFound)
	(&apiClient{base: base}).do(t, "POST", "/hooks/no-such-hook/orders", map[string]any{"order": 1}, http.StatusNotFound)
	ok := c.publishAndRun(t, project, []map[string]any{manualTrigger("start"), post("call", tg.URL+"/ok"), stop("done")})
	failing := c.publishAndRun(t, project, []map[string]any{manualTrigger("start"), post("call", gone.URL+"/missing"), stop("done")})
	for _, id := range []string{ok, failing} {
		c.waitFor(t, id, 30*time.Second, "finished", func(run map[string]any, _ map[string]map[string]any) bool { return run["terminal"] == true })
	}

	want := []struct {
		name   string
		labels []string
		value  float64
	}{
		{"http_requests_total", []string{"method", "POST", "route", "/api/v1/auth/register", "status", "201"}, 1},
		{"http_requests_total", []string{"method", "POST", "route", "/api/v1/auth/login", "status", "401"}, 1},
		{"http_requests_total", []string{"method", "GET", "route", "unmatched", "status", "404"}, 1},
		{"http_request_duration_seconds", []string{"method", "POST", "route", "/api/v1/auth/register", "status", "201"}, 1},
		{"http_requests_total", []string{"method", "POST", "route", "/api/v1/workflows/:workflow_id/runs/manual", "status", "202"}, 2},
		{"workflow_runs_started_total", []string{"trigger", "manual"}, 2},
		{"workflow_runs_finished_total", []string{"trigger", "manual", "status", "succeeded"}, 1},
		{"workflow_runs_finished_total", []string{"trigger", "manual", "status", "failed"}, 1},
		{"workflow_action_attempts_total", []string{"action_type", "http.request", "result", "succeeded", "retry_class", ""}, 1},
		{"workflow_action_attempts_total", []string{"action_type", "http.request", "result", "failed", "retry_class", "permanent"}, 1},
		{"webhook_deliveries_total", []string{"result", "refused", "reason", "webhook_not_found"}, 1},
		{"mail_outbox_backlog", nil, 0},
		{"site_chat_sockets_open", []string{"side", "visitor"}, 0},
		{"site_chat_sockets_open", []string{"side", "operator"}, 0},
	}
	// The SDK reports every second; the runs' last projection writes land a moment after
	// the API says they finished.
	url := "http://" + m.MetricsAddr() + "/metrics"
	deadline := time.Now().Add(15 * time.Second)
	for {
		f := metricstest.Scrape(t, url)
		var missing []string
		for _, w := range want {
			if got, ok := f.Value(w.name, w.labels...); !ok || got != w.value {
				missing = append(missing, fmtSeries(w.name, w.labels, got, ok, w.value, f.Series(w.name)))
			}
		}
		for _, name := range []string{"temporal_workflow_completed_total", "temporal_request_total", "temporal_local_activity_execution_latency_seconds"} {
			if f.Total(name) < 1 {
				missing = append(missing, name+" (the Temporal SDK's) is missing")
			}
		}
		if _, ok := f["go_goroutines"]; !ok {
			missing = append(missing, "go_goroutines is missing")
		}
		if len(missing) == 0 {
			break
		}
		if time.Now().After(deadline) {
			for _, s := range missing {
				t.Error(s)
			}
			t.FailNow()
		}
		time.Sleep(200 * time.Millisecond)
	}
	if resp := get(t, base+"/metrics"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("GET /metrics on the API port answered %d, want 404: the metrics are not public", resp.StatusCode)
	}
	// The embedded Temporal server's own series, under Temporal's names, beside ours and
	// apart from them.
	server := metricstest.Scrape(t, url+"/temporal-server")
	for _, name := range []string{"service_requests", "persistence_requests", "service_latency"} {
		if server.Total(name) < 1 {
			t.Errorf("the embedded server's %s is missing from /metrics/temporal-server: %v", name, keys(server))
		}
	}
	if _, ok := server["http_requests_total"]; ok {
		t.Error("/metrics/temporal-server serves the service's own series too")
	}
	if tg.count("POST /ok") != 1 {
		t.Errorf("the target saw %v, want one POST /ok", tg.snapshot())
	}
}

func keys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

// TestWithoutAMetricsAddressNoMetricsAreServed: the default opens no metrics listener and
// the API has no /metrics route.
func TestWithoutAMetricsAddressNoMetricsAreServed(t *testing.T) {
	t.Parallel()
	m := start(t, map[string]string{"APP_DATA_DIR": t.TempDir(), "TEMPORAL_PORT": "0", "TEMPORAL_UI_PORT": "0"})
	defer m.Close()
	if m.MetricsAddr() != "" || m.metricsHTTP != nil {
		t.Fatalf("a metrics listener is open on %q without APP_METRICS_ADDR", m.MetricsAddr())
	}
	if m.metrics.Recording() || m.serverMetrics != nil {
		t.Error("metrics are recorded that nothing serves")
	}
	if resp := get(t, "http://"+m.Addr()+"/metrics"); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("GET /metrics on the API port answered %d, want 404", resp.StatusCode)
	}
}

// traceIDPattern is a W3C trace id as logged: 32 lowercase hex digits, not all zero.
var traceIDPattern = regexp.MustCompile(`^[0-9a-f]{32}$`)

// TestTraceIDsAreLoggedWhenTracingIsOn runs the server binary with
// OTEL_EXPORTER_OTLP_ENDPOINT pointing at a local collector: a request's log line carries
// the trace id of the caller's traceparent and a span id, and the spans reach the collector
// by the time the server has stopped. Without the variable no line carries a trace id.
func TestTraceIDsAreLoggedWhenTracingIsOn(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the server binary")
	}
	t.Parallel()
	t.Run("with a collector", func(t *testing.T) {
		t.Parallel()
		var posts atomic.Int32
		collector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body)
			if r.Method == http.MethodPost && r.URL.Path == "/v1/traces" && r.Header.Get("Content-Type") == "application/x-protobuf" {
				posts.Add(1)
			}
			w.Header().Set("Content-Type", "application/x-protobuf")
		}))
		defer collector.Close()
		env := newChildEnv(t)
		env.extra = []string{"OTEL_EXPORTER_OTLP_ENDPOINT=" + collector.URL}
		server := env.start(t)

		const callerTrace = "4bf92f3577b34da6a3ce929d0e0e4736"
		line := requestLogLine(t, env, server, "traced-request-0001", "00-"+callerTrace+"-00f067aa0ba902b7-01")
		if line["trace_id"] != callerTrace {
			t.Errorf("the request's log line has trace_id %v, want the caller's %s: %v", line["trace_id"], callerTrace, line)
		}
		if id, _ := line["span_id"].(string); !regexp.MustCompile(`^[0-9a-f]{16}$`).MatchString(id) || id == "00f067aa0ba902b7" {
			t.Errorf("span_id %q, want the server span's own 16 hex digits", id)
		}
		own := requestLogLine(t, env, server, "traced-request-0002", "")
		if id, _ := own["trace_id"].(string); !traceIDPattern.MatchString(id) || id == callerTrace {
			t.Errorf("a request without traceparent logged trace_id %q, want a new 32-hex trace id", id)
		}

		stopChild(t, server)
		if posts.Load() == 0 {
			t.Fatal("the collector received no spans by the time the server stopped")
		}
	})
	t.Run("without one", func(t *testing.T) {
		t.Parallel()
		env := newChildEnv(t)
		server := env.start(t)
		line := requestLogLine(t, env, server, "untraced-request-01", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
		if _, ok := line["trace_id"]; ok {
			t.Errorf("a log line carries a trace id without OTEL_EXPORTER_OTLP_ENDPOINT: %v", line)
		}
		b, _ := os.ReadFile(server.log)
		if bytes.Contains(b, []byte(`"trace_id"`)) {
			t.Error("the log has trace ids without OTEL_EXPORTER_OTLP_ENDPOINT")
		}
	})
}

// requestLogLine sends GET /healthz with a request id (and a traceparent when given), and
// answers the JSON log line the server wrote for it.
func requestLogLine(t *testing.T, env *childEnv, server *child, requestID, traceparent string) map[string]any {
	t.Helper()
	req, _ := http.NewRequest("GET", "http://"+env.addr+"/healthz", nil)
	req.Header.Set("X-Request-Id", requestID)
	if traceparent != "" {
		req.Header.Set("traceparent", traceparent)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, _ := os.ReadFile(server.log)
		lines := bufio.NewScanner(bytes.NewReader(b))
		lines.Buffer(nil, 1<<20)
		for lines.Scan() {
			var line map[string]any
			if json.Unmarshal(lines.Bytes(), &line) == nil && line["msg"] == "request" && line["request_id"] == requestID {
				return line
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no request log line with request_id %s", requestID)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// stopChild stops the server as Ctrl-C does and waits for it to exit.
func stopChild(t *testing.T, c *child) {
	t.Helper()
	if err := c.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case <-c.exited:
	case <-time.After(60 * time.Second):
		t.Fatal("the server did not stop within a minute of Ctrl-C")
	}
	if c.err != nil {
		t.Errorf("the server exited with %v", c.err)
	}
}

func TestTraceIDsJoinOnlyRecordsLoggedInASpan(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(traceIDs{slog.NewJSONHandler(&buf, nil)}).With("component", "test")
	tid, _ := trace.TraceIDFromHex("4bf92f3577b34da6a3ce929d0e0e4736")
	sid, _ := trace.SpanIDFromHex("00f067aa0ba902b7")
	inSpan := trace.ContextWithSpanContext(context.Background(), trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: sid}))

	log.InfoContext(inSpan, "in a span")
	log.InfoContext(context.Background(), "outside")
	var lines []map[string]any
	for _, raw := range bytes.Split(bytes.TrimSpace(buf.Bytes()), []byte("\n")) {
		var line map[string]any
		if err := json.Unmarshal(raw, &line); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, line)
	}
	if lines[0]["trace_id"] != tid.String() || lines[0]["span_id"] != sid.String() || lines[0]["component"] != "test" {
		t.Errorf("in a span: %v, want its trace and span ids beside the logger's attributes", lines[0])
	}
	if _, ok := lines[1]["trace_id"]; ok {
		t.Errorf("outside a span: %v, want no trace id", lines[1])
	}
}

func get(t *testing.T, url string) *http.Response {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}

func fmtSeries(name string, labels []string, got float64, found bool, want float64, series []string) string {
	b, _ := json.Marshal(map[string]any{"series": name, "labels": labels, "got": got, "found": found, "want": want, "present": series})
	return string(b)
}
