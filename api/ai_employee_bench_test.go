package api_test

import (
	"bytes"
	"encoding/json"
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

// BenchmarkAITurn measures the AI employee's turn overhead without model time: the model
// is the local OpenAI-compatible test server, which streams its answer at once. Each of 16
// senders has a session of its own and posts messages back to back over real HTTP (a local
// server on the router, keep-alive connections); a message's time runs from the post to
// its answer, which comes when the turn has ended (the session workflow on the embedded
// Temporal, the model step activities, the stored transcript, the bus waking the handler).
// At least 20 turns per sender are measured whatever b.N is, on a SQLite file. One sender
// shows a turn's own overhead; 16 add the queueing of a loaded 2-core machine.
//
//   - reply: one model step answering text.
//   - read: a model step asking for get_run, the tool's activity, a second step answering text.
//
// Reported: turns/s, the p50 and p99 of the answer time, and cpu-ms/turn: the test
// process's user+system CPU over the phase divided by its turns. The process holds
// everything: the API, the worker, the embedded Temporal server, the model server and the
// senders.
func BenchmarkAITurn(b *testing.B) {
	for _, bench := range []struct {
		name, message string
		senders       int
	}{{"reply/1", "bench reply", 1}, {"reply/16", "bench reply", 16}, {"read/1", "bench read ", 1}, {"read/16", "bench read ", 16}} {
		b.Run(bench.name, func(b *testing.B) {
			e := newEnv(b, dbtest.SQLite(b))
			w := newAIWorld(b, e, "Bench")
			w.connectModel(b)
			sessions := make([]string, bench.senders)
			for i := range sessions {
				sessions[i] = w.session(b)
			}
			srv := httptest.NewServer(e.handler)
			defer srv.Close()
			body, _ := json.Marshal(map[string]any{"content": bench.message + w.runID})
			total := max(b.N, 20*bench.senders)
			var next atomic.Int64
			latencies := make([][]time.Duration, bench.senders)
			var wg sync.WaitGroup
			b.ResetTimer()
			cpu0, start := benchtest.ProcessCPU(b), time.Now()
			for s := range bench.senders {
				wg.Go(func() {
					url := srv.URL + w.path("/ai/employee/sessions/"+sessions[s]+"/messages")
					for next.Add(1) <= int64(total) {
						r, _ := http.NewRequest("POST", url, bytes.NewReader(body))
						r.Header.Set("Content-Type", "application/json")
						r.Header.Set("Authorization", "Bearer "+w.owner.token)
						t0 := time.Now()
						resp, err := http.DefaultClient.Do(r)
						if err != nil {
							b.Error(err)
							return
						}
						var answer struct {
							Status string `json:"status"`
						}
						err = json.NewDecoder(resp.Body).Decode(&answer)
						resp.Body.Close()
						if err != nil || resp.StatusCode != http.StatusOK || answer.Status != "idle" {
							b.Errorf("answer %d %q %v", resp.StatusCode, answer.Status, err)
							return
						}
						latencies[s] = append(latencies[s], time.Since(t0))
					}
				})
			}
			wg.Wait()
			wall, cpu := time.Since(start), benchtest.ProcessCPU(b)-cpu0
			b.StopTimer()
			all := slices.Concat(latencies...)
			b.ReportMetric(float64(len(all))/wall.Seconds(), "turns/s")
			b.ReportMetric(benchtest.Millis(benchtest.Percentile(all, 50)), "p50-ms")
			b.ReportMetric(benchtest.Millis(benchtest.Percentile(all, 99)), "p99-ms")
			b.ReportMetric(benchtest.Millis(cpu)/float64(max(len(all), 1)), "cpu-ms/turn")
		})
	}
}
