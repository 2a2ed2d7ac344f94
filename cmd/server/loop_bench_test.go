package main

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkLoopOverHTTP measures loop.for_each through the real binary (a child process on a
// fresh data dir, SQLite and embedded Temporal, as BenchmarkEngineOverHTTP): one manual run
// of a workflow manual.trigger → loop.for_each over the run input's lines at concurrency 16 →
// each:
//
//   - http: an http.request POST of the item to a local server of the benchmark that answers
//     200 at once, over 1,000 items;
//   - data: a data.set of two fields from the item, over 10,000 items.
//
// Reported: items/s (the list's length over the time from the run's start request to its
// end as the server reports it), cpu-ms/item (the server process's user+system CPU over the
// run, per item) and run-s. The run is polled once a second.
func BenchmarkLoopOverHTTP(b *testing.B) {
	for _, tc := range []struct {
		workload string
		items    int
	}{{"http", 1000}, {"data", 10000}} {
		b.Run(fmt.Sprintf("workload=%s/items=%d", tc.workload, tc.items), func(b *testing.B) {
			benchLoop(b, tc.workload, tc.items)
		})
	}
}

func benchLoop(b *testing.B, workload string, items int) {
	env := newChildEnv(b)
	server := env.start(b)
	pid := server.cmd.Process.Pid
	c, project := signUp(b, "http://"+env.addr)

	var body map[string]any
	switch workload {
	case "http":
		var hits atomic.Int64
		target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body)
			hits.Add(1)
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"ok":true}`)
		}))
		b.Cleanup(func() {
			target.Close()
			if got := hits.Load(); got != int64(items) {
				b.Errorf("the target got %d posts, want %d", got, items)
			}
		})
		body = map[string]any{"action_key": "post", "action_type_key": "http.request",
			"config": map[string]any{"method": "POST", "url": target.URL + "/lines/{{ item.sku }}", "body": "{{ item }}"}}
	case "data":
		body = map[string]any{"action_key": "shape", "action_type_key": "data.set",
			"config": map[string]any{"fields": map[string]any{"label": `item.sku + "/" + string(loop.index)`, "double": "item.qty * 2"}}}
	}
	actions := []map[string]any{
		{"action_key": "start", "action_type_key": "manual.trigger", "config": map[string]any{}},
		{"action_key": "lines", "action_type_key": "loop.for_each", "config": map[string]any{"items": "start.lines", "concurrency": 16}},
		body,
	}
	conns := []map[string]any{{"from": "start", "to": "lines"}, {"from": "lines", "to": body["action_key"], "branch": "each"}}
	wf := str(b, c.do(b, "POST", "/api/v1/projects/"+project+"/workflows", map[string]any{"name": "Bench loop " + workload}, http.StatusCreated), "workflow_id")
	draft := c.do(b, "PUT", "/api/v1/workflows/"+wf+"/draft", map[string]any{"actions": actions, "connections": conns}, http.StatusOK)
	if ds, _ := draft["diagnostics"].([]any); len(ds) > 0 {
		b.Fatalf("the draft has diagnostics: %v", ds)
	}
	c.do(b, "POST", "/api/v1/workflows/"+wf+"/publish", map[string]any{}, http.StatusCreated)
	lines := make([]any, items)
	for i := range lines {
		lines[i] = map[string]any{"sku": fmt.Sprintf("SKU-%05d", i), "qty": i % 7}
	}

	tick := clockTick(b)
	b.ResetTimer()
	cpu0 := processCPU(b, pid, tick)
	start := time.Now()
	run := str(b, c.do(b, "POST", "/api/v1/workflows/"+wf+"/runs/manual", map[string]any{"input": map[string]any{"lines": lines}}, http.StatusAccepted), "workflow_run_id")
	var status string
	for deadline := time.Now().Add(20 * time.Minute); time.Now().Before(deadline); time.Sleep(time.Second) {
		r := c.do(b, "GET", "/api/v1/runs/"+run, nil, http.StatusOK)
		if r["terminal"] == true {
			status, _ = r["status"].(string)
			break
		}
	}
	wall := time.Since(start)
	cpu1 := processCPU(b, pid, tick)
	if status != "succeeded" {
		b.Fatalf("the loop's run ended %q", status)
	}
	b.ReportMetric(float64(items)/wall.Seconds(), "items/s")
	b.ReportMetric(float64(cpu1-cpu0)/float64(time.Millisecond)/float64(items), "cpu-ms/item")
	b.ReportMetric(wall.Seconds(), "run-s")
	b.ReportMetric(0, "ns/op") // the run happens once; its time per op says nothing
}
