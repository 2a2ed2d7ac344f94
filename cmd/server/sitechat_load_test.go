package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// chatFanOut is the site chat load of BenchmarkSiteChatFanOut and of the fault test across
// two instances: visitors post their presence over HTTP and open their sockets, operators
// open theirs, then visitors post messages over HTTP. Each chat.message a socket receives
// is counted by socket and message, so that one delivered twice, or to another visitor's
// socket, shows as well as one lost. Visitor i, operator j and message k go to the
// instances bases[i%n], bases[j%n] and bases[(k/2)%n]: with two instances, half of the
// messages are posted on the instance their visitor's socket is not on.
type chatFanOut struct {
	bases     []string
	publicKey string
	client    *http.Client
	visitors  []chatVisitor
	operators int
	// ending is set once the load is over, so that sockets closed after it are not counted
	// as cut.
	ending atomic.Bool

	mu        sync.Mutex
	posted    []time.Time // by message, when its post was sent; zero until then
	expected  int         // deliveries of the messages posted so far, one per socket they concern
	delivered int         // of those, how many arrived (a message's first arrival at a socket)
	received  map[chatDelivery]int
	// latency is from the post to each delivery; across, of the deliveries to a socket on
	// another instance than the one that took the post (through the bus's NOTIFY).
	latency, across []time.Duration
	duplicates      int // arrivals of a message at a socket that had it already
	misrouted       int // arrivals at a visitor's socket of another visitor's message
	cut             int // sockets closed by the server before the load ended
}

type chatVisitor struct{ token, query string }

// chatDelivery is one message at one socket: visitors are sockets 0..visitors-1, operators
// follow.
type chatDelivery struct{ socket, message int }

// newChatFanOut creates a widget in the project through c and answers the load, whose
// clients alternate between bases (the instances' "http://host:port").
func newChatFanOut(tb testing.TB, c *apiClient, project string, bases []string) *chatFanOut {
	tb.Helper()
	l := &chatFanOut{
		bases:    bases,
		client:   &http.Client{Timeout: time.Minute, Transport: &http.Transport{MaxIdleConnsPerHost: 64}},
		received: map[chatDelivery]int{},
	}
	tb.Cleanup(l.client.CloseIdleConnections)
	l.publicKey = str(tb, c.do(tb, "POST", "/api/v1/projects/"+project+"/site-chat-widgets", map[string]any{"name": "Load shop"}, http.StatusCreated), "public_key")
	return l
}

func (l *chatFanOut) base(i int) string { return l.bases[i%len(l.bases)] }

// post sends a public site chat call to the instance of index i.
func (l *chatFanOut) post(i int, path, token string, body map[string]any) (map[string]any, error) {
	raw, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", l.base(i)+path, bytes.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("X-Visitor-Token", token)
	}
	resp, err := l.client.Do(req)
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

// present posts the presence of n visitors, each on its own instance.
func (l *chatFanOut) present(tb testing.TB, n int) {
	tb.Helper()
	l.visitors = make([]chatVisitor, n)
	parallel(tb, n, func(i int) error {
		p, err := l.post(i, "/api/v1/public/site-chat/presence", "", map[string]any{"public_key": l.publicKey, "anonymous_id": fmt.Sprintf("load-visitor-%06d", i), "url": "https://shop.test/"})
		if err != nil {
			return err
		}
		token, _ := p["visitor_token"].(string)
		session, _ := p["visit_session_id"].(string)
		l.visitors[i] = chatVisitor{token, "public_key=" + url.QueryEscape(l.publicKey) + "&visit_session_id=" + session + "&visitor_token=" + url.QueryEscape(token)}
		return nil
	})
}

// open opens the visitors' sockets, then operators operator sockets signed in with
// operatorToken.
func (l *chatFanOut) open(tb testing.TB, operatorToken string, operators int) {
	tb.Helper()
	dial := func(socket, instance int, path string, header http.Header) error {
		conn, resp, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(l.base(instance), "http")+path, header)
		if err != nil {
			if resp != nil {
				err = fmt.Errorf("%w: %s", err, resp.Status)
			}
			return err
		}
		tb.Cleanup(func() { conn.Close() })
		go l.listen(conn, socket)
		return nil
	}
	parallel(tb, len(l.visitors), func(i int) error {
		return dial(i, i, "/api/v1/public/site-chat/ws?"+l.visitors[i].query, nil)
	})
	l.operators = operators
	parallel(tb, operators, func(j int) error {
		return dial(len(l.visitors)+j, j, "/api/v1/site-chat/ws/operator", http.Header{"Authorization": {"Bearer " + operatorToken}})
	})
}

// instanceOf answers the index of the instance a socket is on.
func (l *chatFanOut) instanceOf(socket int) int {
	if socket >= len(l.visitors) {
		socket -= len(l.visitors)
	}
	return socket % len(l.bases)
}

// postInstance answers the index of the instance message is posted on.
func (l *chatFanOut) postInstance(message int) int { return (message / 2) % len(l.bases) }

