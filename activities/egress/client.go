package egress

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"sync/atomic"
	"time"
)

const (
	// DefaultMaxBody caps a response body when NewClient is given no positive limit.
	DefaultMaxBody = 1 << 20
	// DefaultTimeout bounds one call end to end, redirects and body included. Callers set
	// shorter deadlines through the request's context.
	DefaultTimeout = 2 * time.Minute
	// MaxRedirects is how many redirects one call follows.
	MaxRedirects = 5
)

// ErrTooManyRedirects is returned (wrapped in a *url.Error) when a call would follow more
// than MaxRedirects redirects.
var ErrTooManyRedirects = fmt.Errorf("stopped after %d redirects", MaxRedirects)

// NewClient returns the HTTP client for user-configured targets: it dials through
// p.DialContext (never through a proxy from the environment), follows at most MaxRedirects
// redirects and only to http or https, fails reading a response body longer than maxBody
// bytes (DefaultMaxBody when maxBody <= 0) with *BodyTooLargeError, and gives up after
// DefaultTimeout. A request sent within a trace is a client span of it, and tells the
// target the trace only where ForwardTraceContext allows it.
func NewClient(p Policy, maxBody int64) *http.Client {
	if maxBody <= 0 {
		maxBody = DefaultMaxBody
	}
	transport := &http.Transport{
		Proxy:                 nil,
		DialContext:           p.DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          100,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
	return &http.Client{
		Transport:     tracedTransport{base: &cappedTransport{base: transport, max: maxBody}},
		CheckRedirect: checkRedirect,
		Timeout:       DefaultTimeout,
	}
}

// checkRedirect limits the chain and its schemes; the address of each hop is checked when
// it is dialled.
func checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) > MaxRedirects {
		return ErrTooManyRedirects
	}
	if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
		return &RefusedError{Host: req.URL.Host, Reason: "redirect to unsupported scheme " + req.URL.Scheme}
	}
	return nil
}

// BodyTooLargeError is returned while reading a response body that exceeds the client's cap.
type BodyTooLargeError struct {
	Limit int64
}

func (e *BodyTooLargeError) Error() string {
	return fmt.Sprintf("response body exceeds %d bytes", e.Limit)
}

type cappedTransport struct {
	base http.RoundTripper
	max  int64
}

func (t *cappedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	resp.Body = &cappedBody{body: resp.Body, max: t.max}
	return resp, nil
}

// cappedBody reads at most max bytes and fails, rather than truncates, beyond them.
type cappedBody struct {
	body io.ReadCloser
	max  int64
	read int64
}

func (b *cappedBody) Read(p []byte) (int, error) {
	if b.read > b.max {
		return 0, &BodyTooLargeError{Limit: b.max}
	}
	// Ask for one byte past the cap so that an exact-size body is told from a longer one.
	if room := b.max - b.read + 1; int64(len(p)) > room {
		p = p[:room]
	}
	n, err := b.body.Read(p)
	b.read += int64(n)
	if b.read > b.max {
		return n - int(b.read-b.max), &BodyTooLargeError{Limit: b.max}
	}
	return n, err
}

func (b *cappedBody) Close() error { return b.body.Close() }

// Progress records whether a call got as far as sending its request, which decides whether
// a failure may have taken effect at the target.
type Progress struct {
	sent atomic.Bool
}

// Track returns a context that records into the returned Progress every request sent with
// it, redirect hops included.
func Track(ctx context.Context) (context.Context, *Progress) {
	p := &Progress{}
	// A request whose write failed half-way may still have reached the target, so any write
	// attempt counts as sent.
	trace := &httptrace.ClientTrace{WroteRequest: func(httptrace.WroteRequestInfo) { p.sent.Store(true) }}
	return httptrace.WithClientTrace(ctx, trace), p
}

// Sent tells whether a request was written to a connection: from then on the target may
// have acted on it even when no answer arrives.
func (p *Progress) Sent() bool { return p.sent.Load() }

// IsRefused tells whether err is, or wraps, a refusal by the policy.
func IsRefused(err error) bool {
	var r *RefusedError
	return errors.As(err, &r)
}
