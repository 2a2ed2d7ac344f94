package metrics_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"testing"
	"time"

	"agencyhub/platform/metrics"
	"agencyhub/platform/metrics/metricstest"
)

func TestRequestsAreCountedByMethodRouteTemplateAndStatus(t *testing.T) {
	m := metrics.New()
	m.ObserveRequest("GET", "/api/v1/companies/:company_id", 200, 3*time.Millisecond)
	m.ObserveRequest("GET", "/api/v1/companies/:company_id", 200, 40*time.Millisecond)
	m.ObserveRequest("GET", "/api/v1/companies/:company_id", 404, time.Millisecond)
	m.ObserveRequest("BREW", "", 404, time.Millisecond)
	m.ObserveRequest("PROPFIND", "", 404, time.Millisecond)
	m.ObserveRequest("DELETE", "", 405, time.Millisecond)
	f := metricstest.Gather(t, m.Registry())

	for _, c := range []struct {
		name   string
		labels []string
		want   float64
	}{
		{"http_requests_total", []string{"method", "GET", "route", "/api/v1/companies/:company_id", "status", "200"}, 2},
		{"http_requests_total", []string{"method", "GET", "route", "/api/v1/companies/:company_id", "status", "404"}, 1},
		{"http_requests_total", []string{"method", "other", "route", "unmatched", "status", "404"}, 2},
		{"http_requests_total", []string{"method", "DELETE", "route", "unmatched", "status", "405"}, 1},
		{"http_request_duration_seconds", []string{"method", "GET", "route", "/api/v1/companies/:company_id", "status", "200"}, 2},
	} {
		if got, ok := f.Value(c.name, c.labels...); !ok || got != c.want {
			t.Errorf("%s%v = %v (found %v), want %v; series: %v", c.name, c.labels, got, ok, c.want, f.Series(c.name))
		}
	}
	if n := len(f.Series("http_requests_total")); n != 4 {
		t.Errorf("%d request series, want 4 (unknown methods and paths share one): %v", n, f.Series("http_requests_total"))
	}
	h := f["http_request_duration_seconds"].GetMetric()
	for _, s := range h {
		if s.GetHistogram().GetSampleSum() <= 0 {
			t.Errorf("a latency series observed nothing: %v", s)
		}
	}
}

func TestRunsAttemptsAndDeliveriesAreCountedByTheirLabels(t *testing.T) {
	m := metrics.New()
	m.RunStarted("manual")
	m.RunStarted("webhook")
	m.RunFinished("manual", "succeeded")
	m.ActionAttempt("http.request", "")
	m.ActionAttempt("http.request", "transient")
	m.ActionAttempt("http.request", "transient")
	m.WebhookAccepted(false)
	m.WebhookAccepted(true)
	m.WebhookRefused("webhook_signature_invalid")
	f := metricstest.Gather(t, m.Registry())
	for _, c := range []struct {
		name   string
		labels []string
		want   float64
	}{
		{"workflow_runs_started_total", []string{"trigger", "manual"}, 1},
		{"workflow_runs_started_total", []string{"trigger", "webhook"}, 1},
		{"workflow_runs_finished_total", []string{"trigger", "manual", "status", "succeeded"}, 1},
		{"workflow_action_attempts_total", []string{"action_type", "http.request", "result", "succeeded", "retry_class", ""}, 1},
		{"workflow_action_attempts_total", []string{"action_type", "http.request", "result", "failed", "retry_class", "transient"}, 2},
		{"webhook_deliveries_total", []string{"result", "accepted", "reason", "started"}, 1},
		{"webhook_deliveries_total", []string{"result", "accepted", "reason", "replayed"}, 1},
		{"webhook_deliveries_total", []string{"result", "refused", "reason", "webhook_signature_invalid"}, 1},
	} {
		if got, ok := f.Value(c.name, c.labels...); !ok || got != c.want {
			t.Errorf("%s%v = %v (found %v), want %v; series: %v", c.name, c.labels, got, ok, c.want, f.Series(c.name))
		}
	}
}

func TestTheOutboxBacklogIsCountedAtScrapeTime(t *testing.T) {
	m := metrics.New()
	backlog, fail := int64(3), false
	m.WatchOutbox(func(context.Context) (int64, error) {
		if fail {
			return 0, errors.New("database is down")
		}
		return backlog, nil
	})
	srv := httptest.NewServer(m.Handler())
	defer srv.Close()

	if got, ok := metricstest.Scrape(t, srv.URL).Value("mail_outbox_backlog"); !ok || got != 3 {
		t.Fatalf("mail_outbox_backlog = %v (found %v), want 3", got, ok)
	}
	backlog = 5
	if got, _ := metricstest.Scrape(t, srv.URL).Value("mail_outbox_backlog"); got != 5 {
		t.Fatalf("mail_outbox_backlog = %v after the outbox grew, want 5", got)
	}
	t.Run("a failing count leaves the gauge out and serves the rest", func(t *testing.T) {
		fail = true
		m.RunStarted("manual")
		f := metricstest.Scrape(t, srv.URL)
		if _, ok := f.Value("mail_outbox_backlog"); ok {
			t.Error("the backlog is served although it could not be counted")
		}
		if got, _ := f.Value("workflow_runs_started_total", "trigger", "manual"); got != 1 {
			t.Errorf("workflow_runs_started_total = %v beside the failed count, want 1", got)
		}
	})
}

func TestDiscardRecordsNothingAndServesNothing(t *testing.T) {
	m := metrics.Discard()
	m.ObserveRequest("GET", "/healthz", 200, time.Millisecond)
	m.RunStarted("manual")
	m.RunFinished("manual", "succeeded")
	m.ActionAttempt("http.request", "")
	m.WebhookAccepted(false)
	m.WebhookRefused("webhook_not_found")
	m.WatchOutbox(func(context.Context) (int64, error) { t.Fatal("Discard counted the outbox"); return 0, nil })
	if m.Recording() || m.Registry() != nil {
		t.Fatal("Discard keeps a registry")
	}
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if rec.Code != 404 {
		t.Fatalf("Discard's handler answered %d, want 404", rec.Code)
	}
}

// BenchmarkObserveRequest is the cost the request middleware adds to a request whose series
// exists: it should allocate nothing.
func BenchmarkObserveRequest(b *testing.B) {
	m := metrics.New()
	routes := []string{"/api/v1/companies/:company_id", "/api/v1/runs/:workflow_run_id", "/healthz", ""}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		m.ObserveRequest("GET", routes[i%len(routes)], 200+i%2*204, time.Millisecond)
		i++
	}
}

func TestOpenSocketsAreReadAtScrapeTime(t *testing.T) {
	m := metrics.New()
	visitors, operators := 2, 1
	m.WatchSockets(func() (int, int) { return visitors, operators })
	srv := httptest.NewServer(m.Handler())
	defer srv.Close()

	f := metricstest.Scrape(t, srv.URL)
	for side, want := range map[string]float64{"visitor": 2, "operator": 1} {
		if got, ok := f.Value("site_chat_sockets_open", "side", side); !ok || got != want {
			t.Errorf("site_chat_sockets_open{side=%q} = %v (found %v), want %v", side, got, ok, want)
		}
	}
	visitors = 0
	if got, _ := metricstest.Scrape(t, srv.URL).Value("site_chat_sockets_open", "side", "visitor"); got != 0 {
		t.Errorf("site_chat_sockets_open{side=\"visitor\"} = %v after the visitors left, want 0", got)
	}
}
