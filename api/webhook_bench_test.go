package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"agencyhub/migrations/dbtest"
	"agencyhub/platform/benchtest"
)

// Webhook benchmark shape: the number of concurrent senders, and the fewest deliveries
// each phase measures whatever b.N is, so that percentiles mean something.
const (
	webhookBenchSenders  = 16
	webhookBenchAccepts  = 40 * webhookBenchSenders
	webhookBenchComplete = 10 * webhookBenchSenders
)

// BenchmarkWebhookIngestion measures signed webhook deliveries through the whole stack on
// the embedded defaults: the router, a SQLite file (dbtest.SQLite) and the embedded
// Temporal server with the test harness's worker. The workflow is a webhook.trigger
// (hmac_standard) followed by a stop, so a run costs the engine's own work and nothing
// else. Each delivery is signed with its own webhook-id.
//
//   - acceptance: 16 senders post back to back; a delivery is accepted when its 202 (the
//     request stored, the run row written, the run handed to Temporal) arrives. Reported:
//     accepted/s and the p50 and p99 of the time to the 202.
//   - completion: after the accepted runs drained, 16 senders each post and then read the
//     receipt with ?wait=30 until it is terminal, then post the next. Reported:
//     completed/s and the p50 and p99 of the time from the post to the terminal receipt
//     (the receipt polls the run projection every 50 ms, which bounds its resolution).
func BenchmarkWebhookIngestion(b *testing.B) {
	e := newEnv(b, dbtest.SQLite(b))
	u := e.signUp("Bench")
	projectID := e.projectIn(u, e.companyOf(u, "Bench Co"), "Hooks")
	wfID := e.do(req{method: "POST", path: "/api/v1/projects/" + projectID + "/workflows", token: u.token,
		body: map[string]any{"name": "Bench hook"}}).expect(b, http.StatusCreated).str("workflow_id")
	e.do(req{method: "PUT", path: "/api/v1/workflows/" + wfID + "/draft", token: u.token, body: draft([]any{
		act("hook", "webhook.trigger", map[string]any{"endpoint_key": "bench"}),
		act("done", "stop", map[string]any{}),
	}, edge("hook", "done", ""))}).expect(b, http.StatusOK)
	e.do(req{method: "POST", path: "/api/v1/workflows/" + wfID + "/publish", token: u.token}).expect(b, http.StatusCreated)
	ep := e.do(req{method: "POST", path: "/api/v1/workflows/" + wfID + "/webhook-endpoints", token: u.token,
		body: map[string]any{"endpoint_key": "bench"}}).expect(b, http.StatusCreated)
	path, secret := strings.TrimPrefix(ep.str("url"), "http://api.test"), ep.str("secret")

	var seq atomic.Int64
	// deliver posts one signed delivery and answers its receipt path.
	deliver := func() (string, error) {
		body := fmt.Sprintf(`{"order_id":"B-%d","customer":{"email":"bench@example.com"}}`, seq.Add(1))
		id := fmt.Sprintf("msg_bench_%d", seq.Add(1))
		r := httptest.NewRequest("POST", path, strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		for k, v := range signed(b, secret, id, e.now, body) {
			r.Header.Set(k, v)
		}
		rec := httptest.NewRecorder()
		e.handler.ServeHTTP(rec, r)
		if rec.Code != http.StatusAccepted {
			return "", fmt.Errorf("delivery answered %d: %s", rec.Code, rec.Body)
		}
		var a struct {
			ReceiptURL string `json:"receipt_url"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &a); err != nil {
			return "", err
		}
		return strings.TrimPrefix(a.ReceiptURL, "http://api.test"), nil
	}
	// terminal reads a receipt with wait until the run has finished.
	terminal := func(receipt string) error {
		for {
			rec := httptest.NewRecorder()
			e.handler.ServeHTTP(rec, httptest.NewRequest("GET", receipt+"?wait=30", nil))
			var r struct {
				Terminal bool   `json:"terminal"`
				Status   string `json:"status"`
			}
			if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &r) != nil {
				return fmt.Errorf("receipt answered %d: %s", rec.Code, rec.Body)
			}
			if r.Terminal {
				if r.Status != "succeeded" {
					return fmt.Errorf("run ended %s", r.Status)
				}
				return nil
			}
		}
	}
	// phase runs total deliveries from the senders, each timing one delivery with op, and
	// answers the latencies and the wall time.
	phase := func(total int, op func() error) ([]time.Duration, time.Duration) {
		var (
			mu        sync.Mutex
			latencies = make([]time.Duration, 0, total)
			next      atomic.Int64
			wg        sync.WaitGroup
		)
		start := time.Now()
		for range webhookBenchSenders {
			wg.Go(func() {
				for next.Add(1) <= int64(total) {
					t0 := time.Now()
					if err := op(); err != nil {
						b.Error(err)
						return
					}
					d := time.Since(t0)
					mu.Lock()
					latencies = append(latencies, d)
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		return latencies, time.Since(start)
	}

	accepts, completes := max(b.N, webhookBenchAccepts), max(b.N, webhookBenchComplete)
	b.ResetTimer()
	var receipts []string
	var receiptsMu sync.Mutex
	acceptLat, acceptWall := phase(accepts, func() error {
		receipt, err := deliver()
		receiptsMu.Lock()
		receipts = append(receipts, receipt)
		receiptsMu.Unlock()
		return err
	})
	b.StopTimer()
	// Let the accepted runs finish before measuring completion on an idle engine.
	drainStart := time.Now()
	for _, r := range receipts {
		if err := terminal(r); err != nil {
			b.Fatal(err)
		}
	}
	drain := time.Since(drainStart)
	b.StartTimer()
	completeLat, completeWall := phase(completes, func() error {
		receipt, err := deliver()
		if err != nil {
			return err
		}
		return terminal(receipt)
	})
	b.StopTimer()
	if b.Failed() {
		return
	}

	b.ReportMetric(float64(len(acceptLat))/acceptWall.Seconds(), "accepted/s")
	b.ReportMetric(benchtest.Millis(benchtest.Percentile(acceptLat, 50)), "accept-p50-ms")
	b.ReportMetric(benchtest.Millis(benchtest.Percentile(acceptLat, 99)), "accept-p99-ms")
	b.ReportMetric(float64(len(completeLat))/completeWall.Seconds(), "completed/s")
	b.ReportMetric(benchtest.Millis(benchtest.Percentile(completeLat, 50)), "complete-p50-ms")
	b.ReportMetric(benchtest.Millis(benchtest.Percentile(completeLat, 99)), "complete-p99-ms")
	b.ReportMetric(float64(len(acceptLat))/(acceptWall+drain).Seconds(), "accepted-runs-finished/s")
}
