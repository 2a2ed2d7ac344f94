package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"agencyhub/migrations/dbtest"
	"agencyhub/platform/benchtest"
)

// paymentBenchSenders is how many clients record payments at once.
const paymentBenchSenders = 16

// BenchmarkManualPaymentRecording measures POST /clients/{client_id}/payments/manual over
// real HTTP (a local server on the router, keep-alive connections) on a SQLite file: 16
// senders, each recording payments of its own service for one period after another, each
// under a new idempotency key, so every request claims a key, creates the period's action
// and item, records the fact and moves the due date. At least 40 payments per sender are
// measured whatever b.N is. Reported: records/s and the p50 and p99 of the answer time.
func BenchmarkManualPaymentRecording(b *testing.B) {
	e := newEnv(b, dbtest.SQLite(b))
	f := e.billingFixture("Bench")
	services := make([]string, paymentBenchSenders)
	for i := range services {
		services[i] = e.addService(f, map[string]any{"name": fmt.Sprintf("Service %d", i), "amount": 1000, "next_due_date": "2027-01-01"})
	}
	srv := httptest.NewServer(e.handler)
	defer srv.Close()
	url := srv.URL + "/api/v1/clients/" + f.clientID + "/payments/manual"
	total := max(b.N, 40*paymentBenchSenders)
	var next atomic.Int64
	latencies := make([][]time.Duration, paymentBenchSenders)
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for s := range paymentBenchSenders {
		wg.Go(func() {
			for period := 0; ; period++ {
				n := next.Add(1)
				if n > int64(total) {
					return
				}
				body, _ := json.Marshal(map[string]any{"client_service_id": services[s], "amount": 1000,
					"period_start": time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, period).Format("2006-01-02"),
					"paid_at":      "2027-01-01T10:00:00Z", "payment_method": "bank_transfer", "idempotency_key": fmt.Sprintf("bench-%d", n)})
				r, _ := http.NewRequest("POST", url, bytes.NewReader(body))
				r.Header.Set("Content-Type", "application/json")
				r.Header.Set("Authorization", "Bearer "+f.owner.token)
				t0 := time.Now()
				resp, err := http.DefaultClient.Do(r)
				if err != nil {
					b.Error(err)
					return
				}
				resp.Body.Close()
				if resp.StatusCode != http.StatusCreated {
					b.Errorf("status %d", resp.StatusCode)
					return
				}
				latencies[s] = append(latencies[s], time.Since(t0))
			}
		})
	}
	wg.Wait()
	wall := time.Since(start)
	b.StopTimer()
	all := slices.Concat(latencies...)
	b.ReportMetric(float64(len(all))/wall.Seconds(), "records/s")
	b.ReportMetric(benchtest.Millis(benchtest.Percentile(all, 50)), "p50-ms")
	b.ReportMetric(benchtest.Millis(benchtest.Percentile(all, 99)), "p99-ms")
}
