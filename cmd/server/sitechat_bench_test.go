package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"agencyhub/platform/benchtest"
)

// BenchmarkSiteChatFanOut measures the site chat's fan-out through the real binary: the
// server runs as a child process (SQLite file, embedded Temporal), 5,000 visitors post
// their presence over HTTP and open their sockets, 50 operator sockets follow the project,
// then visitors post 1,000 messages over HTTP at 200 a second; each reaches its visitor's
// socket and the 50 operators'. Reported: p50/p99-ms from the post to each delivery,
// post-p99-ms (the post's answer, its commit included), and server-KiB/socket, the server
// process's resident memory grown while the sockets opened, per socket. The senders and
// sockets live in this process, so their memory and collections are not the server's.
func BenchmarkSiteChatFanOut(b *testing.B) {
	const (
		visitors  = 5000
		operators = 50
		posts     = 1000
		rate      = 200 // posts a second
	)
	raiseOpenFiles(b, visitors+operators+1024)
	env := newChildEnv(b)
	// In the field each visitor has an address of its own; here all share the loopback
	// address, which the per-address limit of public calls would stop after its burst.
	env.extra = append(env.extra, "APP_SITE_CHAT_RATE=1000000", "APP_SITE_CHAT_BURST=1000000")
	server := env.start(b)
	base := "http://" + env.addr
	c, project := signUp(b, base)
	publicKey := str(b, c.do(b, "POST", "/api/v1/projects/"+project+"/site-chat-widgets", map[string]any{"name": "Bench shop"}, http.StatusCreated), "public_key")

	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	b.Cleanup(client.CloseIdleConnections)
	post := func(path, token string, body map[string]any) (map[string]any, error) {
		raw, _ := json.Marshal(body)
		req, _ := http.NewRequest("POST", base+path, bytes.NewReader(raw))
		req.Header.Set("Content-Type", "application/json")
		if token != "" {
			req.Header.Set("X-Visitor-Token", token)
		}
		resp, err := client.Do(req)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		out := map[string]any{}
		if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode >= 300 {
			return nil, fmt.Errorf("%s answered %d: %v %v", path, resp.StatusCode, out, err)
		}
		return out, nil
	}
	type visitor struct{ token, query string }
	present := make([]visitor, visitors)
	parallel(b, visitors, func(i int) error {
		p, err := post("/api/v1/public/site-chat/presence", "", map[string]any{"public_key": publicKey, "anonymous_id": fmt.Sprintf("bench-visitor-%06d", i), "url": "https://shop.test/"})
		if err != nil {
			return err
		}
		token, _ := p["visitor_token"].(string)
		session, _ := p["visit_session_id"].(string)
		present[i] = visitor{token, "public_key=" + url.QueryEscape(publicKey) + "&visit_session_id=" + session + "&visitor_token=" + url.QueryEscape(token)}
		return nil
	})

	var (
		mu      sync.Mutex
		posted  = map[string]time.Time{}
		latency []time.Duration
		got     sync.WaitGroup
	)
	// listen records, for each chat.message a socket receives, how long after its post.
	listen := func(conn *websocket.Conn) {
		for {
			_, raw, err := conn.ReadMessage()
			if err != nil {
				return
			}
			at := time.Now()
			var env struct {
				Type    string
				Payload struct{ Body string }
			}
			if json.Unmarshal(raw, &env) != nil || env.Type != "chat.message" {
				continue
			}
			mu.Lock()
			if t0, ok := posted[env.Payload.Body]; ok {
				latency = append(latency, at.Sub(t0))
				got.Done()
			}
			mu.Unlock()
		}
	}
	wsBase := "ws://" + env.addr
	dial := func(path string, header http.Header) error {
		conn, resp, err := websocket.DefaultDialer.Dial(wsBase+path, header)
		if err != nil {
			if resp != nil {
				err = fmt.Errorf("%w: %s", err, resp.Status)
			}
			return err
		}
		b.Cleanup(func() { conn.Close() })
		go listen(conn)
		return nil
	}
	before := residentKiB(b, server.cmd.Process.Pid)
	parallel(b, visitors, func(i int) error { return dial("/api/v1/public/site-chat/ws?"+present[i].query, nil) })
	parallel(b, operators, func(int) error {
		return dial("/api/v1/site-chat/ws/operator", http.Header{"Authorization": {"Bearer " + c.token}})
	})
	perSocket := float64(residentKiB(b, server.cmd.Process.Pid)-before) / (visitors + operators)

	b.ResetTimer()
	tick := time.NewTicker(time.Second / rate)
	defer tick.Stop()
	var posting sync.WaitGroup
	answers := make([]time.Duration, posts)
	for i := range posts {
		<-tick.C
		body := "m" + strconv.Itoa(i)
		got.Add(1 + operators)
		mu.Lock()
		posted[body] = time.Now()
		mu.Unlock()
		posting.Go(func() {
			start := time.Now()
			if _, err := post("/api/v1/public/site-chat/messages", present[i%visitors].token, map[string]any{"body": body}); err != nil {
				b.Error(err)
			}
			answers[i] = time.Since(start)
		})
	}
	posting.Wait()
	done := make(chan struct{})
	go func() { got.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		mu.Lock()
		defer mu.Unlock()
		b.Fatalf("%d deliveries of %d within a minute", len(latency), posts*(1+operators))
	}
	b.StopTimer()

	b.ReportMetric(benchtest.Millis(benchtest.Percentile(latency, 50)), "p50-ms")
	b.ReportMetric(benchtest.Millis(benchtest.Percentile(latency, 99)), "p99-ms")
	b.ReportMetric(benchtest.Millis(benchtest.Percentile(answers, 99)), "post-p99-ms")
	b.ReportMetric(perSocket, "server-KiB/socket")
	b.ReportMetric(float64(len(latency)), "deliveries")
}

// parallel calls fn for 0..n-1 from 32 goroutines, and fails b with the first error.
func parallel(b *testing.B, n int, fn func(i int) error) {
	b.Helper()
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
		next  = make(chan int)
	)
	for range 32 {
		wg.Go(func() {
			for i := range next {
				if err := fn(i); err != nil {
					mu.Lock()
					first = cmp.Or(first, err)
					mu.Unlock()
				}
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	if first != nil {
		b.Fatal(first)
	}
}

// residentKiB is a process's resident memory (VmRSS) in KiB.
func residentKiB(b *testing.B, pid int) int {
	b.Helper()
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatal(err)
	}
	for line := range strings.Lines(string(raw)) {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kib, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			if err != nil {
				b.Fatal(err)
			}
			return kib
		}
	}
	b.Fatalf("no VmRSS in /proc/%d/status", pid)
	return 0
}

// raiseOpenFiles lifts the soft limit on open files to n (at most the hard limit).
func raiseOpenFiles(b *testing.B, n uint64) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		b.Fatal(err)
	}
	if lim.Cur >= n {
		return
	}
	lim.Cur = min(n, lim.Max)
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil || lim.Cur < n {
		b.Skipf("open-file limit %d is below the %d this benchmark needs: %v", lim.Cur, n, err)
	}
}
