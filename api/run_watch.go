package api

import (
	"context"
	"time"

	"github.com/google/uuid"

	"agencyhub/models/automation"
	"agencyhub/models/realtime"
)

// runWatch wakes a handler that waits on a run (an event stream, a receipt wait) when the
// run's projection changes: at once through the bus, or at the latest after the safety
// poll, should a notification be lost.
type runWatch struct {
	sub    *realtime.Subscription
	bus    <-chan realtime.Message
	safety *time.Ticker
}

// watchRun subscribes to the run's changes; call it before reading the run, so that no
// change falls between the read and the subscription.
func (s *Server) watchRun(runID uuid.UUID) *runWatch {
	sub := s.Bus.Subscribe(automation.RunTopic(runID))
	return &runWatch{sub: sub, bus: sub.C(), safety: time.NewTicker(s.SafetyPoll)}
}

// wait blocks until the run may have changed (true), or ctx ends or other fires (false).
func (w *runWatch) wait(ctx context.Context, other <-chan time.Time) bool {
	select {
	case _, open := <-w.bus:
		if !open {
			w.bus = nil // the bus closed: the safety poll alone wakes from now on
		}
		return true
	case <-w.safety.C:
		return true
	case <-other:
		return false
	case <-ctx.Done():
		return false
	}
}

func (w *runWatch) close() {
	w.safety.Stop()
	w.sub.Close()
}
