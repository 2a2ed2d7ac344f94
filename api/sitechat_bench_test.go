package api_test

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"agencyhub/api"
	"agencyhub/migrations/dbtest"
	"agencyhub/models/sitechat"
)

// BenchmarkSiteChatFanOut opens 5,000 visitor sockets and 50 operator sockets on one
// project through real sockets, then posts visitor messages at a steady rate: each reaches
// its visitor's socket and the 50 operators'. It reports the latency from the post (the
// committed write the HTTP handler makes) to each delivery, and the memory each open socket
// costs, both ends of it counted (client and server share the process).
func BenchmarkSiteChatFanOut(b *testing.B) {
	const (
		visitors  = 5000
		operators = 50
		posts     = 1000
		rate      = 200 // posts a second
	)
	raiseOpenFiles(b, 2*(visitors+operators)+1024)
	// In the field each visitor has an address of its own; here all share the loopback
	// address, which the per-address limit of public calls would stop after its burst.
	e := newChatEnv(b, dbtest.SQLite(b), func(s *api.Server) { s.SiteChatLimiter = nil })
	site := e.chatSite("Ada")
	ctx := context.Background()

	accesses := make([]*sitechat.VisitorAccess, visitors)
	queries := make([]string, visitors)
	for i := range visitors {
		p, err := e.server.SiteChat.Presence(ctx, sitechat.PresenceInput{PublicKey: site.publicKey})
		if err != nil {
			b.Fatal(err)
		}
		accesses[i] = p.Access
		queries[i] = "public_key=" + url.QueryEscape(site.publicKey) + "&visit_session_id=" + p.Access.Session.ID.String() + "&visitor_token=" + url.QueryEscape(p.Token)
	}

	var (
		mu      sync.Mutex
		posted  = map[string]time.Time{}
		latency []time.Duration
		storing []time.Duration // how long each post took to commit
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
	wsURL := "ws" + strings.TrimPrefix(e.url, "http")
	dial := func(path string, header map[string][]string) (*websocket.Conn, error) {
		conn, resp, err := websocket.DefaultDialer.Dial(wsURL+path, header)
		if err != nil {
			if resp != nil {
				err = fmt.Errorf("%w: %s", err, resp.Status)
			}
			return nil, err
		}
		b.Cleanup(func() { conn.Close() })
		return conn, nil
	}

	before := heapAndStacks()
	var (
		conns        []*websocket.Conn
		dialErr      error
		dialing      sync.Mutex
		wg           sync.WaitGroup
		work         = make(chan string)
		operatorAuth = map[string][]string{"Authorization": {"Bearer " + site.owner.token}}
	)
	for range 32 {
		wg.Go(func() {
			for q := range work {
				c, err := dial("/api/v1/public/site-chat/ws?"+q, nil)
				dialing.Lock()
				if err != nil {
					dialErr = cmp.Or(dialErr, err)
				} else {
					conns = append(conns, c)
				}
				dialing.Unlock()
			}
		})
	}
	for _, q := range queries {
		work <- q
	}
	close(work)
	wg.Wait()
	if dialErr != nil {
		b.Fatal("a visitor socket: ", dialErr)
	}
	for range operators {
		c, err := dial("/api/v1/site-chat/ws/operator", operatorAuth)
		if err != nil {
			b.Fatal("an operator socket: ", err)
		}
		conns = append(conns, c)
	}
	e.waitSockets(visitors, operators)
	perSocket := (heapAndStacks() - before) / (visitors + operators)
	for _, c := range conns {
		go listen(c)
	}

	b.ResetTimer()
	tick := time.NewTicker(time.Second / rate)
	defer tick.Stop()
	var posting sync.WaitGroup
	for i := range posts {
		<-tick.C
		body := "m" + strconv.Itoa(i)
		got.Add(1 + operators)
		mu.Lock()
		posted[body] = time.Now()
		mu.Unlock()
		posting.Go(func() {
			start := time.Now()
			if _, _, err := e.server.SiteChat.PostVisitorMessage(ctx, accesses[i%visitors], sitechat.MessageInput{Body: body}); err != nil {
				b.Error(err)
			}
			mu.Lock()
			storing = append(storing, time.Since(start))
			mu.Unlock()
		})
	}
	posting.Wait()
	done := make(chan struct{})
	go func() { got.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		b.Fatalf("%d deliveries of %d within a minute", len(latency), posts*(1+operators))
	}
	b.StopTimer()

	pct := func(d []time.Duration, p float64) float64 {
		slices.Sort(d)
		return float64(d[int(p*float64(len(d)-1))].Microseconds()) / 1000
	}
	b.ReportMetric(pct(latency, 0.50), "p50-ms")
	b.ReportMetric(pct(latency, 0.99), "p99-ms")
	b.ReportMetric(pct(storing, 0.99), "commit-p99-ms")
	b.ReportMetric(float64(perSocket)/1024, "KiB/socket")
	b.ReportMetric(float64(len(latency)), "deliveries")
}

// heapAndStacks is the memory in use by the heap and the goroutines' stacks, after a
// collection.
func heapAndStacks() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse + m.StackInuse
}

// raiseOpenFiles lifts the soft limit on open files to n (at most the hard limit): every
// socket holds two descriptors here, one per end.
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
