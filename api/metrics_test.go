package api_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"agencyhub/api"
	"agencyhub/migrations/dbtest"
	"agencyhub/platform/metrics"
	"agencyhub/platform/metrics/metricstest"
)

// TestWebhookDeliveriesAreCountedByOutcome: every request to a webhook address is counted
// once, accepted (its run started, or a repeated delivery id answered as the first) or
// refused with the message key of the error it was answered with.
func TestWebhookDeliveriesAreCountedByOutcome(t *testing.T) {
	m := metrics.New()
	e := newEnv(t, dbtest.SQLite(t), func(s *api.Server) { s.Metrics = m })
	u := e.signUp("Ada")
	projectID := e.projectIn(u, e.companyOf(u, "Northwind"), "Shop")
	wfID := e.do(req{method: "POST", path: "/api/v1/projects/" + projectID + "/workflows", token: u.token,
		body: map[string]any{"name": "Orders"}}).expect(t, http.StatusCreated).str("workflow_id")
	e.do(req{method: "PUT", path: "/api/v1/workflows/" + wfID + "/draft", token: u.token, body: draft([]any{
		act("hook", "webhook.trigger", map[string]any{"endpoint_key": "orders"}),
		act("done", "stop", map[string]any{}),
	}, edge("hook", "done", ""))}).expect(t, http.StatusOK)
	e.do(req{method: "POST", path: "/api/v1/workflows/" + wfID + "/publish", token: u.token}).expect(t, http.StatusCreated)
	ep := e.do(req{method: "POST", path: "/api/v1/workflows/" + wfID + "/webhook-endpoints", token: u.token,
		body: map[string]any{"endpoint_key": "orders"}}).expect(t, http.StatusCreated)
	path, secret := strings.TrimPrefix(ep.str("url"), "http://api.test"), ep.str("secret")
	body := `{"order_id":"A-1"}`

	e.post(path, body, signed(t, secret, "msg_1", e.now, body)).expect(t, http.StatusAccepted)
	e.post(path, body, signed(t, secret, "msg_1", e.now, body)).expect(t, http.StatusAccepted)
	forged := signed(t, secret, "msg_2", e.now, body)
	forged["webhook-signature"] = signature(t, secret, "msg_2", e.now.Unix(), `{"order_id":"A-2"}`)
	e.post(path, body, forged).expect(t, http.StatusUnauthorized)
	e.post(path, body, nil).expect(t, http.StatusUnauthorized)
	e.post(path, "not json", signed(t, secret, "msg_3", e.now, "not json")).expect(t, http.StatusBadRequest)
	e.post(path+"-gone", body, signed(t, secret, "msg_4", e.now, body)).expect(t, http.StatusNotFound)

	f := metricstest.Gather(t, m.Registry())
	for _, c := range []struct {
		result, reason string
		want           float64
	}{
		{"accepted", "started", 1},
		{"accepted", "replayed", 1},
		{"refused", "webhook_signature_invalid", 1},
		{"refused", "webhook_headers_missing", 1},
		{"refused", "malformed_json", 1},
		{"refused", "webhook_not_found", 1},
	} {
		if got, _ := f.Value("webhook_deliveries_total", "result", c.result, "reason", c.reason); got != c.want {
			t.Errorf("webhook_deliveries_total{result=%q,reason=%q} = %v, want %v; series: %v", c.result, c.reason, got, c.want, f.Series("webhook_deliveries_total"))
		}
	}
	if n := len(f.Series("webhook_deliveries_total")); n != 6 {
		t.Errorf("%d delivery series, want 6: %v", n, f.Series("webhook_deliveries_total"))
	}
	if got, _ := f.Value("http_requests_total", "method", "POST", "route", "/hooks/:hook_key/:endpoint_key", "status", "202"); got != 2 {
		t.Errorf("POST /hooks/... 202 counted %v times, want 2 (by the route template, not the path)", got)
	}
}

// BenchmarkRequestMetrics measures what counting a request costs through real HTTP: GET
// /healthz (no checks) over a keep-alive connection to a local server, with metrics off
// (Discard: the middleware is not installed) and on. The difference per op is the
// middleware; it should add no allocation.
func BenchmarkRequestMetrics(b *testing.B) {
	for _, c := range []struct {
		name    string
		metrics *metrics.Metrics
	}{{"off", metrics.Discard()}, {"on", metrics.New()}} {
		b.Run(c.name, func(b *testing.B) {
			e := newEnv(b, dbtest.SQLite(b), func(s *api.Server) { s.Metrics, s.Health = c.metrics, nil })
			srv := httptest.NewServer(e.handler)
			defer srv.Close()
			client := srv.Client()
			b.ReportAllocs()
			for b.Loop() {
				resp, err := client.Get(srv.URL + "/healthz")
				if err != nil {
					b.Fatal(err)
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					b.Fatalf("status %d", resp.StatusCode)
				}
			}
		})
	}
}
