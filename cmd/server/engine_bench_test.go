package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"agencyhub/platform/benchtest"
)

// profileEnv, when set to an address, makes the server child (serveForTest) answer
// /profile/start and /profile/stop there: a CPU profile of the server between the two. Only
// BenchmarkEngineOverHTTP sets it, and only when BENCH_CPUPROFILE_DIR is set.
const profileEnv = "AGENCYHUB_TEST_PROFILE_ADDR"

// BenchmarkEngineOverHTTP measures the engine through the real binary: the server runs as a
// child process (the test binary as main, on a fresh data dir: SQLite file and embedded
// Temporal), and senders reach it over loopback HTTP at a webhook endpoint of auth type
// none. Two workloads, each at 16 and 64 closed-loop senders:
//
//   - branch: webhook.trigger → condition.branch over the payload (hook.amount > 10) → stop
//     on either branch;
//   - http: webhook.trigger → http.request GET to a local server of the benchmark that
//     answers 200 JSON at once → stop.
//
// Phase A (accept): the senders post deliveries back to back for BENCH_SECONDS (default 10);
// then the benchmark waits until no run of the workflow is pending, running or waiting.
// Reported: accepted/s (202 answers over the sending time), answer-p50/p99-ms (post to 202),
// finished/s (succeeded runs over the time from the phase's start to the last finished_at),
// cpu-ms/run (the server process's user+system CPU, from /proc, over accept and drain,
// per finished run) and drain-s (from the end of sending to the backlog drained).
//
// Phase B (receipt wait, 16 senders only): each sender posts and reads the receipt with
// ?wait=30 until it is terminal, then posts the next, for BENCH_SECONDS. Reported:
// receipt-p50/p99-ms (post to terminal receipt), receipt-finished/s and receipt-cpu-ms/run.
//
// Each sub-benchmark runs its phases once, whatever b.N is (they take longer than any
// default -benchtime, so the framework does not ask for more); B/op and allocs/op of
// -benchmem count the senders, not the server. BENCH_CPUPROFILE_DIR, when set, writes a CPU
// profile of the server over phase A (accept and drain) to <dir>/<workload>-<senders>.pprof.
func BenchmarkEngineOverHTTP(b *testing.B) {
	seconds := envInt(b, "BENCH_SECONDS", 10)
	for _, workload := range []string{"branch", "http"} {
		for _, senders := range []int{16, 64} {
			b.Run(fmt.Sprintf("workload=%s/senders=%d", workload, senders), func(b *testing.B) {
				benchEngine(b, workload, senders, time.Duration(seconds)*time.Second)
			})
		}
	}
}

