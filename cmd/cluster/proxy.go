package main

import (
	"net/http"
	"net/http/httputil"
	"net/url"
	"sync/atomic"
)

// proxy is the load balancer in front of the API instances: each request goes to the next
// instance whose process still runs, in turn. httputil.ReverseProxy passes WebSocket
// upgrades through and flushes event streams as they are written; it sets
// X-Forwarded-For, which the instances believe from loopback (APP_TRUSTED_PROXIES).
// A request an instance was answering when it died gets 502; the client retries it.
type proxy struct {
	backends []backend
	next     atomic.Uint64
}

type backend struct {
	url     *url.URL
	process *process
}

func (p *proxy) handler() http.Handler {
	return &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		r.SetURL(p.pick())
		r.SetXForwarded()
		r.Out.Host = r.In.Host
	}}
}

// pick answers the next running backend, or the next one at all when none runs (the
// request then fails with 502).
func (p *proxy) pick() *url.URL {
	n := uint64(len(p.backends))
	start := p.next.Add(1)
	for i := range n {
		if b := p.backends[(start+i)%n]; !b.process.exited() {
			return b.url
		}
	}
	return p.backends[start%n].url
}
