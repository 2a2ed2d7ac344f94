package egress

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// target is a local HTTP server that counts the requests reaching it.
type target struct {
	*httptest.Server
	hits atomic.Int32
}

func startTarget(t *testing.T, h http.HandlerFunc) *target {
	t.Helper()
	tg := &target{}
	tg.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tg.hits.Add(1)
		h(w, r)
	}))
	t.Cleanup(tg.Close)
	return tg
}

// viaLocalhost is the server's URL with the host name localhost instead of 127.0.0.1.
func (tg *target) viaLocalhost() string {
	_, port, _ := net.SplitHostPort(tg.Listener.Addr().String())
	return "http://localhost:" + port
}

func mustPolicy(t *testing.T, s string) Policy {
	t.Helper()
	p, err := ParsePolicy(s)
	if err != nil {
		t.Fatalf("ParsePolicy(%q): %v", s, err)
	}
	return p
}

func get(ctx context.Context, c *http.Client, url string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return "", err
	}
	resp, err := c.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return string(b), err
}

func hello(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, "hello") }

func TestTheClientRefusesLoopbackByDefault(t *testing.T) {
	tg := startTarget(t, hello)
	for _, url := range []string{tg.URL, tg.viaLocalhost()} {
		ctx, progress := Track(context.Background())
		_, err := get(ctx, NewClient(Policy{}, 0), url)
		var refused *RefusedError
		if !errors.As(err, &refused) || refused.Reason != "loopback address" {
			t.Fatalf("GET %s: err = %v, want a loopback refusal", url, err)
		}
		if progress.Sent() {
			t.Errorf("GET %s: the refused request counts as sent", url)
		}
	}
	if n := tg.hits.Load(); n != 0 {
		t.Fatalf("the server got %d requests, want none", n)
	}
}

func TestTheClientReachesAllowListedTargets(t *testing.T) {
	tg := startTarget(t, hello)
	for _, tt := range []struct{ name, allow, url string }{
		{"by network", "127.0.0.0/8", tg.URL},
		{"by address", "127.0.0.1", tg.URL},
		{"by host name", "localhost", tg.viaLocalhost()},
	} {
		t.Run("loopback allow-listed "+tt.name+" is reached", func(t *testing.T) {
			ctx, progress := Track(context.Background())
			body, err := get(ctx, NewClient(mustPolicy(t, tt.allow), 0), tt.url)
			if err != nil || body != "hello" {
				t.Fatalf("GET = %q, %v; want hello", body, err)
			}
			if !progress.Sent() {
				t.Error("the request does not count as sent")
			}
		})
	}
	t.Run("a host allow-listed by name does not open its address to other names", func(t *testing.T) {
		_, err := get(context.Background(), NewClient(mustPolicy(t, "localhost"), 0), tg.URL)
		if !IsRefused(err) {
			t.Fatalf("GET %s = %v, want a refusal", tg.URL, err)
		}
	})
}

func TestARedirectFromAnAllowedHostToARefusedAddressIsRefused(t *testing.T) {
	internal := startTarget(t, hello)
	front := startTarget(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, internal.URL+"/secret", http.StatusFound)
	})
	_, err := get(context.Background(), NewClient(mustPolicy(t, "localhost"), 0), front.viaLocalhost())
	if !IsRefused(err) {
		t.Fatalf("GET = %v, want a refusal of the redirect target", err)
	}
	if front.hits.Load() != 1 || internal.hits.Load() != 0 {
		t.Fatalf("hits: front %d, internal %d; want 1 and 0", front.hits.Load(), internal.hits.Load())
	}
}

func TestTheClientFollowsAtMostFiveRedirects(t *testing.T) {
	var tg *target
	tg = startTarget(t, func(w http.ResponseWriter, r *http.Request) {
		var n int
		fmt.Sscanf(r.URL.Query().Get("n"), "%d", &n)
		if limit := r.URL.Query().Get("limit"); fmt.Sprint(n) == limit {
			hello(w, r)
			return
		}
		http.Redirect(w, r, fmt.Sprintf("%s/?n=%d&limit=%s", tg.URL, n+1, r.URL.Query().Get("limit")), http.StatusFound)
	})
	c := NewClient(mustPolicy(t, "127.0.0.1"), 0)
	if body, err := get(context.Background(), c, tg.URL+"/?n=0&limit=5"); err != nil || body != "hello" {
		t.Fatalf("five redirects: %q, %v; want hello", body, err)
	}
	if _, err := get(context.Background(), c, tg.URL+"/?n=0&limit=6"); !errors.Is(err, ErrTooManyRedirects) {
		t.Fatalf("six redirects: err = %v, want ErrTooManyRedirects", err)
	}
}

func TestARedirectToAnotherSchemeIsRefused(t *testing.T) {
	tg := startTarget(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "ftp://files.example.com/x", http.StatusFound)
	})
	_, err := get(context.Background(), NewClient(mustPolicy(t, "127.0.0.1"), 0), tg.URL)
	if !IsRefused(err) {
		t.Fatalf("GET = %v, want a refusal", err)
	}
}

func TestResponseBodiesLongerThanTheCapFailToRead(t *testing.T) {
	const limit = 1000
	tg := startTarget(t, func(w http.ResponseWriter, r *http.Request) {
		var n int
		fmt.Sscanf(r.URL.Query().Get("size"), "%d", &n)
		fmt.Fprint(w, strings.Repeat("x", n))
	})
	c := NewClient(mustPolicy(t, "127.0.0.1"), limit)
	if body, err := get(context.Background(), c, fmt.Sprintf("%s/?size=%d", tg.URL, limit)); err != nil || len(body) != limit {
		t.Fatalf("a body of exactly the cap: %d bytes, %v", len(body), err)
	}
	_, err := get(context.Background(), c, fmt.Sprintf("%s/?size=%d", tg.URL, 5*limit))
	var tooLarge *BodyTooLargeError
	if !errors.As(err, &tooLarge) || tooLarge.Limit != limit {
		t.Fatalf("a body past the cap: err = %v, want BodyTooLargeError{%d}", err, limit)
	}
}

func TestReasonNamesTheFailureWithoutURLOrResolver(t *testing.T) {
	tg := startTarget(t, hello)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tt := range []struct {
		name, url, want string
		ctx             context.Context
		policy          Policy
	}{
		{"a refusal", tg.URL + "/?key=s3cret", "egress refused: 127.0.0.1 is a loopback address", context.Background(), Policy{}},
		{"an unknown name", "http://no-such-host.invalid/?key=s3cret", "the name no-such-host.invalid does not resolve", context.Background(), Policy{}},
		{"a closed port", "http://" + closedAddr(t) + "/?key=s3cret", "connection refused", context.Background(), mustPolicy(t, "127.0.0.1")},
		{"a cancelled call", tg.URL + "/?key=s3cret", "context canceled", ctx, mustPolicy(t, "127.0.0.1")},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := get(tt.ctx, NewClient(tt.policy, 0), tt.url)
			if err == nil {
				t.Fatal("the call succeeded")
			}
			if got := Reason(err); got != tt.want {
				t.Fatalf("Reason = %q, want %q (err %v)", got, tt.want, err)
			}
		})
	}
}

// closedAddr is a loopback address where nothing listens.
func closedAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}