func benchEngine(b *testing.B, workload string, senders int, length time.Duration) {
	env := newChildEnv(b)
	profileDir := os.Getenv("BENCH_CPUPROFILE_DIR")
	profileAddr := ""
	if profileDir != "" {
		profileAddr = "127.0.0.1:" + strconv.Itoa(freePorts(b, 1)[0])
		env.extra = append(env.extra, profileEnv+"="+profileAddr)
	}
	server := env.start(b)
	pid := server.cmd.Process.Pid
	base := "http://" + env.addr
	c, project := signUp(b, base)

	hook := map[string]any{"action_key": "hook", "action_type_key": "webhook.trigger", "config": map[string]any{"endpoint_key": "hook", "auth_type": "none"}}
	var actions, conns []map[string]any
	switch workload {
	case "branch":
		actions = []map[string]any{hook,
			{"action_key": "check", "action_type_key": "condition.branch", "config": map[string]any{"text": "hook.amount > 10"}},
			stop("big"), stop("small")}
		conns = []map[string]any{{"from": "hook", "to": "check"}, {"from": "check", "to": "big", "branch": "true"}, {"from": "check", "to": "small", "branch": "false"}}
	case "http":
		price := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"price":42,"currency":"EUR"}`)
		}))
		b.Cleanup(price.Close)
		actions = []map[string]any{hook,
			{"action_key": "fetch", "action_type_key": "http.request", "config": map[string]any{"method": "GET", "url": price.URL + "/price/{{ hook.order }}", "timeout_seconds": 30}},
			stop("done")}
		conns = []map[string]any{{"from": "hook", "to": "fetch"}, {"from": "fetch", "to": "done"}}
	}
	wf := str(b, c.do(b, "POST", "/api/v1/projects/"+project+"/workflows", map[string]any{"name": "Bench " + workload}, http.StatusCreated), "workflow_id")
	draft := c.do(b, "PUT", "/api/v1/workflows/"+wf+"/draft", map[string]any{"actions": actions, "connections": conns}, http.StatusOK)
	if ds, _ := draft["diagnostics"].([]any); len(ds) > 0 {
		b.Fatalf("the draft has diagnostics: %v", ds)
	}
	c.do(b, "POST", "/api/v1/workflows/"+wf+"/publish", map[string]any{}, http.StatusCreated)
	hookURL := str(b, c.do(b, "POST", "/api/v1/workflows/"+wf+"/webhook-endpoints", map[string]any{"endpoint_key": "hook", "auth_type": "none"}, http.StatusCreated), "url")

	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 2 * senders, IdleConnTimeout: time.Minute}}
	b.Cleanup(client.CloseIdleConnections)
	var seq atomic.Int64
	// deliver posts one delivery and answers its receipt URL, or the status of a refusal.
	deliver := func() (string, error) {
		n := seq.Add(1)
		body := fmt.Sprintf(`{"order":"B-%d","amount":%d,"customer":{"email":"bench@example.com"}}`, n, n%20)
		resp, err := client.Post(hookURL, "application/json", strings.NewReader(body))
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusAccepted {
			return "", fmt.Errorf("delivery answered %d: %s", resp.StatusCode, raw)
		}
		var a struct {
			ReceiptURL string `json:"receipt_url"`
		}
		if err := json.Unmarshal(raw, &a); err != nil || a.ReceiptURL == "" {
			return "", fmt.Errorf("delivery answered %s", raw)
		}
		return a.ReceiptURL, nil
	}
	// terminal reads the receipt with ?wait=30 until the run has ended, and answers its status.
	terminal := func(receipt string) (string, error) {
		for {
			resp, err := client.Get(receipt + "?wait=30")
			if err != nil {
				return "", err
			}
			raw, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			var r struct {
				Terminal bool   `json:"terminal"`
				Status   string `json:"status"`
			}
			if resp.StatusCode != http.StatusOK || json.Unmarshal(raw, &r) != nil {
				return "", fmt.Errorf("receipt answered %d: %s", resp.StatusCode, raw)
			}
			if r.Terminal {
				return r.Status, nil
			}
		}
	}
	// closedLoop runs op from the senders back to back until length has passed, and answers
	// the latencies of the ops that succeeded, the failures, and the wall time until the last
	// op returned.
	closedLoop := func(senders int, op func() error) (lat []time.Duration, failures int, firstErr error, wall time.Duration) {
		var mu sync.Mutex
		var wg sync.WaitGroup
		start := time.Now()
		deadline := start.Add(length)
		for range senders {
			wg.Go(func() {
				for time.Now().Before(deadline) {
					t0 := time.Now()
					err := op()
					d := time.Since(t0)
					mu.Lock()
					if err != nil {
						failures++
						if firstErr == nil {
							firstErr = err
						}
					} else {
						lat = append(lat, d)
					}
					mu.Unlock()
					if err != nil {
						time.Sleep(10 * time.Millisecond) // a refusing server is not hammered
					}
				}
			})
		}
		wg.Wait()
		return lat, failures, firstErr, time.Since(start)
	}

	tick := clockTick(b)
	// What the server logs from here on is the phases' doing.
	if st, err := os.Stat(server.log); err == nil {
		b.Cleanup(func() { logWarnings(b, server.log, st.Size()) })
	}
	b.ResetTimer()

	// Phase A: accept, then drain.
	if profileAddr != "" {
		profileCall(b, profileAddr, "start")
	}
	cpu0 := processCPU(b, pid, tick)
	start := time.Now()
	answers, refused, firstErr, sending := closedLoop(senders, func() error { _, err := deliver(); return err })
	if refused > 0 {
		b.Logf("%d deliveries refused, the first: %v", refused, firstErr)
	}
	if len(answers) == 0 {
		b.Fatal("no delivery was accepted")
	}
	sendEnd := time.Now()
	c.waitDrained(b, wf, 10*time.Minute)
	drained := time.Now()
	cpu1 := processCPU(b, pid, tick)
	if profileAddr != "" {
		prof := profileCall(b, profileAddr, "stop")
		path := filepath.Join(profileDir, fmt.Sprintf("%s-%d.pprof", workload, senders))
		if err := os.WriteFile(path, prof, 0o644); err != nil {
			b.Fatal(err)
		}
		b.Logf("server CPU profile of phase A: %s", path)
	}
	succeeded, lastFinished := c.finishedRuns(b, wf, "succeeded")
	if failed, _ := c.finishedRuns(b, wf, "failed"); failed > 0 {
		b.Errorf("%d runs failed", failed)
	}
	if succeeded != len(answers) {
		b.Errorf("%d runs succeeded, %d deliveries were accepted", succeeded, len(answers))
	}
	b.ReportMetric(float64(len(answers))/sending.Seconds(), "accepted/s")
	b.ReportMetric(benchtest.Millis(benchtest.Percentile(answers, 50)), "answer-p50-ms")
	b.ReportMetric(benchtest.Millis(benchtest.Percentile(answers, 99)), "answer-p99-ms")
	b.ReportMetric(float64(succeeded)/lastFinished.Sub(start).Seconds(), "finished/s")
	b.ReportMetric(float64(cpu1-cpu0)/float64(time.Millisecond)/float64(max(succeeded, 1)), "cpu-ms/run")
	b.ReportMetric(drained.Sub(sendEnd).Seconds(), "drain-s")
	b.ReportMetric(0, "ns/op") // the phases run once; their time per op says nothing

	// Phase B: post, then wait on the receipt until the run has ended (16 senders only).
	if senders != 16 {
		return
	}
	cpu0 = processCPU(b, pid, tick)
	receipts, failures, firstErr, wall := closedLoop(senders, func() error {
		receipt, err := deliver()
		if err != nil {
			return err
		}
		status, err := terminal(receipt)
		if err == nil && status != "succeeded" {
			err = fmt.Errorf("run ended %s", status)
		}
		return err
	})
	cpu1 = processCPU(b, pid, tick)
	if failures > 0 {
		b.Errorf("%d deliveries did not end in a succeeded receipt, the first: %v", failures, firstErr)
	}
	b.ReportMetric(float64(len(receipts))/wall.Seconds(), "receipt-finished/s")
	b.ReportMetric(benchtest.Millis(benchtest.Percentile(receipts, 50)), "receipt-p50-ms")
	b.ReportMetric(benchtest.Millis(benchtest.Percentile(receipts, 99)), "receipt-p99-ms")
	b.ReportMetric(float64(cpu1-cpu0)/float64(time.Millisecond)/float64(max(len(receipts), 1)), "receipt-cpu-ms/run")
}

// waitDrained polls the workflow's runs until none is pending, running or waiting. The
// statuses are read in the order runs move through them, so a run that is not terminal when
// the first is read shows up in one of the three reads.
func (c *apiClient) waitDrained(t testing.TB, wf string, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		busy := ""
		for _, status := range []string{"pending", "running", "waiting"} {
			page := c.do(t, "GET", "/api/v1/workflows/"+wf+"/runs?limit=1&status="+status, nil, http.StatusOK)
			if items, _ := page["items"].([]any); len(items) > 0 {
				busy = status
				break
			}
		}
		if busy == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %s, runs are still %s", within, busy)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// finishedRuns counts the workflow's runs of a status and answers the latest finished_at.
func (c *apiClient) finishedRuns(t testing.TB, wf, status string) (int, time.Time) {
	t.Helper()
	n, last := 0, time.Time{}
	cursor := ""
	for {
		page := c.do(t, "GET", "/api/v1/workflows/"+wf+"/runs?limit=200&status="+status+"&cursor="+cursor, nil, http.StatusOK)
		for _, item := range page["items"].([]any) {
			n++
			at, err := time.Parse(time.RFC3339Nano, str(t, item.(map[string]any), "finished_at"))
			if err != nil {
				t.Fatal(err)
			}
			if at.After(last) {
				last = at
			}
		}
		next, _ := page["next_cursor"].(string)
		if next == "" {
			return n, last
		}
		cursor = next
	}
}

// logWarnings logs how many warnings and errors the server logged past the offset, by
// message: a dispatcher or Temporal backing off under load shows there.
func logWarnings(t testing.TB, path string, offset int64) {
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Log(err)
		return
	}
	raw = raw[min(offset, int64(len(raw))):]
	counts := map[string]int{}
	for line := range bytes.Lines(raw) {
		var l struct{ Level, Msg string }
		if json.Unmarshal(line, &l) == nil && (l.Level == "WARN" || l.Level == "ERROR") {
			counts[l.Level+" "+l.Msg]++
		}
	}
	for msg, n := range counts {
		t.Logf("the server logged %d× %s", n, msg)
	}
}

// processCPU is the user and system CPU time the process has used so far, from
// /proc/<pid>/stat (utime and stime, fields 14 and 15, in clock ticks).
func processCPU(t testing.TB, pid int, tick time.Duration) time.Duration {
	t.Helper()
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	// The command name (field 2) is in parentheses and may hold spaces.
	fields := strings.Fields(string(raw[bytes.LastIndexByte(raw, ')')+1:]))
	if len(fields) < 13 {
		t.Fatalf("/proc/%d/stat: %s", pid, raw)
	}
	utime, err1 := strconv.ParseInt(fields[11], 10, 64)
	stime, err2 := strconv.ParseInt(fields[12], 10, 64)
	if err1 != nil || err2 != nil {
		t.Fatalf("/proc/%d/stat: %s", pid, raw)
	}
	return time.Duration(utime+stime) * tick
}

// clockTick is the length of the clock tick /proc counts CPU time in (getconf CLK_TCK).
func clockTick(t testing.TB) time.Duration {
	t.Helper()
	out, err := exec.Command("getconf", "CLK_TCK").Output()
	if err != nil {
		return 10 * time.Millisecond // USER_HZ is 100 on Linux
	}
	hz, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil || hz < 1 {
		t.Fatalf("getconf CLK_TCK answered %q", out)
	}
	return time.Second / time.Duration(hz)
}

func profileCall(t testing.TB, addr, what string) []byte {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/profile/" + what)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("/profile/%s answered %d: %s", what, resp.StatusCode, raw)
	}
	return raw
}

// serveProfiles answers /profile/start (begin a CPU profile of this process),
// /profile/stop (end it and answer it) and /profile/goroutines (every goroutine's stack, to
// see what a stalled server waits for) on addr; it runs in the server child only.
func serveProfiles(addr string) {
	var mu sync.Mutex
	var buf *bytes.Buffer
	mux := http.NewServeMux()
	mux.HandleFunc("/profile/start", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		buf = &bytes.Buffer{}
		if err := pprof.StartCPUProfile(buf); err != nil {
			http.Error(w, err.Error(), http.StatusConflict)
		}
	})
	mux.HandleFunc("/profile/stop", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if buf == nil {
			http.Error(w, "no profile started", http.StatusConflict)
			return
		}
		pprof.StopCPUProfile()
		w.Write(buf.Bytes())
		buf = nil
	})
	mux.HandleFunc("/profile/goroutines", func(w http.ResponseWriter, r *http.Request) {
		pprof.Lookup("goroutine").WriteTo(w, 2)
	})
	if err := http.ListenAndServe(addr, mux); err != nil {
		fmt.Fprintln(os.Stderr, "profile listener:", err)
	}
}
