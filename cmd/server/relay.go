package main

import (
	"context"
	"log/slog"

	"agencyhub/engine"
)

// relayPoller is the running messenger relay poller of this instance.
type relayPoller struct {
	cancel context.CancelFunc
	done   chan struct{}
}

// startRelayPoller runs the poller that pulls bot updates for relays in polling mode. Every
// instance with a worker runs one; the poll leases in the database keep each bot to one
// poller at a time.
func startRelayPoller(r *engine.Relay) *relayPoller {
	ctx, cancel := context.WithCancel(context.Background())
	p := &relayPoller{cancel: cancel, done: make(chan struct{})}
	poller := &engine.RelayPoller{Relay: r, Log: slog.Default()}
	go func() {
		defer close(p.done)
		poller.Run(ctx)
	}()
	return p
}

// stop ends the poller and waits for it: the long polls in flight are abandoned and the
// leases given up, so another instance takes the bots over at once. Nil stops nothing.
func (p *relayPoller) stop() {
	if p == nil {
		return
	}
	p.cancel()
	<-p.done
}