// listen counts the chat.message envelopes a socket receives.
func (l *chatFanOut) listen(conn *websocket.Conn, socket int) {
	for {
		_, raw, err := conn.ReadMessage()
		if err != nil {
			if !l.ending.Load() {
				l.mu.Lock()
				l.cut++
				l.mu.Unlock()
			}
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
		rest, ok := strings.CutPrefix(env.Payload.Body, "m")
		message, err := strconv.Atoi(rest)
		l.mu.Lock()
		if ok && err == nil && message >= 0 && message < len(l.posted) && !l.posted[message].IsZero() {
			l.arrived(chatDelivery{socket, message}, at)
		}
		l.mu.Unlock()
	}
}

// arrived records d; called with l.mu held.
func (l *chatFanOut) arrived(d chatDelivery, at time.Time) {
	if d.socket < len(l.visitors) && d.socket != d.message%len(l.visitors) {
		l.misrouted++
		return
	}
	l.received[d]++
	if l.received[d] > 1 {
		l.duplicates++
		return
	}
	l.delivered++
	took := at.Sub(l.posted[d.message])
	l.latency = append(l.latency, took)
	if l.instanceOf(d.socket) != l.postInstance(d.message) {
		l.across = append(l.across, took)
	}
}

// send posts n messages at rate a second, message k by visitor k%visitors, and answers
// how long each post took to be answered.
func (l *chatFanOut) send(tb testing.TB, n, rate int) []time.Duration {
	tb.Helper()
	l.mu.Lock()
	l.posted = make([]time.Time, n)
	l.mu.Unlock()
	var posting sync.WaitGroup
	answers := make([]time.Duration, n)
	start := time.Now()
	for k := range n {
		// On schedule, however late the last one was: a ticker would skip the ticks this
		// process was too busy to take, and send fewer a second than it was asked to.
		time.Sleep(time.Until(start.Add(time.Duration(k) * time.Second / time.Duration(rate))))
		body := "m" + strconv.Itoa(k)
		l.mu.Lock()
		l.expected += 1 + l.operators
		l.posted[k] = time.Now()
		l.mu.Unlock()
		posting.Go(func() {
			start := time.Now()
			if _, err := l.post(l.postInstance(k), "/api/v1/public/site-chat/messages", l.visitors[k%len(l.visitors)].token, map[string]any{"body": body}); err != nil {
				tb.Error(err)
			}
			answers[k] = time.Since(start)
		})
	}
	posting.Wait()
	return answers
}

// wait waits up to within for every delivery of the messages sent, and answers an error
// naming what is missing.
func (l *chatFanOut) wait(within time.Duration) error {
	deadline := time.Now().Add(within)
	for {
		l.mu.Lock()
		done := l.delivered == l.expected
		l.mu.Unlock()
		if done {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%d deliveries of %d within %v; missing: %s", l.delivered, l.expected, within, l.missing())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// missing counts the deliveries not received, by the side of the socket and whether it is
// on the instance that took the post.
func (l *chatFanOut) missing() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	counts := map[string]int{}
	for message, at := range l.posted {
		if at.IsZero() {
			continue
		}
		sockets := []int{message % len(l.visitors)}
		for j := range l.operators {
			sockets = append(sockets, len(l.visitors)+j)
		}
		for _, s := range sockets {
			if l.received[chatDelivery{s, message}] > 0 {
				continue
			}
			side, where := "operator", "same instance"
			if s < len(l.visitors) {
				side = "visitor"
			}
			if l.instanceOf(s) != l.postInstance(message) {
				where = "other instance"
			}
			counts[side+", "+where]++
		}
	}
	return fmt.Sprint(counts)
}

// chatFanOutResult is what a chatFanOut counted.
type chatFanOutResult struct {
	latency, across                       []time.Duration
	delivered, duplicates, misrouted, cut int
}

// end marks the load as over, so that sockets closed from now on are not counted as cut,
// and answers what it counted.
func (l *chatFanOut) end() chatFanOutResult {
	l.ending.Store(true)
	l.mu.Lock()
	defer l.mu.Unlock()
	return chatFanOutResult{slices.Clone(l.latency), slices.Clone(l.across), l.delivered, l.duplicates, l.misrouted, l.cut}
}

// parallel calls fn for 0..n-1 from 32 goroutines, and fails tb with the first error.
func parallel(tb testing.TB, n int, fn func(i int) error) {
	tb.Helper()
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
		tb.Fatal(first)
	}
}

// residentKiB is a process's resident memory (VmRSS) in KiB.
func residentKiB(tb testing.TB, pid int) int {
	tb.Helper()
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		tb.Fatal(err)
	}
	for line := range strings.Lines(string(raw)) {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kib, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			if err != nil {
				tb.Fatal(err)
			}
			return kib
		}
	}
	tb.Fatalf("no VmRSS in /proc/%d/status", pid)
	return 0
}

// raiseOpenFiles lifts the soft limit on open files to n (at most the hard limit).
func raiseOpenFiles(tb testing.TB, n uint64) {
	tb.Helper()
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		tb.Fatal(err)
	}
	if lim.Cur >= n {
		return
	}
	lim.Cur = min(n, lim.Max)
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil || lim.Cur < n {
		tb.Skipf("open-file limit %d is below the %d this load needs: %v", lim.Cur, n, err)
	}
}
